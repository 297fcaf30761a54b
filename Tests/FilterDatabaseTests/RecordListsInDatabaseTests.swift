import FilterDSL
import FilterDatabase
import FilterSQL
import Testing

/// `any`, `all` and `none` over lists of records run in the database with flt's answers:
/// elements that are null (unknown, whatever the test), records missing a field, empty and
/// null lists, booleans and dates inside the records.
@Suite struct RecordListsInDatabaseTests {
  static let kid = Schema([
    .init("x", .int, optional: true), .init("y", .string, optional: true),
    .init("ok", .bool, optional: true), .init("born", .date, optional: true),
  ])
  static let schema = Schema([
    .init("n", .int), .init("kids", .list(.record(kid)), optional: true),
  ])
  static let filters = [
    "any kids (x > 1)", "all kids (x > 0)", "none kids (y is null)", "any kids (x is null)",
    #"all kids (y == "a" or x > 2)"#, "any kids (exists y)", "any kids (not (x > 1))",
    "any kids (ok)", "all kids (ok == false)", "any kids (born >= 2020-06-01)",
    #"any kids (x between 1 and 3 and y in ("a", "b"))"#, "none kids (true)", "all kids (false)",
    "any kids (x > 1) and n > 2", "not (any kids (x == 2))",
  ]

  var agreement: DatabaseAgreement {
    func kid(_ x: Int64?, _ y: String?, _ ok: Bool? = nil, _ born: Int64? = nil) -> Value {
      .record([
        x.map(Value.int) ?? .null, y.map(Value.string) ?? .null, ok.map(Value.bool) ?? .null,
        born.map { .date(CalendarDate(daysSinceEpoch: $0)) } ?? .null,
      ])
    }
    let lists: [Value] = [
      .list([kid(1, "a"), kid(2, "b", true, 18_500)]), .list([]), .null,
      .list([.null, kid(3, nil, false)]), .list([.null]), .list([kid(nil, "a", true, 18_000)]),
      .list([kid(2, "c"), kid(0, "a", false, 18_600), kid(5, nil)]), .list([kid(2, "b")]),
    ]
    let records = lists.enumerated().map { [Value.int(Int64($0.offset)), $0.element] }
    return DatabaseAgreement(schema: Self.schema, records: records)
  }

  @Test func sqliteGivesFltsRecords() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    let table = try agreement.load("kids", into: database, .sqlite)
    let (whole, _) = try agreement.check(Self.filters, on: database, table)
    #expect(whole == Self.filters.count)
  }

  @Test(.enabled(if: PostgresServer.available, "no PostgreSQL server"))
  func postgresGivesFltsRecords() throws {
    let connection = try PostgresServer.connect()
    let table = try agreement.load("kids", into: connection, .postgresql)
    let (whole, _) = try agreement.check(Self.filters, on: connection, table)
    #expect(whole == Self.filters.count)
    try connection.executeScript("DROP TABLE kids")
  }
}
