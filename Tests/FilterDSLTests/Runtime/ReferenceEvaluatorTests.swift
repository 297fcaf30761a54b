import Testing

@testable import FilterDSL

/// What filters mean: `(id, filter, expected truth)` on a fixed record, with null and missing
/// values, and every fault class ending in unknown, never in a crash.
@Suite struct ReferenceEvaluatorTests {
  static let camera: Value = .record([.int(48), .null])

  /// An iPhone 14 Pro; `updated` and `discontinued` are null, `zoom` is null.
  static let record: [Value] = PhoneSchema.schema.fields.map { field -> Value in
    switch field.name {
    case "model": .string("iPhone 14 Pro")
    case "price": .int(999)
    case "screenSize": .double(6.1)
    case "processor": .string("A16 Bionic")
    case "memory": .int(6)
    case "diskSpace": .int(256)
    case "color": .string("Space Black")
    case "released": .date(CalendarDate(daysSinceEpoch: 19_251))  // 2022-09-16
    case "warranty": .duration(TimeSpan(nanoseconds: 365 * 86_400_000_000_000))
    case "inStock": .bool(true)
    case "tags": .list([.string("5G"), .string("eSIM")])
    case "scores": .list([.int(4), .int(5), .null])
    case "camera": camera
    case "screen size": .double(6.1)
    case "accessories":
      .list([
        .record([.string("Case"), .int(49), .list([.string("leather")])]),
        .record([.string("Charger"), .int(19), .list([.string("usb-c"), .string("20W")])]),
        .record([.string("Strap"), .null, .null]),
      ])
    default: .null
    }
  }

  static let context = EvaluationContext(
    now: Instant(seconds: 1_700_000_000),
    parameters: [
      "budget": .int(1000), "colors": .list([.string("Gold"), .string("Space Black")]),
      "nothing": .null,
    ])

  static func evaluate(_ text: String) -> (Truth, FaultCounts) {
    guard let expr = Parser.parseFilter(text).value else { return (.unknown, FaultCounts()) }
    let evaluator = ReferenceEvaluator(schema: PhoneSchema.schema, context: context)
    let (truth, faults) = evaluator.evaluate(expr, on: record)
    return (truth, faults)
  }

  @Test(arguments: [
    // Comparisons by type.
    ("eval-1.1", "price == 999", Truth.true), ("eval-1.2", "price != 999", .false),
    ("eval-1.3", "price < 1000", .true),
    ("eval-1.4", "price <= 998", .false), ("eval-1.5", "price > 999.5", .false),
    ("eval-1.6", "price >= 999.0", .true),
    ("eval-1.7", "screenSize == 6.1", .true), ("eval-1.8", "screenSize > 6", .true),
    ("eval-1.9", "color == \"Space Black\"", .true), ("eval-1.10", "color < Starlight", .true),
    ("eval-1.11", "color ==[c] \"space black\"", .true),
    ("eval-1.12", "color == \"space black\"", .false),
    ("eval-1.13", "inStock == true", .true), ("eval-1.14", "inStock", .true),
    ("eval-1.15", "not inStock", .false),
    ("eval-1.16", "released == 2022-09-16", .true),
    ("eval-1.17", "released < 2022-09-16T00:00:01Z", .true),
    ("eval-1.18", "released == 2022-09-16T00:00:00Z", .true),
    ("eval-1.19", "warranty > 52w", .true),
    // Null and missing: unknown, and the Kleene rules.
    // Null-safe equality and emptiness.
    (
      "eval-7.1", "updated is null and lower($nothing) is $nothing and not (updated is 2022-01-01)",
      .true
    ),
    (
      "eval-7.2",
      "price is 999 and price is 999.0 and price is not 1000 and color is \"Space Black\"", .true
    ),
    (
      "eval-7.3", "price is not null and price is not `memory` and updated is `discontinued`", .true
    ),
    (
      "eval-7.4",
      #"tags is not empty and model is not empty and not ("" is not empty) and "" is empty"#, .true
    ),
    ("eval-7.5", "$nothing is empty or lower($nothing) is not empty", .unknown),
    ("eval-7.6", "any tags is 5G and none scores is 7 and any scores is null", .true),
    ("eval-2.1", "updated > 2022-01-01", .unknown), ("eval-2.2", "updated < 2022-01-01", .unknown),
    ("eval-2.3", "not (updated > 2022-01-01)", .unknown),
    ("eval-2.4", "updated > 2022-01-01 and price > 1", .unknown),
    ("eval-2.5", "updated > 2022-01-01 and price > 5000", .false),
    ("eval-2.6", "updated > 2022-01-01 or price > 1", .true),
    ("eval-2.7", "updated > 2022-01-01 or price > 5000", .unknown),
    ("eval-2.8", "updated is null", .true),
    ("eval-2.9", "updated is not null", .false), ("eval-2.10", "exists updated", .false),
    ("eval-2.11", "exists price", .true),
    ("eval-2.12", "camera.zoom is null", .true), ("eval-2.13", "camera.megapixels == 48", .true),
    ("eval-2.14", "camera.zoom > 1", .unknown), ("eval-2.15", "updated != 2022-01-01", .unknown),
    ("eval-2.16", "$nothing == \"x\"", .unknown), ("eval-2.17", "$missing == 1", .unknown),
    // Membership, ranges, between.
    ("eval-3.1", "color in (Gold, \"Space Black\")", .true),
    ("eval-3.2", "color in (Gold, Silver)", .false),
    ("eval-3.3", "color not in (Gold, Silver)", .true), ("eval-3.4", "color in $colors", .true),
    ("eval-3.5", "diskSpace in 256...1024", .true), ("eval-3.6", "diskSpace in 0..<256", .false),
    ("eval-3.7", "price between 999 and 1000", .true),
    ("eval-3.8", "price not between 0 and 998", .true),
    ("eval-3.9", "updated in (2022-01-01, 2023-01-01)", .unknown),
    ("eval-3.10", "color in[c] (\"space black\")", .true),
    ("eval-3.11", "price in (1, 999.0)", .true),
    ("eval-3.12", "updated between 2022-01-01 and 2023-01-01", .unknown),
    // Text.
    ("eval-4.1", "model contains Pro", .true), ("eval-4.2", "model contains pro", .false),
    ("eval-4.3", "model contains[c] pro", .true), ("eval-4.4", "model startsWith iPhone", .true),
    ("eval-4.5", "model endsWith \"14 Pro\"", .true), ("eval-4.6", "model not contains Max", .true),
    ("eval-4.7", "model like \"iPhone*Pro\"", .true),
    ("eval-4.8", "model like \"iphone*\"", .false),
    ("eval-4.9", "model like[c] \"iphone*\"", .true),
    ("eval-4.10", "model matches \"iPhone 1[45]( Pro)?\"", .true),
    ("eval-4.11", "model matches \"iPhone\"", .false),
    ("eval-4.12", "processor contains[cd] \"BIÓNIC\"", .true),
    ("eval-4.13", "tags contains 5G", .true), ("eval-4.14", "tags contains 4G", .false),
    ("eval-4.15", "model contains \"\"", .true),
    // Quantifiers over lists with a null element.
    ("eval-5.1", "any tags == 5G", .true), ("eval-5.2", "all tags == 5G", .false),
    ("eval-5.3", "none tags == LTE", .true),
    ("eval-5.4", "any scores > 4", .true), ("eval-5.5", "all scores >= 4", .unknown),
    ("eval-5.6", "any scores > 5", .unknown),
    ("eval-5.7", "none scores > 5", .unknown), ("eval-5.8", "all scores > 4", .false),
    // Arithmetic and functions.
    ("eval-6.1", "price * 2 == 1998", .true), ("eval-6.2", "price // 2 == 499", .true),
    ("eval-6.2b", "price / 2 == 499.5 and -price // 2 == -499 and 7 / 2 == 3.5", .true),
    ("eval-6.3", "price % 10 == 9", .true),
    ("eval-6.4", "price / 2.0 == 499.5", .true), ("eval-6.5", "-price < 0", .true),
    ("eval-6.6", "price <= $budget", .true),
    ("eval-6.7", "lower(model) == \"iphone 14 pro\"", .true),
    ("eval-6.8", "upper(color) == \"SPACE BLACK\"", .true),
    ("eval-6.9", "len(model) == 13 and len(tags) == 2", .true),
    ("eval-6.10", "abs(0 - price) == 999", .true),
    (
      "eval-6.11", "round(screenSize) == 6 and floor(screenSize) == 6 and ceil(screenSize) == 7",
      .true
    ),
    ("eval-6.12", "max(price, 1200) == 1200 and min(price, 2.5) == 2.5", .true),
    ("eval-6.13", "released + 7d == 2022-09-23", .true),
    ("eval-6.14", "released - 1h < 2022-09-16", .true),
    ("eval-6.15", "now() - 2023-11-14T22:13:20Z == 0s", .true),
    ("eval-6.16", "today() == 2023-11-14", .true),
    ("eval-6.17", "date(\"2022-09-16\") == `released`", .true),
    ("eval-6.19", "model + \"!\" == \"iPhone 14 Pro!\"", .true),
    ("eval-6.20", "lower(processor) == lower($nothing)", .unknown),
    ("eval-6.21", "2023-11-14 - released == 424d", .true),
    // Any integer divided by -1 leaves 0, Int64.min too: no overflow (as in PostgreSQL).
    ("eval-6.22", "(-9223372036854775808 + price - 999) % -1 == 0", .true),
  ])
  func truth(id: String, filter: String, expected: Truth) throws {
    try ReferenceEvaluatorTests.expectBothEngines(id, filter, expected) { $0.isEmpty }
  }

  /// `filter` on ``record`` through the reference evaluator and the compiled engine: both
  /// give `expected`, and faults for which `faultsHold` is true.
  static func expectBothEngines(
    _ id: String, _ filter: String, _ expected: Truth, faults faultsHold: (FaultCounts) -> Bool
  ) throws {
    let (truth, faults) = evaluate(filter)
    #expect(truth == expected, "\(id): \(filter)")
    #expect(faultsHold(faults), "\(id): \(filter): \(faults)")
    let (compiled, compiledFaults) = try self.compiled(filter)
    #expect(compiled == expected, "\(id) compiled: \(filter)")
    #expect(faultsHold(compiledFaults), "\(id) compiled: \(filter): \(compiledFaults)")
  }

  static func compiled(_ text: String) throws -> (Truth, FaultCounts) {
    let parameters: [String: ValueType] = [
      "budget": .int, "colors": .list(.string), "nothing": .string, "missing": .int,
    ]
    let filter = try CompiledFilter(
      text, for: RecordType.dynamic(PhoneSchema.schema), parameters: parameters
    )
    .binding(context.parameters, now: context.now)
    var faults = FaultCounts()
    let truth = filter.evaluate(record, faults: &faults)
    return (truth, faults)
  }

  /// Every trap class of Swift is a fault here: the operation is unknown, and counted.
  @Test(arguments: [
    ("trap-1", "9223372036854775807 + price > 0", Fault.integerOverflow),
    ("trap-2", "-9223372036854775808 - price < 0", .integerOverflow),
    ("trap-3", "price * 9223372036854775807 > 0", .integerOverflow),
    ("trap-4", "price / 0 > 0", .divisionByZero),
    ("trap-5", "price % 0 > 0", .divisionByZero),
    ("trap-6", "-9223372036854775808 // (price - 1000) > 0", .integerOverflow),
    ("trap-6b", "price // 0 > 0", .divisionByZero),
    ("trap-7", "-(-9223372036854775808 + price - 999) > 0", .integerOverflow),
    ("trap-8", "abs(-9223372036854775808 + price - 999) > 0", .integerOverflow),
    ("trap-9", "round(screenSize * 1e300) > 0", .integerOverflow),
    ("trap-10", "round(screenSize * 1e308 * 10) > 0", .invalidConversion),
    ("trap-11", "screenSize / 0 > 0", .divisionByZero),
    ("trap-12", "(screenSize * 1e308 * 10) - (screenSize * 1e308 * 10) > 0", .invalidConversion),
    ("trap-13", "warranty * 9223372036854775807 > 0s", .integerOverflow),
    (
      "trap-14", "released" + String(repeating: " + 106000d", count: 28) + " > 2022-01-01",
      .dateOutOfRange
    ),
    (
      "trap-15", "released" + String(repeating: " - 106000d", count: 8) + " < 2022-01-01",
      .dateOutOfRange
    ),
    ("trap-16", "updated + 106751d * 100 > 2022-01-01", .integerOverflow),
    // Text that is not a date: null, and counted.
    ("trap-17", "date(processor) == `released`", .invalidConversion),
  ])
  func faults(id: String, filter: String, fault: Fault) throws {
    try ReferenceEvaluatorTests.expectBothEngines(id, filter, .unknown) { $0[fault] == 1 }
  }

  @Test func exactIntDoubleComparison() {
    let cases: [(Int64, Double, Int?)] = [
      (9_007_199_254_740_993, 9_007_199_254_740_992.0, 1), (Int64.max, 9.223372036854775807e18, -1),
      (Int64.min, -9.223372036854775808e18, 0), (3, 3.5, -1), (-3, -3.5, 1), (0, .nan, nil),
      (5, .infinity, -1), (5, -.infinity, 1), (0, -0.0, 0),
    ]
    for (a, b, expected) in cases {
      #expect(NumberComparison.compare(a, b) == expected, "\(a) vs \(b)")
      #expect(NumberComparison.compare(b, a) == expected.map { -$0 }, "\(b) vs \(a)")
    }
  }

  @Test func kleeneTables() {
    let all: [Truth] = [.false, .unknown, .true]
    for a in all {
      for b in all {
        let and: Truth =
          a == .false || b == .false ? .false : (a == .unknown || b == .unknown ? .unknown : .true)
        let or: Truth =
          a == .true || b == .true ? .true : (a == .unknown || b == .unknown ? .unknown : .false)
        #expect((a && b) == and)
        #expect((a || b) == or)
      }
      #expect(!(!a) == a)
    }
    #expect(!Truth.unknown == .unknown)
  }
}
