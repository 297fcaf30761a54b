import FilterDSL
import FilterDatabase
import FilterSQL
import Testing

/// A table mapped by its embedder (a field computed by an expression, a function spelled in
/// SQL) gives flt's records in SQLite, as a plain one does.
@Suite struct MappedTableTests {
  static let schema = Schema([
    .init("a", .int, optional: true), .init("b", .int, optional: true),
    .init("total", .int, optional: true),
  ])
  /// `twice(n)`: n times two, null where that overflows.
  static let twice = FunctionDefinition(
    name: "twice", arity: 1...1, resultType: { _ in .success(.int) },
    evaluate: { args, _ in
      guard case .int(let n) = args[0] else { return .success(.null) }
      let (product, overflow) = n.multipliedReportingOverflow(by: 2)
      return .success(overflow ? .null : .int(product))
    })

  @Test func sqliteGivesFltsRecords() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    try database.execute("CREATE TABLE sums (a INTEGER, b INTEGER)")
    let pairs: [(Int64?, Int64?)] = [
      (1, 2), (5, -1), (nil, 3), (10, 10), (-4, 0), (2, nil), (7, 1),
    ]
    for (a, b) in pairs {
      try database.execute(
        "INSERT INTO sums VALUES (?1, ?2)",
        [a.map(SQLValue.int) ?? .null, b.map(SQLValue.int) ?? .null])
    }
    let table = SQLTable(
      name: "sums", schema: Self.schema, columns: ["a", "b", "total"], rowOrder: "rowid",
      expressions: ["total": #""a" + "b""#],
      functions: [SQLFunction("twice", sql: "({1} * 2)")])
    let records: [[Value]] = pairs.map { a, b in
      let total = a.flatMap { a in b.map { Value.int(a + $0) } } ?? .null
      return [a.map(Value.int) ?? .null, b.map(Value.int) ?? .null, total]
    }
    let functions = FunctionRegistry.builtins.adding(Self.twice)
    for filter in [
      "total > 3", "twice(a) == `total`", "twice(total) >= 8 order by total desc",
      "total is null", "true order by twice(b), a",
    ] {
      let query = try TableQuery(filter, on: table, in: database, functions: functions)
      let translation = try query.translation()
      #expect(translation.residual == nil, "\(filter)")
      let bound = try FilterEnvironment(
        RecordType.dynamic(Self.schema, presence: .columns), functions: functions
      )
      .check(query.query).get(query.source)
      let expected = CompiledQuery(bound, for: .dynamic(Self.schema, presence: .columns)).run(
        records
      ).records
      #expect(try query.records() == expected, "\(filter)")
    }
  }
}
