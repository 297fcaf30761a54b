import Testing

@testable import FilterDSL

/// Values and fault counts read as words and literals, not as Swift's enum dumps.
@Suite struct ValueDescriptionTests {
  @Test func valuesReadAsLiterals() {
    let cases: [(Value, String)] = [
      (.string("Gold"), #""Gold""#), (.string(#"say "hi""#), #""say \"hi\"""#), (.int(-5), "-5"),
      (.double(2.5), "2.5"), (.bool(true), "true"), (.null, "null"),
      (.date(CalendarDate(year: 2022, month: 9, day: 16)!), "2022-09-16"),
      (.duration(TimeSpan(nanoseconds: 7 * 86_400_000_000_000)), "7d"),
      (.list([.int(1), .string("a")]), #"(1, "a")"#), (.record([.int(1), .null]), "{1, null}"),
    ]
    for (value, text) in cases {
      #expect(value.description == text)
      #expect("\(value)" == text)
    }
  }

  @Test func faultCountsReadAsWords() {
    var faults = FaultCounts()
    #expect(faults.description == "")
    faults.record(.integerOverflow)
    #expect(faults.summary == "1 operation failed (1 integer overflow) and counted as unknown")
    faults.record(.divisionByZero)
    faults.record(.divisionByZero)
    #expect(faults.description == "2 divisions by zero, 1 integer overflow")
    #expect(faults.summary.hasPrefix("3 operations failed (2 divisions by zero, 1 integer"))
  }
}
