import Testing

@testable import FilterDSL

/// Aggregates of a list's elements (`sum`, `mean`/`avg`, `min`, `max` of one list), on the
/// record of ``ReferenceEvaluatorTests`` (scores 4, 5 and null; accessories priced 49, 19 and
/// null; tags 5G and eSIM), through the reference evaluator and the compiled engine.
@Suite struct ListFunctionTests {
  @Test(arguments: [
    (
      "list-1",
      "sum(scores) == 9 and mean(scores) == 4.5 and min(scores) == 4 and max(scores) == 5",
      Truth.true
    ),
    ("list-2", "sum(accessories.price) == 68 and avg(accessories.price) == 34.0", .true),
    ("list-3", "min(accessories.name) == Case and max(tags) == eSIM", .true),
    // Of two values or more, min and max are the functions of those, element by element for a
    // list given first.
    ("list-4", "any min(scores, 4) == 4 and all max(scores, 4) >= 4", .unknown),
    ("list-5", "any min(scores, 4) == 4 and max(price, 1000) == 1000", .true),
    (
      "list-6",
      "sum((1, 2.5, `price`)) == 1002.5 and max((1, 2.5)) == 2.5 and min((1, 2.5)) == 1.0",
      .true
    ),
    ("list-7", "sum(()) is null and max(accessories.price) == 49", .true),
    ("list-8", "sum(scores * 2) == 18 and mean(-scores) == -4.5", .true),
  ])
  func truth(id: String, filter: String, expected: Truth) throws {
    try ReferenceEvaluatorTests.expectBothEngines(id, filter, expected) { $0.isEmpty }
  }

  /// An integer sum beyond 64 bits is a fault, as any integer overflow.
  @Test func aSumBeyond64BitsFaults() throws {
    try ReferenceEvaluatorTests.expectBothEngines(
      "list-overflow", "sum((9223372036854775807, `price`)) > 0", .unknown
    ) { $0[.integerOverflow] == 1 && $0.total == 1 }
  }

  @Test(arguments: [
    ("sum(tags) > 1", "sum takes a list of numbers or durations, not a list of text"),
    ("sum(price) > 1", "sum takes a list of numbers or durations, not an integer"),
    ("min(price) > 1", "min takes a list, or two values or more, not an integer alone"),
    ("max(accessories) > 1", "max takes a list, or two values or more, not a list of records"),
  ])
  func typeErrors(filter: String, message: String) {
    let diagnostics = CheckerTests.check(filter)
    #expect(diagnostics.count == 1, "\(filter): \(diagnostics)")
    #expect(diagnostics.first?.contains(message) == true, "\(filter): \(diagnostics)")
  }
}
