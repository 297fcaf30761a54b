import FilterDSL

/// Where a ``Scan``'s records come from: a data file (``DataReader``), a database table
/// (`TableSource` in FilterDatabase), or a source of your own.
///
/// A source says what its records are (``schema``, ``recordType``), may take over the part of a
/// query it can answer itself (``pushDown(_:parameters:now:)``, DataFusion's push-down: what it
/// hands back is what the scan still does), and hands its records over in blocks
/// (``read(_:)``). A source whose schema is known from a sample may grow it as it reads: the
/// members of the last section say how, and have defaults for a source whose schema is fixed.
///
/// ```swift
/// final class Inventory: RecordSource {
///   let schema = Schema([.init("sku", .string), .init("stock", .int)])
///   var name: String { "inventory" }
///   var recordType: RecordType<DataRecord> { DataRecord.recordType(schema) }
///   func read(_ body: (DataBlock) throws -> Bool) throws {
///     let rows: [[Value]] = [[.string("A-1"), .int(3)], [.string("B-2"), .int(0)]]
///     _ = try body(.batches([RecordBatch(ColumnTable(schema: schema, rows: rows))]))
///   }
/// }
/// let empty = try Scan(query: SourceText("stock == 0"), source: Inventory()).records()
/// ```
public protocol RecordSource: AnyObject {
  /// The source's name in messages: a file's path, `<stdin>`, a table's name.
  var name: String { get }
  /// The fields of its records.
  var schema: Schema { get }
  /// How filters read its records.
  var recordType: RecordType<DataRecord> { get }
  /// For CSV, the header's columns (output writes them in that order); nil otherwise.
  var header: [String]? { get }

  /// Takes over what the source can answer of `query` itself (run with these parameter
  /// values, at `now`), and returns the rest: the query the scan runs on the records the
  /// source hands over. That rest must give, on those records, what `query` gives on all of
  /// them (each conjunct the source answers is exact, or narrowing and kept in the rest).
  /// Nil, the default: the source takes nothing over, and the scan runs `query` whole.
  func pushDown(_ query: BoundQuery, parameters: [String: Value], now: Instant) throws
    -> BoundQuery?
  /// How many records match `query` (with `limit` and `offset`), when the source can count
  /// them without handing them over (a database's `count(*)`); nil otherwise, the default.
  func count(_ query: BoundQuery, parameters: [String: Value], now: Instant) throws -> Int?
  /// The part of `query` the source runs itself and what is left, in words (`--explain`), or
  /// nil when it runs none of it (the default).
  func explanation(_ query: BoundQuery, parameters: [String: Value], now: Instant) -> String?
  /// What the source reads for `query` that it does not take over, in words (`--explain`
  /// adds it after the plan: a Parquet file's row groups ruled out by their statistics), or
  /// nil (the default).
  func readingNote(_ query: BoundQuery, parameters: [String: Value], now: Instant) -> String?
  /// The fields the scan reads from now on: `nil` for every field of every record (a SQL
  /// script writes them all, output writes records made from their values); else only the
  /// top-level fields named (output copies each record's text, or only counts). The default
  /// reads every field anyway.
  func prepare(decoding fields: Set<String>?)
  /// The most memory the process may hold (resident bytes) while the source reads: a source
  /// that decodes a large part at once (a Parquet row group) refuses one that would take it
  /// past, before it decodes it. Nil: no limit. The default decodes nothing large at once.
  func limitMemory(to bytes: Int?)
  /// Whether each record carries its text as read (a file's bytes), which output copies: then
  /// only the fields a query reads need decoding. False, the default: a record's text is
  /// made from its values.
  var keepsRecordText: Bool { get }
  /// Hands the records over in blocks, in order, until `body` returns false or they end.
  func read(_ body: (DataBlock) throws -> Bool) throws

  // Growing a schema known from a sample (the defaults: it is fixed).

  /// Whether the source has no fields at all (an empty file): a query's fields are then
  /// assumed, with no values.
  var isEmpty: Bool { get }
  /// Whether ``schema`` covers every record, not only a sample.
  var isSchemaFinal: Bool { get }
  /// Makes ``schema`` cover every record, before any is handed over (a file is read through
  /// once more): for a query that names a field its first records lack, and for output
  /// that needs every field's type from the start.
  func inferWhole() throws
  /// For a source with no fields (``isEmpty``): fields called `names`, with no values.
  func assumeFields(_ names: [String])
  /// Counts the changes of ``schema`` since the source was opened: a block is handed over
  /// under the schema current when ``read(_:)`` calls `body`.
  var schemaVersion: Int { get }
  /// The changes of the schema since the last call.
  func takeSchemaChanges() -> [SchemaChange]
  /// `record`, handed over before the schema last grew, read again under the current one.
  func redecoded(_ record: DataRecord) -> DataRecord
  /// Warnings about the records handed over since the last call (values that did not convert
  /// to a fixed type).
  func takeWarnings() -> [DataError]
  /// Lines to say at the end of a read (how many values did not convert).
  var closingWarnings: [String] { get }
  /// How much of the source was read, and its size when known (bytes, for a progress line).
  var progress: (done: Int, total: Int?) { get }
  /// The schema as `--schema` prints it (see ``SchemaOutline``), saying whether it was
  /// inferred from a sample.
  var outline: String { get }
}

extension RecordSource {
  /// No header.
  public var header: [String]? { nil }
  /// Takes nothing over.
  public func pushDown(_ query: BoundQuery, parameters: [String: Value], now: Instant) throws
    -> BoundQuery?
  { nil }
  /// Cannot count without reading.
  public func count(_ query: BoundQuery, parameters: [String: Value], now: Instant) throws
    -> Int?
  { nil }
  /// Runs nothing itself.
  public func explanation(_ query: BoundQuery, parameters: [String: Value], now: Instant)
    -> String?
  { nil }
  /// Nothing to say.
  public func readingNote(_ query: BoundQuery, parameters: [String: Value], now: Instant)
    -> String?
  { nil }
  /// Reads every field anyway.
  public func prepare(decoding fields: Set<String>?) {}
  /// Reads a block at a time: nothing to limit.
  public func limitMemory(to bytes: Int?) {}
  /// Records are made from their values.
  public var keepsRecordText: Bool { false }
  /// Has fields.
  public var isEmpty: Bool { false }
  /// The schema is fixed.
  public var isSchemaFinal: Bool { true }
  /// The schema is already whole.
  public func inferWhole() throws {}
  /// Has fields.
  public func assumeFields(_ names: [String]) {}
  /// Never changes.
  public var schemaVersion: Int { 0 }
  /// Never changes.
  public func takeSchemaChanges() -> [SchemaChange] { [] }
  /// Already under the current schema.
  public func redecoded(_ record: DataRecord) -> DataRecord { record }
  /// None.
  public func takeWarnings() -> [DataError] { [] }
  /// None.
  public var closingWarnings: [String] { [] }
  /// Not measured.
  public var progress: (done: Int, total: Int?) { (0, nil) }
  /// The schema's outline, marked as sampled unless ``isSchemaFinal``.
  public var outline: String { SchemaOutline.text(schema, sampled: !isSchemaFinal) }
}

/// A data file is a source: its schema grows as it is read, and it decodes only the fields a
/// query reads, by column (only the matches become records).
extension DataReader: RecordSource {
  /// Whether the schema covers every record read so far and to come.
  public var isSchemaFinal: Bool { sawEverything }
  /// Records keep the file's text.
  public var keepsRecordText: Bool { true }
  /// The conversion summary (``conversionSummary``).
  public var closingWarnings: [String] { conversionSummary }
  /// Bytes read, and the file's size when known.
  public var progress: (done: Int, total: Int?) { (bytesRead, size) }
  /// The schema's outline, with the null markers inferred from the file.
  public var outline: String {
    SchemaOutline.text(schema, sampled: !sawEverything, nullMarkers: nullMarkers)
  }

  /// Decodes only `fields`, by column; or, for nil, every field of every record, as records.
  public func prepare(decoding fields: Set<String>?) {
    readsByColumn = fields != nil
    if let fields { decodeOnly(fields) }
  }

  /// Hands over blocks (``nextBlock(byColumn:)``) to the end of the input, or until `body`
  /// returns false.
  public func read(_ body: (DataBlock) throws -> Bool) throws {
    while let block = try nextBlock(byColumn: readsByColumn) {
      guard try body(block) else { return }
    }
  }
}
