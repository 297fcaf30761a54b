import Testing

@testable import FilterDSL

/// `stats` in memory: what each aggregate gives at its edges (exact integer sums past 64
/// bits, NaN, nulls, no records), the order of the rows, the columns' names, and the checker's
/// messages.
@Suite struct StatsCounterTests {
  static let schema = Schema([
    .init("color", .string, optional: true), .init("price", .int, optional: true),
    .init("score", .double, optional: true), .init("wait", .duration, optional: true),
    .init("tags", .list(.string), optional: true), .init("day", .date, optional: true),
  ])

  func run(_ text: String, _ records: [[Value]]) throws -> StatsResult {
    try FilterEnvironment(RecordType.dynamic(Self.schema)).compileStats(text).run(records)
  }

  func record(
    _ color: String?, _ price: Int64?, score: Double? = nil, wait: Int64? = nil,
    tags: [String]? = nil
  ) -> [Value] {
    [
      color.map(Value.string) ?? .null, price.map(Value.int) ?? .null,
      score.map(Value.double) ?? .null,
      wait.map { .duration(TimeSpan(nanoseconds: $0)) } ?? .null,
      tags.map { .list($0.map(Value.string)) } ?? .null, .null,
    ]
  }

  @Test func groupsAreSortedByKeyWithNullsLast() throws {
    let records = [
      record("b", 3), record(nil, 4), record("a", 1), record("b", 5), record("a", nil),
    ]
    let result = try run(
      "count(), count(price), sum(price), min(price), max(price) by color", records)
    #expect(
      result.schema.names == [
        "color", "count()", "count(price)", "sum(price)", "min(price)", "max(price)",
      ])
    #expect(
      result.rows == [
        [.string("a"), .int(2), .int(1), .int(1), .int(1), .int(1)],
        [.string("b"), .int(2), .int(2), .int(8), .int(3), .int(5)],
        [.null, .int(1), .int(1), .int(4), .int(4), .int(4)],
      ])
    #expect(result.records == 5)
  }

  @Test func noRecordsGiveOneRowOfNullsWithoutKeysAndNoRowWithThem() throws {
    let overall = try run("count(), sum(price), mean(price), min(color)", [])
    #expect(overall.rows == [[.int(0), .null, .null, .null]])
    #expect(try run("count() by color", []).rows.isEmpty)
  }

  @Test func integerSumsAreExactPast64Bits() throws {
    let records = [record("a", Int64.max), record("a", Int64.max), record("a", -3)]
    let result = try run("sum(price), mean(price)", records)
    // 2 * (2^63 - 1) - 3 = 2^64 - 5: the nearest decimal, said in beyondIntegers.
    #expect(result.rows[0][0] == .double(18_446_744_073_709_551_611.0))
    #expect(result.beyondIntegers == ["sum(price)"])
    #expect(result.schema.fields[0].type == .double)
    // The mean from the exact sum: (2^64 - 5) / 3, not an overflow.
    guard case .double(let mean) = result.rows[0][1] else {
      Issue.record("mean is \(result.rows[0][1])")
      return
    }
    #expect(abs(mean - 6_148_914_691_236_517_203.667) < 1e4)
    // Back within 64 bits: an integer again.
    let back = try run("sum(price)", [record("a", Int64.max), record("a", 1), record("a", -2)])
    #expect(back.rows == [[.int(Int64.max - 1)]])
    #expect(back.beyondIntegers.isEmpty)
  }

  @Test func decimalSumsAreCompensated() throws {
    // 1 + 1e100 - 1e100 in plain order is 0; compensated, 1.
    let records = [1.0, 1e100, -1e100].map { record("a", nil, score: $0) }
    #expect(try run("sum(score)", records).rows == [[.double(1)]])
  }

  @Test func nanCountsAndSumsButIsNeverTheLeastOrGreatest() throws {
    let records = [2.0, .nan, -1.0].map { record("a", nil, score: $0) }
    let row = try run("count(score), min(score), max(score), sum(score)", records).rows[0]
    #expect(row[0] == .int(3) && row[1] == .double(-1) && row[2] == .double(2))
    guard case .double(let sum) = row[3] else { return }
    #expect(sum.isNaN)
  }

  @Test func durationsSumAndAverageToTheNearestNanosecond() throws {
    let records = [record("a", nil, wait: 1), record("a", nil, wait: 2)]
    #expect(
      try run("sum(wait), mean(wait)", records).rows == [
        [.duration(TimeSpan(nanoseconds: 3)), .duration(TimeSpan(nanoseconds: 2))]
      ])
    // A sum that leaves 64 bits is null, and a fault.
    let huge = [record("a", nil, wait: Int64.max), record("a", nil, wait: 1)]
    let result = try run("sum(wait)", huge)
    #expect(result.rows == [[.null]])
    #expect(result.faults[.integerOverflow] == 1)
  }

  @Test func aListKeyCountsEachDistinctElement() throws {
    let records = [
      record("a", 1, tags: ["x", "y", "x"]), record("b", 2, tags: ["y"]), record("c", 3, tags: []),
    ]
    let result = try run("count(), sum(price) by tags", records)
    #expect(
      result.rows == [[.string("x"), .int(1), .int(1)], [.string("y"), .int(2), .int(3)]])
  }

  @Test func aBareValueStandsForItsSummary() throws {
    let records = [record("a", 1), record("b", 3)]
    let result = try run("price, color", records)
    #expect(
      result.schema.names == [
        "count(price)", "min(price)", "max(price)", "sum(price)", "mean(price)",
        "count(color)", "min(color)", "max(color)",
      ])
    #expect(
      result.rows == [
        [.int(2), .int(1), .int(3), .int(4), .double(2), .int(2), .string("a"), .string("b")]
      ])
  }

  @Test func distinctCountsDifferentValues() throws {
    let records = [record("a", 1), record("b", 1), record("a", 2), record(nil, nil)]
    #expect(
      try run("distinct(color), distinct(price), avg(price)", records).rows == [
        [.int(2), .int(2), .double(4.0 / 3)]
      ])
  }

  @Test func theFilterAndFaultsCount() throws {
    let records = [record("a", 0), record("a", 2), record("b", 4)]
    let result = try run("sum(10 // price) by color where price < 4", records)
    #expect(result.rows == [[.string("a"), .int(5)]])
    // (`/` divides exactly: a sum of doubles.)
    let exact = try run("sum(10 / price) by color", [record("a", 4), record("a", 8)])
    #expect(exact.rows == [[.string("a"), .double(3.75)]])
    #expect(result.records == 2)
    #expect(result.faults[.divisionByZero] == 1)
  }

  @Test(arguments: [
    (
      "mean(price) - 1", "FLT319",
      "mean(price) is an aggregate, and cannot be part of a column of stats"
    ),
    (
      "sum(color)", "FLT306",
      "sum takes numbers, durations or true/false values, not 'color' (text)"
    ),
    ("min(tags)", "FLT306", "min takes values that can be ordered, not 'tags' (a list of text)"),
    ("count(price, color)", "FLT304", "count takes 0 to 1 arguments, not 2"),
    ("sum(price), sum(price)", "FLT319", "two columns are called 'sum(price)'"),
    (
      "count() by sum(price)", "FLT319",
      "sum(price) is an aggregate, and cannot be part of a key of 'by'"
    ),
    (
      "count() where mean(price) > 3", "FLT319",
      "mean(price) is an aggregate, and cannot be part of the filter"
    ),
    (
      "count() by min(price)", "FLT319",
      "min(price) is an aggregate, and cannot be part of a key of 'by'"
    ),
    ("count() by colour", "FLT301", "unknown field 'colour'"),
    ("count() by color order by colour", "FLT319", "no column of the stats is called 'colour'"),
    ("median(color)", "FLT306", "median takes numbers, not 'color' (text)"),
    (
      "quantile(price, 1.5)", "FLT306",
      "the fraction of quantile is a number from 0 to 1 written in it"
    ),
    ("quantile(price)", "FLT304", "quantile takes 2 arguments, not 1"),
    (
      "count() by color limit 2 * 1.5", "FLT306",
      "the limit of stats is a whole number written in it, from 0"
    ),
    (
      "count() by color limit -1", "FLT306",
      "the limit of stats is a whole number written in it, from 0"
    ),
  ])
  func mistakesAreSaid(text: String, code: String, message: String) throws {
    let checked = FilterEnvironment(RecordType.dynamic(Self.schema)).check(
      try #require(Parser.parseStats(SourceText(text)).value))
    let error = try #require(checked.diagnostics.first { $0.isError })
    #expect(error.code.description == code)
    #expect(error.message == message)
    #expect(checked.tree == nil)
  }

  /// `order by` a column (an aggregate as written, an `as` name, a key), ties in the keys'
  /// order, nulls last unless `nulls first`; then `offset` and `limit`.
  @Test func rowsAreOrderedAndCut() throws {
    let records = [
      record("a", 1), record("b", 5), record("c", 1), record("d", 3), record(nil, 2),
      record("e", nil),
    ]
    func colors(_ text: String) throws -> [Value] { try run(text, records).rows.map { $0[0] } }
    #expect(
      try colors("count(), sum(price) as total by color order by total desc")
        == [.string("b"), .string("d"), .null, .string("a"), .string("c"), .string("e")])
    #expect(
      try colors("count(), sum(price) by color order by sum(price) nulls first")
        == [.string("e"), .string("a"), .string("c"), .null, .string("d"), .string("b")])
    #expect(
      try colors("max(price) by color order by max(price), color desc limit 2 offset 1")
        == [.string("a"), .null])
    #expect(try colors("count() by color order by count() limit 0").isEmpty)
    #expect(try colors("count() by color offset 10").isEmpty)
  }

  /// Quantiles interpolate between the two nearest values in order (position p × (n - 1));
  /// nulls and NaN are left out; a group with no number has none.
  @Test func quantilesInterpolate() throws {
    let records = [
      record("a", 1), record("a", 5), record("a", 1), record("a", 3), record("a", 2),
      record("a", nil), record("b", 4), record("b", 8), record("c", nil),
      record("d", nil, score: .nan), record("d", nil, score: 2.5),
    ]
    let result = try run(
      "median(price), quantile(price, 0.9) as p90, quantile(price, 0.25), median(score) by color",
      records)
    #expect(
      result.schema.names == [
        "color", "median(price)", "p90", "quantile(price, 0.25)", "median(score)",
      ])
    #expect(
      result.rows == [
        [.string("a"), .double(2), .double(4.2), .double(1), .null],
        [.string("b"), .double(6), .double(7.6), .double(5), .null],
        [.string("c"), .null, .null, .null, .null],
        [.string("d"), .null, .null, .null, .double(2.5)],
      ])
    #expect(StatsAccumulator.quantile([-1e308, 1e308], 0.5) == 0)
    #expect(StatsAccumulator.quantile([1, .infinity], 0.5) == .infinity)
  }

  @Test func maxOfTwoValuesIsTheFunction() throws {
    let records = [record("a", 1), record("a", 300)]
    #expect(try run("max(max(price, 100))", records).rows == [[.int(300)]])
  }

  /// An aggregate of a list inside is the function of the list: the sum of each record's
  /// list, then the stats of those.
  @Test func aggregatesOfListsAreFunctions() throws {
    let records = [
      record("a", 1, tags: ["1", "22"]), record("a", 2, tags: []),
      record("b", 3, tags: ["333"]),
    ]
    let result = try run(
      "sum(sum(int(tags))), max(min(int(tags))) by color where max(int(tags)) >= 2", records)
    #expect(
      result.rows == [[.string("a"), .int(23), .int(1)], [.string("b"), .int(333), .int(333)]])
    let checked = FilterEnvironment(RecordType.dynamic(Self.schema)).check(
      try #require(Parser.parseStats(SourceText("sum(int(tags))")).value))
    #expect(
      checked.diagnostics.first?.help == "sum of each record's list first: sum(sum(int(tags)))")
  }

  @Test(arguments: [
    "count(), mean(price) as m by color, year(day) as y where price > 3",
    "count() by color order by count() desc, color nulls first limit 3 offset 1",
    "sum(price - 1), max(`count`) by tags",
    "price",
  ])
  func printedStatsParseBack(text: String) throws {
    let stats = try #require(Parser.parseStats(SourceText(text)).value)
    let again = try #require(Parser.parseStats(SourceText(stats.description)).value)
    #expect(again == stats)
    let statement = try #require(Parser.parseScript(SourceText("stats " + text)).value)
    #expect(statement.statements.first?.kind == .stats(stats))
    let printed = try #require(Parser.parseScript(SourceText(statement.description)).value)
    #expect(printed == statement)
  }

  @Test func aRunOverTheLimitsHasNoRows() throws {
    var limits = EvaluationLimits.untrusted
    limits.maxCostPerQuery = 1000
    let counter = try FilterEnvironment(RecordType.dynamic(Self.schema), evaluationLimits: limits)
      .compileStats("count(color contains \"q\") by price")
    let long = String(repeating: "a", count: 500)
    let result = counter.run(Array(repeating: record(long, 1), count: 5000))
    #expect(result.rows.isEmpty)
    #expect(result.faults.overLimit != nil)
  }

  @Test func aRunOverTheLimitsByColumnHasNoRows() throws {
    var limits = EvaluationLimits.untrusted
    limits.maxCostPerQuery = 100_000
    let long = String(repeating: "a", count: 500)
    let table = ColumnTable(
      schema: Self.schema, rows: (0..<40_000).map { record(long + "\($0)", Int64($0 % 7)) })
    let counter = try FilterEnvironment(table.recordType, evaluationLimits: limits)
      .compileStats("count(), sum(price) by price where color contains \"q\"")
    let result = counter.run(table.rows)
    #expect(result.rows.isEmpty)
    #expect(result.faults.overLimit != nil)
  }
}

extension StatsCounterTests {
  /// `sum` of true/false values counts the trues and `mean` gives their fraction, as DuckDB
  /// and pandas do; nulls are left out.
  @Test func sumAndMeanOfBooleansCountTheTrues() throws {
    let records = [
      record("a", 1, tags: ["x"]), record("a", 2, tags: []), record("b", 3, tags: ["y", "z"]),
      record("a", nil),
    ]
    let result = try run(
      "sum(len(tags) > 0), mean(len(tags) > 0), sum(price > 1) by color", records)
    #expect(
      result.rows == [
        [.string("a"), .int(1), .double(0.5), .int(1)],
        [.string("b"), .int(1), .double(1), .int(1)],
      ])
  }
}

extension StatsCounterTests {
  /// SQL's `count(*)` is `count()`, and `count(distinct x)` is `distinct(x)`, in any case.
  @Test func sqlSpellingsOfCounts() throws {
    let records = [record("a", 1), record("b", 1), record("a", 2), record(nil, nil)]
    let sql = try run(
      "count(*), COUNT(*) as n, count(distinct color), count(DISTINCT price)", records)
    let flt = try run("count(), count() as n, distinct(color), distinct(price)", records)
    #expect(sql.rows == flt.rows)
    #expect(sql.rows == [[.int(4), .int(4), .int(2), .int(2)]])
  }
}
