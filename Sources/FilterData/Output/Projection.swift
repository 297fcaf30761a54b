import FilterDSL

/// Output columns computed from each record: `--select 'carrier, dep_delay - arr_delay as
/// gain'`. Each column is a field or an expression over fields, checked against the records'
/// schema and compiled once; a record becomes a record of the columns' values, whose text is
/// made as JSON (so every output format writes it).
///
/// ```swift
/// let items = try Parser.parseSelection(SourceText("model, price * 2 as doubled")).get()
/// let projection = try Projection(items, source: SourceText("..."), for: reader)
/// let writer = RecordWriter(.csv, columns: projection.schema.names, select: nil, to: out)
/// try scan.run(into: ProjectingSink(projection, into: writer))
/// ```
public struct Projection: Sendable {
  /// The columns, as written.
  public let items: [SelectItem]
  /// The columns' names (their `as` names, or the expressions as written) and types.
  public let schema: Schema
  /// The top-level fields the columns read: a scan decodes them.
  public let fieldNames: Set<String>
  private let values: [CompiledValue<DataRecord>]

  /// Checks `items` against the records of `records` (with parameters of these types and
  /// values, at `now`); `source` is the text their ranges point into. Throws every error of
  /// every column, and for two columns of one name.
  public init(
    _ items: [SelectItem], source: SourceText, for records: any RecordSource,
    parameterTypes: [String: ValueType] = [:], parameters: [String: Value] = [:],
    now: Instant? = nil
  ) throws(FilterError) {
    let type = DataRecord.valueType(records.schema)
    let environment = FilterEnvironment(type, parameters: parameterTypes)
    var diagnostics: [Diagnostic] = []
    var values: [CompiledValue<DataRecord>] = []
    var fields: [Schema.Field] = []
    for item in items {
      let checked = environment.bind(item.expr)
      diagnostics += checked.diagnostics.filter(\.isError)
      if fields.contains(where: { $0.name == item.name }) {
        diagnostics.append(
          Diagnostic(
            .duplicateColumn, at: item.alias?.range ?? item.expr.range,
            message: "two columns are called '\(item.name)'",
            help: "name one of them: \(item.expr) as another_name"))
      }
      guard let bound = checked.tree else { continue }
      values.append(
        CompiledValue(bound, for: type, parameters: parameterTypes).binding(
          parameters, now: now))
      fields.append(Schema.Field(item.name, bound.type, optional: true))
    }
    if !diagnostics.isEmpty { throw FilterError(source: source, diagnostics: diagnostics) }
    self.items = items
    self.values = values
    schema = Schema(fields)
    fieldNames = Set(items.flatMap { $0.expr.fieldNames })
  }

  /// What `--select TEXT` asks of the records of `records`: nil when it names fields they have
  /// (each record is then written as the file has it, `Order ID` and `first-name` being a CSV
  /// header's names); else its computed columns (`dep_delay - arr_delay as gain`). Throws the
  /// syntax errors of a selection written as expressions, else for a field the data lacks.
  /// `asColumns`: names a filter can write are columns too (a typed output, such as Parquet,
  /// writes columns, not each record's text).
  public static func selecting(
    _ text: String, of records: any RecordSource, parameterTypes: [String: ValueType] = [:],
    parameters: [String: Value] = [:], now: Instant? = nil, asColumns: Bool = false
  ) throws -> Projection? {
    let names = names(in: text)
    // A name of the data with spaces or signs, written without backticks among computed
    // columns (`Country Code, `2010` - `1960` as change`), is read as that name.
    var source = SourceText(text, name: "--select")
    var parsed = Parser.parseSelection(source)
    if parsed.hasErrors {
      let own = Set(records.schema.names)
      let quoted = written(text).map { item in
        own.contains(item) && !item.contains("`") ? "`\(item)`" : item
      }.joined(separator: ", ")
      let again = SourceText(quoted, name: "--select")
      let reparsed = Parser.parseSelection(again)
      if !reparsed.hasErrors { (source, parsed) = (again, reparsed) }
    }
    // Names are tried first.
    if (try? RecordWriter.checkSelection(names, of: records)) != nil,
      !asColumns || parsed.hasErrors
    {
      if asColumns {
        throw ScanError(
          message: "--select \(text): a typed output takes the names a filter writes",
          help: "quote a name with spaces or dashes in backticks: `Order ID`")
      }
      return nil
    }
    guard let items = parsed.value, !parsed.hasErrors,
      asColumns || !items.allSatisfy({ $0.field != nil })
    else {
      // Written as an expression: its syntax error; else a field the data lacks.
      if parsed.hasErrors, text.contains(where: { "+-*/%(".contains($0) }) || text.contains(" as ")
      {
        _ = try parsed.get()
      }
      try RecordWriter.checkSelection(names, of: records)
      return nil
    }
    return try Projection(
      items, source: source, for: records, parameterTypes: parameterTypes,
      parameters: parameters, now: now)
  }

  /// The field names `--select TEXT` names: as the language reads them when it reads every
  /// item as a field (the backticks around a name such as `Term (yyyy.mm.dd)` or `1960` taken
  /// off), else as written between the commas (`Order ID`, `first-name`).
  public static func names(in text: String) -> [String] {
    let parsed = Parser.parseSelection(SourceText(text, name: "--select"))
    if let items = parsed.value, !parsed.hasErrors, items.allSatisfy({ $0.field != nil }) {
      return items.compactMap { $0.field?.dotted }
    }
    return written(text)
  }

  /// The items of `text` as written between its commas, spaces around them dropped.
  private static func written(_ text: String) -> [String] {
    text.split(separator: ",", omittingEmptySubsequences: false).map { name in
      String(name.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
  }

  /// The record of the columns' values for `record`, adding the faults met to `faults`.
  public func record(_ record: DataRecord, faults: inout FaultCounts) -> DataRecord {
    let row = values.map { $0.value(of: record, faults: &faults) }
    var text: [UInt8] = []
    DataRecord.appendObject(row, schema, to: &text)
    return DataRecord(values: row, text: text[...], format: .made(from: record.source))
  }
}

/// Hands each record on to `sink` as the columns of a ``Projection``.
public final class ProjectingSink: RecordSink {
  private let projection: Projection
  /// Where the columns go.
  public let sink: any RecordSink
  /// The faults the columns met (a division by zero, an overflow), and those of `sink`.
  public var faults: FaultCounts {
    var all = own
    all.merge(sink.faults)
    return all
  }
  private var own = FaultCounts()
  /// What `sink` says once it is finished.
  public var warnings: [String] { sink.warnings }

  /// A sink writing `projection`'s columns of each record to `sink`.
  public init(_ projection: Projection, into sink: any RecordSink) {
    self.projection = projection
    self.sink = sink
  }

  /// How many records were written.
  public var count: Int { sink.count }
  /// Computes its columns from the records' values, not their text.
  public var readsRecordText: Bool { false }
  /// Writes the columns of `record`.
  public func write(_ record: DataRecord) {
    sink.write(projection.record(record, faults: &own))
  }
  /// Hands the block on.
  public func endOfBlock() { sink.endOfBlock() }
  /// Says the source ended.
  public func endOfSource(_ name: String) { sink.endOfSource(name) }
  /// Ends the output.
  public func finish() { sink.finish() }
  /// Why records can no longer be written, or nil.
  public var failure: String? { sink.failure }
}
