import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL

/// A data set that is a database table: its rows stay there. Queries and counts run as a
/// `Scan` of the table (the database answers what SQL answers exactly, the scan finishes
/// the rest), facets as `GROUP BY`s where they translate whole. While a statement runs, an
/// interruption (Ctrl-C at the REPL) cancels it in the database.
final class TableStore: DatasetStore {
  /// The table, and the connection its statements run on.
  let database: DatabaseTable

  /// How many rows the table has, once a live preview counted them.
  private var total: Int?

  init(_ database: DatabaseTable) { self.database = database }

  var schema: Schema { database.table.schema }
  var header: [String]? { nil }
  var loaded: LoadedRecords? { nil }
  var size: String { "table \(database.table.name), " + LoadedStore.fields(schema) }
  var summary: String {
    "table \(database.table.name) in \(database.connection.dialect.rawValue), "
      + LoadedStore.fields(schema) + "; statements run there"
  }

  /// A scan of `query` over the table, checked in the session's environment.
  private func scan(_ query: Query, _ run: StatementRun, reading fields: Set<String> = [])
    throws -> Scan
  {
    var options = Scan.Options(
      colored: run.styled, parserLimits: run.policy.parserLimits,
      evaluationLimits: run.policy.evaluationLimits)
    options.outputFields = fields
    return try Scan(
      query: query, source: run.source,
      sources: [{ [database] in TableSource(database.table, in: database.connection) }],
      options: options, parameterTypes: run.parameters.types, parameters: run.parameters.values,
      now: run.now,
      warn: run.reporting ? run.warn : { _ in })
  }

  /// `work` on the table's connection: an interruption cancels its statement.
  private func running<T>(_ run: StatementRun, _ work: () throws -> T) throws -> T {
    let watch = InterruptWatch(database.connection, run.interrupted)
    defer { watch.stop() }
    return try work()
  }

  func matches(_ query: Query, _ run: StatementRun) throws -> (MatchedRecords, FaultCounts)? {
    let scan = try scan(query, run)
    if run.checkOnly { return nil }
    let collector = RecordCollector()
    let summary = try running(run) { try scan.run(into: collector) }
    return (MatchedRecords(collector.records), summary.faults)
  }

  func count(_ filter: Expr?, _ run: StatementRun) throws -> (Int, FaultCounts)? {
    let scan = try scan(Query(filter: filter), run)
    if run.checkOnly { return nil }
    let summary = try running(run) { try scan.run(into: CountSink(to: nil)) }
    return (summary.matches, summary.faults)
  }

  func explain(_ query: Query, _ run: StatementRun) throws -> StatementResult? {
    let scan = try scan(query, run)
    return run.checkOnly ? nil : .translation(scan.explanation)
  }

  private func counter(_ fields: [FieldPath], _ filter: Expr?, _ run: StatementRun) throws
    -> FacetCounter<[Value]>
  {
    try run.environment(RecordType.dynamic(schema)).facets(
      fields, filter: filter, source: run.source
    ).binding(run.parameters.values, now: run.now)
  }

  func facets(_ fields: [FieldPath], _ filter: Expr?, _ run: StatementRun) throws -> FacetCounts? {
    let counter = try counter(fields, filter, run)
    if run.checkOnly { return nil }
    return try running(run) {
      try database.connection.count(
        counter, on: database.table, parameters: run.parameters.types,
        values: run.parameters.values, now: run.now)
    }
  }

  /// Stats over the table: computed by the database where SQL gives them exactly (one `GROUP
  /// BY`, see `SQLConnection.stats`), else its rows matching the filter (as SQL answers it)
  /// aggregated as they come.
  private func statsSink(_ stats: StatsQuery, _ run: StatementRun) throws -> StatsSink {
    try StatsSink(
      stats, source: run.source, for: TableSource(database.table, in: database.connection),
      parameterTypes: run.parameters.types, parameters: run.parameters.values, now: run.now,
      limits: run.policy.evaluationLimits)
  }

  func stats(_ stats: StatsQuery, _ run: StatementRun) throws -> StatsResult? {
    let sink = try statsSink(stats, run)
    let scan = try scan(Query(filter: stats.filter), run, reading: sink.fieldNames)
    if run.checkOnly { return nil }
    // (Computed by the database where SQL can: the scan asks the sink, which asks the table.)
    let summary = try running(run) { try scan.run(into: sink) }
    var result = sink.result
    result.faults.merge(summary.faults)
    return result
  }

  func checkStats(_ stats: StatsQuery, _ run: StatementRun) throws {
    _ = try statsSink(stats, run)
  }

  func checkFacets(_ fields: [FieldPath], _ filter: Expr?, _ run: StatementRun) throws {
    _ = try counter(fields, filter, run)
  }

  /// How many records the query's filter matches, of how many: counted by a scan of the table
  /// (`count(*)` where SQL answers the filter) on another thread, while this one watches.
  /// When `stop` says the user typed on (nil), or the count takes longer than
  /// ``StatementRun/previewSeconds`` (the query checks: ``LivePreview/checked``), the
  /// statement is cancelled in the database, and awaited, before this returns.
  func preview(_ query: Query, _ run: StatementRun, until stop: () -> Bool) throws
    -> LivePreview?
  {
    let matching = try scan(Query(filter: query.filter), run)
    let all = try total == nil ? scan(Query(filter: nil), run) : nil
    let known = total
    let counting = Background {
      let count = try matching.run(into: CountSink(to: nil)).matches
      return (count, try known ?? all?.run(into: CountSink(to: nil)).matches ?? 0)
    }
    let deadline = SystemClock.seconds() + run.previewSeconds
    while true {
      let late = SystemClock.seconds() >= deadline
      if late || stop() {
        database.connection.interrupt()
        _ = counting.result()
        return late ? .checked : nil
      }
      if let result = counting.result(waiting: 0.005) {
        let (count, total) = try result.get()
        self.total = total
        return .matches(count, of: total)
      }
    }
  }

  /// The most frequent texts of a top-level text column.
  func values(of path: String) -> [Value] {
    ((try? database.frequentTexts(of: path)) ?? []).map(Value.string)
  }
}
