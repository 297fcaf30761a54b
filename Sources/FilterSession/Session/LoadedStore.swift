import FilterDSL
import FilterData

/// A data set's records in memory, by column (see `LoadedRecords`): every statement runs over
/// them with the one engine.
final class LoadedStore: DatasetStore {
  /// The records, in file order.
  let records: LoadedRecords
  /// The source they were read from (a data file's reader: the schema it inferred, its
  /// header).
  let source: any RecordSource
  /// Every row number: what a query or count runs over.
  private let rows: [Int]
  private var valueCache: [String: [Value]] = [:]

  init(_ records: LoadedRecords, from source: any RecordSource) {
    (self.records, self.source, rows) = (records, source, records.table.rows)
  }

  /// The fields inferred. Once records are loaded, those of their table, which knows every
  /// text field's values (see `LoadedRecords`).
  var schema: Schema { records.count > 0 ? records.table.schema : source.schema }
  var header: [String]? { source.header }
  var loaded: LoadedRecords? { records }
  var summary: String { size }
  var size: String {
    "\(records.count) record\(records.count == 1 ? "" : "s"), " + Self.fields(schema)
  }

  /// `5 fields`.
  static func fields(_ schema: Schema) -> String {
    "\(schema.fields.count) field\(schema.fields.count == 1 ? "" : "s")"
  }

  /// How compiled filters read the records: by row number, from the columns. (With no
  /// records, the source's schema, which a query may have added fields to.)
  private var recordType: RecordType<Int> {
    records.count == 0 ? ColumnTable(schema: schema, rows: []).recordType : records.table.recordType
  }

  /// `query` checked and compiled over the records, with its parameters' values bound.
  private func compile(_ query: Query, _ run: StatementRun) throws -> CompiledQuery<Int> {
    // No records: the fields the query names have no value, and nothing matches (as the
    // command does with an empty file).
    source.assumeFields(query.fieldNames)
    let compiled = try run.environment(recordType).compileQuery(query, source: run.source)
    run.report(warnings: compiled.filter?.warnings ?? [])
    return compiled.binding(run.parameters.values, now: run.now)
  }

  func matches(_ query: Query, _ run: StatementRun) throws -> (MatchedRecords, FaultCounts)? {
    let compiled = try compile(query, run)
    if run.checkOnly { return nil }
    let (matches, faults) = compiled.run(rows, until: run.interrupted)
    if records.changedOnDisk {
      run.warn(
        "warning: \(source.name) changed since it was loaded; its records are printed from the values loaded then (load it again to read the new file)\n"
      )
    }
    return (MatchedRecords(rows: matches, of: records), faults)
  }

  func count(_ filter: Expr?, _ run: StatementRun) throws -> (Int, FaultCounts)? {
    let compiled = try compile(Query(filter: filter), run)
    if run.checkOnly { return nil }
    return compiled.filter?.count(rows, until: run.interrupted) ?? (rows.count, FaultCounts())
  }

  func explain(_ query: Query, _ run: StatementRun) throws -> StatementResult? {
    let compiled = try compile(query, run)
    return run.checkOnly ? nil : .plan(compiled.plan)
  }

  private func counter(_ fields: [FieldPath], _ filter: Expr?, _ run: StatementRun) throws
    -> FacetCounter<Int>
  {
    try run.environment(recordType).facets(fields, filter: filter, source: run.source)
      .binding(run.parameters.values, now: run.now)
  }

  func facets(_ fields: [FieldPath], _ filter: Expr?, _ run: StatementRun) throws -> FacetCounts? {
    let counter = try counter(fields, filter, run)
    return run.checkOnly ? nil : counter.count(rows, until: run.interrupted)
  }

  private func statsCounter(_ stats: StatsQuery, _ run: StatementRun) throws
    -> StatsCounter<Int>
  {
    // No records: the fields the stats name have no value (as for a query).
    source.assumeFields(stats.fieldNames)
    return try run.environment(recordType).compileStats(stats, source: run.source)
      .binding(run.parameters.values, now: run.now)
  }

  func stats(_ stats: StatsQuery, _ run: StatementRun) throws -> StatsResult? {
    let counter = try statsCounter(stats, run)
    return run.checkOnly ? nil : counter.run(rows, until: run.interrupted)
  }

  func checkStats(_ stats: StatsQuery, _ run: StatementRun) throws {
    if records.count > 0 { _ = try statsCounter(stats, run) }
  }

  func checkFacets(_ fields: [FieldPath], _ filter: Expr?, _ run: StatementRun) throws {
    // Empty data takes any field a statement names: nothing to check.
    if records.count > 0 { _ = try counter(fields, filter, run) }
  }

  func preview(_ query: Query, _ run: StatementRun, until stop: () -> Bool) throws
    -> LivePreview?
  {
    // Empty data takes any field a statement names (see `compile`): nothing to check.
    if records.count == 0 { return .matches(0, of: 0) }
    let compiled = try compile(query, run)
    guard let filter = compiled.filter else { return .matches(records.count, of: records.count) }
    var stopped = false
    let (count, _) = filter.count(rows) {
      stopped = stopped || stop()
      return stopped
    }
    return stopped ? nil : .matches(count, of: records.count)
  }

  /// The distinct values of the field at `path` (the elements, for a list): texts most
  /// frequent first, then numbers and true/false in order. Counted once per field, then kept.
  func values(of path: String) -> [Value] {
    if let known = valueCache[path] { return known }
    var texts: [Value] = []
    var others: [Value] = []
    if let counter = try? FacetCounter(
      [FieldPath(path)], filter: nil, source: SourceText(""), for: recordType)
    {
      for count in counter.count(rows).facets.first?.counts ?? [] {
        switch count.value {
        case .string: texts.append(count.value)
        case .int, .double, .bool: others.append(count.value)
        default: break
        }
      }
    }
    // (A field's values have one type: numbers, or true and false.)
    func order(_ value: Value) -> Double {
      switch value {
      case .int(let n): Double(n)
      case .double(let d): d
      case .bool(let b): b ? 1 : 0
      default: 0
      }
    }
    let values = texts + others.sorted { order($0) < order($1) }
    valueCache[path] = values
    return values
  }
}
