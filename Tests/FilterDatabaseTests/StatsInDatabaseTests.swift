import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL
import TestSupport
import Testing

/// Random `stats` over a table: its rows scanned from the database (the filter run there
/// where SQL answers it) and aggregated, as in memory: the same rows, and the same faults
/// aggregating (a filter SQL answers counts no fault, as for queries). Seeded; a failure
/// prints its seed.
@Suite struct StatsInDatabaseTests {
  static let schema = TypedFilterGenerator.schema
  static let context = TypedFilterGenerator.context

  @Test(arguments: 0..<3)
  func sqliteAgreesWithMemory(batch: Int) throws {
    var generator = TypedFilterGenerator(seed: UInt64(50_000 + batch))
    let records = (0..<80).map { _ in generator.record() }
    let database = try SQLiteTestTable.make(records)
    try Self.check(records, database.connection, database.table, seed: UInt64(batch * 1000))
  }

  @Test(.enabled(if: PostgresServer.available, "no PostgreSQL server"), arguments: 0..<2)
  func postgresAgreesWithMemory(batch: Int) throws {
    var generator = TypedFilterGenerator(seed: UInt64(60_000 + batch))
    let records = (0..<80).map { _ in PostgresDifferentialTests.storable(generator.record()) }
    let connection = try PostgresServer.connect()
    let table = try PostgresDifferentialTests.load(records, connection, name: "flt_stats_\(batch)")
    try Self.check(records, connection, table, seed: UInt64(batch * 1000 + 500))
  }

  /// 40 random stats over `records`, in memory and over `table`.
  static func check(
    _ records: [[Value]], _ connection: any SQLConnection, _ table: SQLTable, seed: UInt64
  ) throws {
    var compared = 0
    for i in 0..<40 {
      var generator = StatsGenerator(seed: seed + UInt64(i))
      let stats = generator.stats()
      let source = SourceText(stats.description)
      let environment = FilterEnvironment(
        RecordType.dynamic(schema), parameters: TypedFilterGenerator.parameters)
      guard let counter = try? environment.compileStats(stats, source: source) else { continue }
      let expected = counter.binding(context.parameters, now: context.now).run(records)
      let tableSource = TableSource(table, in: connection)
      let sink = try StatsSink(
        stats, source: source, for: tableSource, parameterTypes: TypedFilterGenerator.parameters,
        parameters: context.parameters, now: context.now)
      var options = Scan.Options()
      options.outputFields = sink.fieldNames
      let scan = try Scan(
        query: Query(filter: stats.filter), source: source, sources: [{ tableSource }],
        options: options, parameterTypes: TypedFilterGenerator.parameters,
        parameters: context.parameters, now: context.now)
      let summary = try scan.run(into: sink)
      let actual = sink.result
      // The faults of aggregating alone, in memory: those of a run without the filter over
      // the records it keeps.
      let kept = try stats.filter.map { filter in
        try environment.compileFilter(filter, source: source)
          .binding(context.parameters, now: context.now).filter(records).matches
      }
      let aggregating = counter.withoutFilter.binding(context.parameters, now: context.now)
        .run(kept ?? records).faults
      let agrees =
        StatsGenerator.same(actual.rows, expected.rows) && actual.faults == aggregating
        && actual.records == expected.records && summary.matches == expected.records
      #expect(
        agrees,
        "seed \(seed + UInt64(i)): stats \(stats)\n\(actual.rows) \(actual.faults)\nin memory \(expected.rows) \(aggregating)"
      )
      if !agrees { return }
      compared += 1
    }
    #expect(compared >= 30)
  }
}
