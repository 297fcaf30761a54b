import Testing

@testable import FilterDSL

/// Literal values, as the parser reads them: `(source, expected literal)`.
@Suite struct LiteralTests {
  static func literal(_ text: String) -> Literal? {
    guard case .predicate(_, let condition) = Parser.parseFilter("x == " + text).value?.kind,
      case .compare(_, let operand, _) = condition.kind, case .literal(let literal) = operand.kind
    else { return nil }
    return literal
  }

  @Test(arguments: [
    ("256", Literal.int(256)),
    ("-3", .int(-3)),
    ("1_000", .int(1000)),
    ("0xFF", .int(255)),
    ("0b101", .int(5)),
    ("9223372036854775807", .int(Int64.max)),
    ("-9223372036854775808", .int(Int64.min)),
    // With a point alone, an exact decimal (keeping its scale); with an exponent, a double.
    ("6.1", .decimal(ExactDecimal("6.1")!)),
    ("-0.50", .decimal(ExactDecimal("-0.50")!)),
    ("1_000.25", .decimal(ExactDecimal("1000.25")!)),
    ("1.5km", .decimal(ExactDecimal("1500.0")!)),
    ("1.5e0km", .double(1500)),
    // Beyond 38 digits: a double.
    (
      "1234567890123456789012345678901234567890.5",
      .double(1234567890123456789012345678901234567890.5)
    ),
    ("1e3", .double(1000)),
    ("-2.5e-3", .double(-0.0025)),
    ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
    (#""Space Black""#, .string("Space Black")),
    (#"'it\'s'"#, .string("it's")),
    (#""\u{1F600} \\ \n""#, .string("😀 \\ \n")),
    ("Midnight", .string("Midnight")),
    ("5G", .string("5G")),
    ("true", .bool(true)),
    ("FALSE", .bool(false)),
    ("null", .null),
    ("7d", .duration(TimeSpan(nanoseconds: 7 * 86_400_000_000_000))),
    ("1h30m", .duration(TimeSpan(nanoseconds: 5_400_000_000_000))),
    ("-500ms", .duration(TimeSpan(nanoseconds: -500_000_000))),
    ("2022-09-16", .date(CalendarDate(year: 2022, month: 9, day: 16)!)),
    ("2024-02-29", .date(CalendarDate(year: 2024, month: 2, day: 29)!)),
    ("1970-01-01T00:00:00Z", .dateTime(Instant(seconds: 0))),
    ("2022-09-16T10:00:00+02:00", .dateTime(Instant(seconds: 1_663_315_200))),
    ("2022-09-16T08:00", .dateTime(Instant(seconds: 1_663_315_200))),
    ("1969-12-31T23:59:59.25Z", .dateTime(Instant(seconds: -1, nanoseconds: 250_000_000))),
    // Times of day; `24:00`, the end of the day, as in SQL.
    ("22:00", .time(TimeOfDay(hour: 22, minute: 0)!)),
    ("09:30:15", .time(TimeOfDay(hour: 9, minute: 30, second: 15)!)),
    ("00:00:00.000000001", .time(TimeOfDay(nanosecondsSinceMidnight: 1)!)),
    ("23:59:59.5", .time(TimeOfDay(hour: 23, minute: 59, second: 59, nanoseconds: 500_000_000)!)),
    ("24:00", .time(TimeOfDay(nanosecondsSinceMidnight: 86_400_000_000_000)!)),
  ])
  func values(source: String, expected: Literal) {
    #expect(LiteralTests.literal(source) == expected, "\(source)")
  }

  @Test func integerJustPastTheRangeIsAnError() {
    let result = Parser.parseFilter("x == 9223372036854775808")
    #expect(result.value == nil)
    #expect(result.diagnostics.map(\.code) == [.integerTooLarge])
    #expect(Parser.parseFilter("x == --9223372036854775808").value != nil)
  }

  @Test func calendarRoundTrip() {
    for days in stride(from: Int64(-719_528), through: 2_932_896, by: 997) {
      let date = CalendarDate(daysSinceEpoch: days)
      let (y, m, d) = date.components
      #expect(CalendarDate(year: y, month: m, day: d) == date)
    }
    #expect(CalendarDate(year: 1900, month: 2, day: 29) == nil)
    #expect(CalendarDate(year: 2000, month: 2, day: 29) != nil)
    #expect(CalendarDate(year: 10000, month: 1, day: 1) == nil)
  }

  @Test func timeTextForms() {
    #expect(Instant(seconds: -1, nanoseconds: 5).description == "1969-12-31T23:59:59.000000005Z")
    #expect(Instant(seconds: .min).description.isEmpty == false)
    #expect(TimeSpan(nanoseconds: 0).description == "0s")
    #expect(TimeSpan(nanoseconds: -90_061_000_000_000).description == "-1d1h1m1s")
    #expect(TimeSpan(nanoseconds: .min).description.hasPrefix("-106751d"))
  }
}
