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

  /// Stats SQL computes exactly (integer, text, true/false and date keys; counts, and sums,
  /// means, least and greatest of integers, past 64 bits too) are computed by one `GROUP BY`,
  /// and give the rows memory gives, in the same order; the others are left to flt.
  @Test func sqliteGroupsAsMemoryDoes() throws {
    var generator = TypedFilterGenerator(seed: 70_000)
    let records = (0..<120).map { _ in generator.record() }
    let database = try SQLiteTestTable.make(records)
    try Self.checkGrouped(records, database.connection, database.table, seed: 71_000)
  }

  @Test(.enabled(if: PostgresServer.available, "no PostgreSQL server"))
  func postgresGroupsAsMemoryDoes() throws {
    var generator = TypedFilterGenerator(seed: 72_000)
    let records = (0..<120).map { _ in PostgresDifferentialTests.storable(generator.record()) }
    let connection = try PostgresServer.connect()
    let table = try PostgresDifferentialTests.load(records, connection, name: "flt_grouped")
    try Self.checkGrouped(records, connection, table, seed: 73_000)
  }

  static func checkGrouped(
    _ records: [[Value]], _ connection: any SQLConnection, _ table: SQLTable, seed: UInt64
  ) throws {
    var (pushed, leftToFlt) = (0, 0)
    for i in 0..<60 {
      var generator = TypedFilterGenerator(seed: seed + UInt64(i))
      let field = { (name: String) in Expr(.field(FieldPath(name))) }
      let keys = (0..<generator.rng.int(0...2)).enumerated().map { index, _ in
        SelectItem(field(generator.rng.pick(["i", "j", "s", "b", "t"])), as: Name("k\(index)"))
      }
      var items: [SelectItem] = []
      for index in 0..<generator.rng.int(1...4) {
        let call: Expr
        switch generator.rng.int(0...3) {
        case 0: call = Expr(.call(Name("count"), []))
        case 1:
          call = Expr(
            .call(Name("count"), [field(generator.rng.pick(["i", "d", "s", "b", "t", "tags"]))]))
        case 2:
          call = Expr(
            .call(
              Name(generator.rng.pick(["sum", "mean", "avg", "min", "max"])),
              [field(generator.rng.pick(["i", "j"]))]))
        default:
          // Not exact in SQL: left to flt.
          call = Expr(.call(Name(generator.rng.pick(["sum", "median"])), [field("d")]))
        }
        items.append(SelectItem(call, as: Name("c\(index)")))
      }
      var stats = StatsQuery(
        items, by: keys, filter: generator.rng.chance(0.6) ? generator.bool(1) : nil)
      if !keys.isEmpty && generator.rng.chance(0.3) {
        stats.ordering = [SortKey(field("c0"), .descending)]
        stats.limit = Expr(.literal(.int(2)))
      }
      let environment = FilterEnvironment(
        RecordType.dynamic(schema, presence: .columns), parameters: TypedFilterGenerator.parameters)
      guard let bound = environment.check(stats).tree else { continue }
      let expected = StatsCounter(
        bound, for: .dynamic(schema, presence: .columns),
        parameters: TypedFilterGenerator.parameters
      )
      .binding(context.parameters, now: context.now).run(records)
      guard
        let actual = try connection.stats(
          bound, on: table, values: context.parameters, now: context.now)
      else {
        leftToFlt += 1
        continue
      }
      pushed += 1
      // Integers and counts exactly, and rows in the same order.
      #expect(
        actual.rows == expected.rows && actual.records == expected.records
          && actual.schema == expected.schema,
        "seed \(seed + UInt64(i)): stats \(stats)\n\(actual.rows)\nin memory \(expected.rows)")
    }
    #expect(
      pushed >= 12 && leftToFlt >= 5, "\(pushed) computed by the database, \(leftToFlt) by flt")
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
        RecordType.dynamic(schema, presence: .columns), parameters: TypedFilterGenerator.parameters)
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
