import Testing

@testable import FilterDSL

/// Lists as values: aggregates of a list's elements (`sum`, `mean`/`avg`, `min`, `max` of one
/// list) and whole lists compared (`==`, `!=`, `is`, `in`), on the record of
/// ``ReferenceEvaluatorTests`` (scores 4, 5 and null; accessories priced 49, 19 and null; tags
/// 5G and eSIM), through the reference evaluator and the compiled engine.
@Suite struct ListValueTests {
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

  /// Equal lists have one length and equal elements in order; a null element is unknown unless
  /// another pair already differs; `is` takes null as null.
  @Test(arguments: [
    ("eq-1", "tags == (5G, eSIM) and tags != (eSIM, 5G) and tags != (5G,)", Truth.true),
    ("eq-2", "tags == (5G, eSIM, x) or tags == ()", .false),
    ("eq-3", "scores == (4, 5, 6)", .unknown),
    ("eq-4", "scores == (4, 6, 6) or scores == (4, 5)", .false),
    (
      "eq-5", "scores is (4, 5, null) and scores is not (4, 5, 6) and scores == (4.0, 5, `price`)",
      .unknown
    ),
    (
      "eq-6", "scores is (4.0, 5, null) and tags in ((a,), (5G, eSIM)) and tags not in ((a,),)",
      .true
    ),
    (
      "eq-7", "accessories.price == (49, 19, null) or accessories.name == (Case, Charger, Strap)",
      .true
    ),
    // `+` joins two lists, in order.
    (
      "eq-8", "tags + (x,) == (5G, eSIM, x) and len(scores + scores) == 6 and (1,) + () == (1,)",
      .true
    ),
    ("eq-9", "any scores + accessories.price == 19 and (tags + tags)[2] == 5G", .true),
    ("eq-10", "scores + (1,) == (4, 5, null, 1)", .unknown),
  ])
  func equality(id: String, filter: String, expected: Truth) throws {
    try ReferenceEvaluatorTests.expectBothEngines(id, filter, expected) { $0.isEmpty }
  }

  /// `list where filter`: the records whose fields pass (true, not unknown), counted or
  /// measured; the filter sees the parameters.
  @Test(arguments: [
    (
      "where-1",
      "count(accessories where price > 20) == 1 and count(accessories where price is null) == 1",
      Truth.true
    ),
    (
      "where-2", "len(accessories where any tags == leather) == 1 and count(accessories) == 3",
      .true
    ),
    ("where-3", "count(accessories where price < $budget and name startsWith C) == 2", .true),
    (
      "where-4",
      "(accessories where price > 1000) is empty and not ((accessories where true) is empty)", .true
    ),
    (
      "where-5", "count(accessories where len(name) > 4) == count(accessories where name != Case)",
      .true
    ),
  ])
  func filtered(id: String, filter: String, expected: Truth) throws {
    try ReferenceEvaluatorTests.expectBothEngines(id, filter, expected) { $0.isEmpty }
  }

  /// A fault in the filter is counted for each record it happens on, in both engines.
  @Test func faultsInTheFilterCount() throws {
    try ReferenceEvaluatorTests.expectBothEngines(
      "where-faults", "count(accessories where price / 0 > 1) == 0", .true
    ) { $0[.divisionByZero] == 2 && $0.total == 2 }
  }

  /// Printed, a filtered list parses back to the same tree, in a call and on its own.
  @Test(arguments: [
    "count(kids where age > 12) > 1", "len((kids where a > 1 and b == x)) == 2",
    "(kids where age < 5) is empty", "sum(sizes) > 3 and count(kids where any tags == a) == 1",
  ])
  func printedFilteredListsParseBack(text: String) throws {
    let tree = try Parser.parseFilter(text).get()
    #expect(try Parser.parseFilter(tree.description).get() == tree, "\(tree.description)")
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
    (
      "tags < (a, b)",
      "| lists compare with == and != alone: equal in length, element by element in order"
    ),
    ("scores == (a, b)", "cannot compare 'scores' (a list of integers) with a list of text"),
    ("count(tags where x > 1) > 0", "where keeps the records of a list field whose fields pass"),
    ("count(accessories where colour == x) > 0", "unknown field 'colour'"),
    ("count(price) > 1", "count takes a list, not an integer"),
  ])
  func typeErrors(filter: String, message: String) {
    let diagnostics = CheckerTests.check(filter)
    #expect(diagnostics.count == 1, "\(filter): \(diagnostics)")
    #expect(diagnostics.first?.contains(message) == true, "\(filter): \(diagnostics)")
  }
}
