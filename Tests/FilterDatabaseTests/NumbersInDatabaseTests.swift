import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL
import Testing

/// Integers compared with decimals: flt compares them exactly (`9007199254740993` is more
/// than `9007199254740992.0`, which a conversion to a double would make equal), and so must
/// the database. Values at the edges: beyond 2^53, near 2^63, fractions either side of an
/// integer, infinities, NaN (PostgreSQL can hold it; flt does not order it), null.
@Suite struct NumbersInDatabaseTests {
  static let schema = Schema([
    .init("i", .int, optional: true), .init("d", .double, optional: true),
  ])
  static let integers: [Int64?] = [
    9_007_199_254_740_993, 9_007_199_254_740_992, 9_007_199_254_740_991, .max, .min, .max - 1, 0,
    1, -1, 2, 4_611_686_018_427_388_950, nil,
  ]
  static let doubles: [Double?] = [
    9_007_199_254_740_992, 9.223_372_036_854_775_808e18, -9.223_372_036_854_775_808e18, 0.5,
    -0.5, 1.0, 1.5, 0.999_999_999_999_999_9, 4_611_686_018_427_388_928, .infinity, 1e300,
    -1e-300,
    -.infinity, nil,
  ]
  static let filters = [
    "i > 9007199254740992.0", "i == 9007199254740992.0", "i >= 9007199254740992.0",
    "i != 9007199254740992.0", "i < `d`", "i <= `d`", "i == `d`", "i != `d`", "d > `i`", "d is `i`",
    "d is not `i`", "i in (9007199254740992.0, 1.5, 0.5)", "i not in (1.0, 2.5)",
    "i between 0.5 and 9007199254740992.0", "i in 0.5..<2.0", "d in (1, 9007199254740993)",
    "d between -1 and 2", "d < 9223372036854775807", "d >= -9223372036854775808",
    "i in $list", "d in $ints", "i < 9.223372036854775808e18", "i > -9.223372036854775808e18",
    "i == 4611686018427388928.0", "i > 4611686018427388928.0", "d > 1.5", "d != 0.5",
    "d == `d`", "d is 0.5", "d is not null", "d in (0.5, 1.5)", "d between 0.5 and 1.5",
  ]

  /// Arithmetic on decimals: exact in SQLite; in PostgreSQL, which raises errors where flt
  /// keeps an infinity or a zero, computed where the sizes allow and narrowing elsewhere.
  static let arithmetic = [
    "d * 2 > 3", "i * 1.5 > 3", "d / 0.5 < 1", "d + 1e300 > 1", "d * `d` > 1", "-d < 0",
    "d / `d` > 0", "i / 0.5 > 1", "d - `i` > 0", "d * 1e-200 > 0",
  ]

  var agreement: DatabaseAgreement {
    var records: [[Value]] = []
    for (n, i) in Self.integers.enumerated() {
      for d in Self.doubles.dropFirst(n % 3) {
        records.append([i.map(Value.int) ?? .null, d.map(Value.double) ?? .null])
      }
    }
    var agreement = DatabaseAgreement(schema: Self.schema, records: records)
    agreement.types = ["list": .list(.double), "ints": .list(.int)]
    agreement.values = [
      "list": .list([.double(9_007_199_254_740_992), .int(9_007_199_254_740_993)]),
      "ints": .list([.int(1), .int(9_007_199_254_740_993)]),
    ]
    return agreement
  }

  @Test func sqliteGivesFltsRecords() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    let table = try agreement.load("numbers", into: database, .sqlite)
    let (whole, _) = try agreement.check(Self.filters, on: database, table)
    #expect(whole == Self.filters.count)
    _ = try agreement.check(Self.arithmetic, on: database, table)
  }

  @Test(.enabled(if: PostgresServer.available, "no PostgreSQL server"))
  func postgresGivesFltsRecords() throws {
    let connection = try PostgresServer.connect()
    var agreement = self.agreement
    let table = try agreement.load("numbers", into: connection, .postgresql)
    // PostgreSQL holds NaN (a parameter cannot), which flt never orders.
    agreement.records.append([.int(1), .double(.nan)])
    try connection.forEachRow(
      SQLStatement(#"INSERT INTO numbers (i, d) VALUES (1, 'NaN')"#)
    ) { _ in true }
    let (whole, _) = try agreement.check(Self.filters, on: connection, table)
    #expect(whole == Self.filters.count)
    let (exact, narrowed) = try agreement.check(Self.arithmetic, on: connection, table)
    // (All but `d * 1e-200`, whose constant could make a product underflow: in flt.)
    #expect(exact >= 2 && exact + narrowed == Self.arithmetic.count - 1)
    try connection.executeScript("DROP TABLE numbers")
  }

  /// A `numeric` is an exact decimal, and one beyond its 38 digits is an error that says so,
  /// never a null; the infinities of `double precision` are read as infinities (JSON output
  /// writes `1e999`, not null).
  @Test(.enabled(if: PostgresServer.available, "no PostgreSQL server"))
  func aNumericBeyondADoublesRangeIsSaid() throws {
    let connection = try PostgresServer.connect()
    try connection.executeScript(
      "DROP TABLE IF EXISTS huge; CREATE TABLE huge (n numeric, d double precision); "
        + "INSERT INTO huge VALUES (1.5, 'Infinity'), ('1e400', 1)")
    defer { try? connection.executeScript("DROP TABLE huge") }
    let source = TableSource(try connection.table(named: "huge"), in: connection)
    let error = try #require(throws: DatabaseError.self) {
      try Scan(query: SourceText("true"), source: source).records()
    }
    #expect(error.message.contains("beyond the 38 digits of flt's decimals"), "\(error.message)")
    #expect(error.help?.contains("CAST(n AS double precision)") == true)
    let exact = try Scan(query: SourceText("n - 0.5 == 1.00"), source: source).records()
    #expect(
      exact.map { $0.values[0] } == [
        .decimal(ExactDecimal(significand: 15, scale: 1) ?? ExactDecimal(0))
      ])
    let finite = try Scan(query: SourceText("d > 1"), source: source).records()
    #expect(finite.map { $0.values[1] } == [.double(.infinity)])
    #expect(String(decoding: finite[0].text, as: UTF8.self).contains(#""d":1e999"#))
  }
}
