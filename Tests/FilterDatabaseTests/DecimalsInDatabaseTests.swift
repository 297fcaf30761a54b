import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL
import Testing

/// Exact decimals in PostgreSQL: a `numeric` column is read as exact decimals, and filters on
/// it (comparisons with integers, decimals and doubles; `+ - * %`, whose scales PostgreSQL
/// keeps as flt does; results beyond flt's 38 digits; sorting) give flt's records, however
/// much the database answers.
@Suite struct DecimalsInDatabaseTests {
  static let schema = Schema([
    .init("i", .int, optional: true), .init("m", .decimal, optional: true),
    .init("d", .double, optional: true),
  ])
  static let decimals: [String?] = [
    "0.1", "0.10", "-2.999", "2.55", "2.550", "99999999999999999999.5",
    "0.000000000000000000000000000001", "1234567890123456789.0123456789012345678", "7", "-0.5",
    "3.00", nil, "9007199254740993",
  ]
  static let integers: [Int64?] = [1, 2, 3, -1, 0, nil, .max]
  static let doubles: [Double?] = [2.55, 0.1, 1e300, -0.5, nil, 7]

  static let filters = [
    "m > 0.1", "m == 0.10", "m != 2.55", "m >= -2.999", "m between 0.1 and 3",
    "m in (0.1, 2.55, 7)", "m < `d`", "m == `d`", "m == `i`", "m > `i`", "m - 0.55 == 2.00",
    "m * 2 > 5.1", "m + `i` > 3", "m % 0.3 == 0.1", "m * m > 1", "m / 2 > 1", "i * 1.1 > 2.2",
    "m > 1e-30", "-m < 0", "abs(m) > 1", "round(m) == 3", "m is null", "m is 2.55",
    "m * 1000000000000000000000.0 > 1", "m + 99999999999999999999.5 > 0", "m == 9007199254740993",
    "m > 9007199254740992.5", "m * `d` > 1", "m > 2.5e0", "m >= 0 order by m desc",
    "true order by m, i limit 5", "max(m, 1.5) > 2", "coalesce(m, 0.5) > 0.4",
    "m * 0.000000001 >= 0",
  ]

  var agreement: DatabaseAgreement {
    var records: [[Value]] = []
    for (n, text) in Self.decimals.enumerated() {
      let m = text.flatMap { ExactDecimal($0) }.map(Value.decimal) ?? .null
      for k in 0..<3 {
        let i = Self.integers[(n + k) % Self.integers.count].map(Value.int) ?? .null
        let d = Self.doubles[(n * 2 + k) % Self.doubles.count].map(Value.double) ?? .null
        records.append([i, m, d])
      }
    }
    return DatabaseAgreement(schema: Self.schema, records: records)
  }

  @Test(.enabled(if: PostgresServer.available, "no PostgreSQL server"))
  func postgresGivesFltsRecords() throws {
    let connection = try PostgresServer.connect()
    let table = try agreement.load("decimals", into: connection, .postgresql)
    defer { try? connection.executeScript("DROP TABLE decimals") }
    // Read back as they were written, scales kept.
    let source = TableSource(try connection.table(named: "decimals"), in: connection)
    #expect(source.schema.field(named: "m")?.field.type == .decimal)
    let all = try Scan(query: SourceText("true"), source: source).records()
    #expect(all.map { $0.values[1] } == agreement.records.map { $0[1] })
    #expect(all.map { "\($0.values[1])" }.contains("0.10"))
    let (whole, _) = try agreement.check(Self.filters, on: connection, table)
    // Every comparison and every `+ - * %` of decimals runs there.
    #expect(whole >= Self.filters.count - 4, "\(whole) of \(Self.filters.count)")
  }

  /// SQLite has no decimals: a decimal constant compares there as the number that compares
  /// the same, and decimal arithmetic stays in flt.
  @Test func sqliteGivesFltsRecords() throws {
    let schema = Schema([.init("i", .int, optional: true), .init("d", .double, optional: true)])
    var records: [[Value]] = []
    for (n, i) in Self.integers.enumerated() {
      for d in Self.doubles.dropFirst(n % 2) {
        records.append([i.map(Value.int) ?? .null, d.map(Value.double) ?? .null])
      }
    }
    let agreement = DatabaseAgreement(schema: schema, records: records)
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    let table = try agreement.load("numbers", into: database, .sqlite)
    let filters = [
      "i > 1.5", "i == 2.00", "i < 2.5 and d > 0.1", "d == 2.55", "d == 0.1", "i * 1.1 > 2.2",
      "i in (1.0, 2.5)", "i between 0.5 and 2.00", "i > 9007199254740992.5",
      "d - 0.55 == 2.00", "i % 0.3 == 0.1", "i - 0.1 < 1",
    ]
    let (whole, _) = try agreement.check(filters, on: database, table)
    #expect(whole >= 7, "\(whole) of \(filters.count)")
  }
}
