import FilterDSL
import FilterDatabase
import FilterSQL
import Testing

/// flt's functions written in SQL: the same records as in memory, on values at the edges
/// (the integer whose absolute value overflows, halves, doubles beyond the integers, NaN in
/// PostgreSQL, text with accents, `ß`, tabs, empty text, nulls). Every filter runs in the
/// database, wholly or narrowing the rows there. (Text is in Unicode's composed form, NFC,
/// which SQL's order and equality take for granted: see `TextTestsInDatabaseTests`.)
@Suite struct FunctionsInDatabaseTests {
  static let schema = Schema([
    .init("s", .string, optional: true), .init("t", .string, optional: true),
    .init("i", .int, optional: true), .init("d", .double, optional: true),
    .init("tags", .list(.string), optional: true),
  ])
  static let texts: [String?] = [
    "abc", "ab", "b", "", "  a b  ", "ABC", "aBc", "é", "straße", "İ", "\tx", "a_b",
    nil, "m", "xb",
  ]
  static let integers: [Int64?] = [0, 1, -3, .min, .max, 2, nil, 100]
  static let doubles: [Double?] = [
    0.5, -0.5, 1.5, 2.5, -2.5, 1e300, 0.499_999_999_999_999_94, 9.3e18, -9.3e18, nil, 2.0, -7.25,
    .infinity,
  ]
  static let lists: [Value] = [
    .list([.string("a"), .string("b")]), .list([]), .null, .list([.string("x")]),
  ]
  static let filters = [
    "abs(i) > 1", "abs(d) < 1", "abs(i) == 9223372036854775807", "abs(i) is null",
    "len(tags) == 2", "len(s) == 3", "len(s) > 1 and len(s) < 5",
    #"coalesce(s, t) == "ab""#, "coalesce(i, 0) > 0", #"coalesce(s) == "m""#,
    #"if(i > 0, s, t) == "ab""#, "if(d > 1, 1, 2) == 1", "if(d > 1, i, 7) == 7",
    "min(i, 2) == 2", "max(d, i) > 1.5", "min(d, i) < 0", #"min(s, t) < "b""#,
    #"max(s, "m") == "m""#, "min(i, 5, 1) == 1",
    "floor(d) == 1", "ceil(d) == 2", "round(d) == 3", "round(d) == 0", "round(d) == -3",
    "floor(d) < -5", "round(i) == `i`", "ceil(d) > 1000", "floor(d) is null",
    #"lower(s) == "abc""#, #"upper(s) startsWith "A""#, #"trim(s) == "a b""#,
    #"replace(s, "b", "x") == "axc""#, #"replace(s, "", "x") == "ab""#, #"indexOf(s, "b") == 1"#,
    #"indexOf(s, "") == 0"#, #"indexOf(s, t) == -1"#, #"substring(s, 1) == "bc""#,
    #"substring(s, -2, 1) == "b""#, #"substring(s, 0, 0) == """#, #"substring(s, i, 2) == "bc""#,
    "len(substring(s, 1, 100)) == 2", #"substring(s, -100, 2) == "ab""#,
    #"lower(s) < "b""#, #"lower(s) ==[c] "ABC""#, #"lower(coalesce(s, t)) in ("ab", "abc")"#,
    #"true order by abs(i) desc, s"#, "true order by coalesce(i, 0), d",
  ]

  var agreement: DatabaseAgreement {
    let records: [[Value]] = (0..<64).map { k in
      [
        Self.texts[k % Self.texts.count].map(Value.string) ?? .null,
        Self.texts[(k * 7 + 3) % Self.texts.count].map(Value.string) ?? .null,
        Self.integers[k % Self.integers.count].map(Value.int) ?? .null,
        Self.doubles[(k * 5 + 1) % Self.doubles.count].map(Value.double) ?? .null,
        Self.lists[k % Self.lists.count],
      ]
    }
    return DatabaseAgreement(schema: Self.schema, records: records)
  }

  @Test func sqliteGivesFltsRecords() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    let table = try agreement.load("functions", into: database, .sqlite)
    let (whole, narrowed) = try agreement.check(Self.filters, on: database, table)
    #expect(whole + narrowed == Self.filters.count)
  }

  @Test(.enabled(if: PostgresServer.available, "no PostgreSQL server"))
  func postgresGivesFltsRecords() throws {
    let connection = try PostgresServer.connect()
    var agreement = self.agreement
    let table = try agreement.load("functions", into: connection, .postgresql)
    agreement.records.append([.string("n"), .null, .int(1), .double(.nan), .null])
    try connection.forEachRow(
      SQLStatement(#"INSERT INTO functions (s, i, d) VALUES ('n', 1, 'NaN')"#)
    ) { _ in true }
    let (whole, narrowed) = try agreement.check(Self.filters, on: connection, table)
    #expect(whole + narrowed == Self.filters.count)
    try connection.executeScript("DROP TABLE functions")
  }
}
