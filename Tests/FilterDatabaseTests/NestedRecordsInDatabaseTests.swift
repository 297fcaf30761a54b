import FilterDSL
import FilterDatabase
import FilterSQL
import Testing

/// Fields of nested records (read from a JSON column: by a JSON path for numbers and truths in
/// PostgreSQL) with flt's answers: missing and null records and fields, records in records,
/// integers past 2^53, decimals, truths, dates and text.
@Suite struct NestedRecordsInDatabaseTests {
  static let deep = Schema([.init("z", .int, optional: true)])
  static let info = Schema([
    .init("x", .int, optional: true), .init("d", .double, optional: true),
    .init("ok", .bool, optional: true), .init("born", .date, optional: true),
    .init("y", .string, optional: true), .init("deep", .record(deep), optional: true),
  ])
  static let schema = Schema([.init("n", .int), .init("info", .record(info), optional: true)])
  static let filters = [
    "info.x > 1", "info.x == 9007199254740993", "info.x in (1, 3)", "info.x between 1 and 3",
    "info.d < 0.5", "info.d == 0", "info.d > `info`.x", "info.x + 1 > 2", "info.ok",
    "not info.ok", "info.ok == false", "info.ok != true", "info.deep.z == 3",
    "info.deep.z is null", "info.x is null", "exists info.d", "not exists info.deep.z",
    "exists info.deep", "info.deep is null", #"info.y == "a""#, "info.born >= 2020-06-01",
    "true order by info.x desc, n", "true order by info.d nulls first, n limit 3",
    "coalesce(info.x, 0) > 1 or info.ok",
  ]

  var agreement: DatabaseAgreement {
    func info(
      _ x: Int64?, _ d: Double?, _ ok: Bool?, _ born: Int64?, _ y: String?, _ z: Value
    ) -> Value {
      .record([
        x.map(Value.int) ?? .null, d.map(Value.double) ?? .null, ok.map(Value.bool) ?? .null,
        born.map { .date(CalendarDate(daysSinceEpoch: $0)) } ?? .null,
        y.map(Value.string) ?? .null, z,
      ])
    }
    let infos: [Value] = [
      info(1, 0.25, true, 18_500, "a", .record([.int(3)])), .null,
      info(nil, nil, nil, nil, nil, .null), info(3, -0.5, false, 18_000, "b", .record([.null])),
      info(9_007_199_254_740_993, 1e300, true, nil, "a", .record([.int(4)])),
      info(-2, 0.1, nil, 18_700, nil, .null), info(2, 2.5, false, 18_600, "é", .record([.int(3)])),
      info(0, 0, true, 18_601, "A", .null),
    ]
    let records = infos.enumerated().map { [Value.int(Int64($0.offset)), $0.element] }
    return DatabaseAgreement(schema: Self.schema, records: records)
  }

  @Test func sqliteGivesFltsRecords() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    let table = try agreement.load("nested", into: database, .sqlite)
    let (whole, _) = try agreement.check(Self.filters, on: database, table)
    #expect(whole >= Self.filters.count - 2)
  }

  @Test(.enabled(if: PostgresServer.available, "no PostgreSQL server"))
  func postgresGivesFltsRecords() throws {
    let connection = try PostgresServer.connect()
    let table = try agreement.load("nested", into: connection, .postgresql)
    let (whole, _) = try agreement.check(Self.filters, on: connection, table)
    #expect(whole >= Self.filters.count - 2)
    try connection.executeScript("DROP TABLE nested")
  }
}
