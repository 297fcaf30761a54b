import FilterDSL

/// A block of records held by column: their values in a `ColumnTable`, for a query to filter
/// over its columns, and for a file's records (``DataReader/nextBatches()``) where each
/// record's text is, so that only the records it matches are made (``records(_:makingText:)``). Records
/// that were not read from a file (a database's rows, a source of your own) get their text
/// made as a JSON object, when they match.
///
/// A query's run takes batches as it takes records (see ``DataBlock``): it compiles itself
/// for the batch's table, and makes records of the rows that match.
public struct RecordBatch: Sendable {
  /// The records' values, by column, under the schema the reader had when it read them.
  public let table: ColumnTable
  /// Where each record's text is in `buffer`; nil when the records were not read from a
  /// file.
  private let texts: [Range<Int>]?
  /// The reader's buffer the texts are in, kept while the batch is.
  private let buffer: [UInt8]
  private let format: RecordFields
  /// Whether the schema the batch was read under is the file's last: the reader had seen the
  /// whole input. (Before, a field may yet widen, and the order of a sort by it change.)
  public let schemaIsFinal: Bool
  /// How many slots a record's values have: up to the last field decoded, as records read
  /// one by one have (the fields past it, which no query reads, are not decoded).
  private let width: Int
  /// Where each row is among the source's records, when the source can fetch them again by
  /// it (``FetchingSource``): ``records(_:makingText:)`` gives each record its ordinal.
  public var ordinals: Ordinals?

  /// The places of a batch's rows among its source's records.
  public enum Ordinals: Sendable {
    /// Row `r` is record `first + r`.
    case from(Int)
    /// Row `r` is record `list[r]`.
    case list([Int])

    /// The place of row `row`.
    public func of(_ row: Int) -> Int? {
      switch self {
      case .from(let first): first + row
      case .list(let list): row < list.count ? list[row] : nil
      }
    }
  }

  init(
    table: ColumnTable, texts: [Range<Int>], buffer: [UInt8], format: RecordFields,
    schemaIsFinal: Bool, width: Int
  ) {
    (self.table, self.texts, self.buffer, self.format) = (table, texts, buffer, format)
    (self.schemaIsFinal, self.width) = (schemaIsFinal, Swift.min(width, table.columns.count))
  }

  /// A batch of records that were not read as text: `table`'s rows, from the file called
  /// `source` (a Parquet file's path, which `-H` shows), if any. Their text is made as a JSON
  /// object of the table's schema (see `DataRecord.init(_:schema:)`), where a sink reads it.
  public init(_ table: ColumnTable, source: String? = nil) {
    // Every field of the schema is in the text made for a record (see `FieldPresence`).
    self.table = table.presence.asksRecords ? table : table.withPresence(.columns)
    (texts, buffer, format) = (nil, [], source.map(RecordFields.made(from:)) ?? .json)
    (schemaIsFinal, width) = (true, table.columns.count)
  }

  /// How many records.
  public var count: Int { texts?.count ?? table.count }

  /// Whether the records were made from values, not read as text: output then writes them
  /// from ``table``'s values (``ValueCells``).
  var isMadeFromValues: Bool { texts == nil }

  /// The name of the file the records came from, for `-H`; nil when there is none.
  var source: String? { format.source }

  /// The records of rows `rows` of ``table``, in that order: their values, and their text as
  /// the file had it (empty for a row outside the batch), or made from their values (none
  /// when not `makingText`).
  public func records(_ rows: [Int], makingText: Bool = true) -> [DataRecord] {
    guard let texts else {
      return rows.map { row in
        guard row >= 0, row < table.count else { return DataRecord([], schema: Schema([])) }
        let values = table.columns.map { $0.value(at: row) }
        var record = DataRecord(values: values, text: [], format: format)
        record.ordinal = ordinals?.of(row)
        guard makingText else { return record }
        var text: [UInt8] = []
        DataRecord.appendObject(values, table.schema, to: &text)
        record.text = text[...]
        return record
      }
    }
    return rows.map { row in
      guard row >= 0, row < texts.count, texts[row].upperBound <= buffer.count else {
        return DataRecord(values: [], text: [], format: format)
      }
      let values = (0..<width).map { table.columns[$0].value(at: row) }
      return DataRecord(values: values, text: buffer[texts[row]], format: format)
    }
  }
}

extension DataReader {
  /// The next block of records read by column, or nil at the end of the input: one batch,
  /// or two when the buffer was read in two parts at once. A query filters a batch over its
  /// columns, and only the records it matches are made (see ``RecordBatch``): the values of
  /// the others are never boxed, and a value spelled as one before is taken by its spelling.
  /// A block ends early where a record needs the schema to grow, as with ``next()``.
  public func nextBatches() throws(DataError) -> [RecordBatch]? {
    var batches: [RecordBatch] = []
    let more = try nextRows { rows in
      batches.append(
        RecordBatch(
          table: rows.builder.table(schema).withPresence(presence(of: rows)),
          texts: rows.texts, buffer: buffer,
          format: recordFields, schemaIsFinal: sawEverything, width: layout.width))
      // The rows' builder keeps the distinct values it has seen, block after block: one
      // that has seen many (text rarely repeated) starts again, so that memory stays flat.
      if rows.builder.codedValues > batchCodedValues { rows.builder = ColumnBuilder() }
    }
    return more ? batches : nil
  }

  /// Which of `rows` have a field though its value is null: a JSON object's keys present
  /// with null; every column of a CSV file.
  func presence(of rows: ColumnRows) -> FieldPresence {
    recordFields.header == nil ? .keys(rows.presentNulls(schema)) : .columns
  }
}
