import TestSupport
import Testing

@testable import FilterDSL

/// The groups of a `stats` found by a cheap hash: numbered exactly as a `Dictionary` keyed by
/// the values numbers them, equal values spelled apart included.
@Suite struct GroupIndexTests {
  /// Texts equal by `==` though their bytes differ (the three code points that are other
  /// spellings of ASCII characters, and a composed letter), and numbers equal in other bits.
  static let pairs: [(Value, Value)] = [
    (.string("K"), .string("\u{212A}")), (.string("a;b"), .string("a\u{037E}b")),
    (.string("`"), .string("\u{1FEF}")), (.string("\u{E9}"), .string("e\u{301}")),
    (.string("Kelvin"), .string("\u{212A}elvin")), (.double(0), .double(-0.0)),
    (.string("K"), .string("k")), (.int(1), .double(1)), (.string("1"), .int(1)),
  ]

  @Test func equalValuesAreOneGroup() {
    for (a, b) in Self.pairs {
      var index = GroupIndex(width: 1)
      let (first, second) = (index.group([a]), index.group([b]))
      #expect((first == second) == (a == b), "\(a) and \(b)")
      #expect(index.count == (a == b ? 1 : 2))
    }
  }

  /// Random keys of two values (texts, integers, doubles with NaN, nulls, lists) numbered as
  /// a dictionary numbers them; with a capacity of 40 groups, those past it too.
  @Test(arguments: [Int(UInt32.max) - 1, 40])
  func numbersGroupsAsADictionary(capacity: Int) {
    var rng = SplitMix64(seed: 5)
    let pool: [Value] =
      Self.pairs.flatMap { [$0.0, $0.1] } + [
        .null, .double(.nan), .int(-7), .string("Space Black"), .list([.int(1), .string("K")]),
        .list([.int(1), .string("\u{212A}")]), .bool(true),
        .string(String(repeating: "long text ", count: 5)),
      ]
    var index = GroupIndex(width: 2, capacity: capacity)
    var reference: [[Value]: Int] = [:]
    for _ in 0..<5000 {
      let key = [rng.pick(pool), rng.chance(0.5) ? .int(Int64(rng.int(0...30))) : rng.pick(pool)]
      let expected = reference[key] ?? reference.count
      if reference[key] == nil { reference[key] = expected }
      let group = index.group(key)
      #expect(group == expected, "\(key)")
      if group != expected { return }
      #expect(Array(index.key(of: group)) == key || key.contains { $0 != $0 })
    }
    #expect(index.count == reference.count)
  }

  /// Keys of no value: one group.
  @Test func keysOfNoValueAreOneGroup() {
    var index = GroupIndex(width: 0)
    #expect(index.group([]) == 0)
    #expect(index.group([]) == 0)
    #expect(index.count == 1)
  }
}
