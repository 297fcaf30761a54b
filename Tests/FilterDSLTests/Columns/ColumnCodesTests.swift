import TestSupport
import Testing

@testable import FilterDSL

/// A coded column finds a value's code by a hash equal values share (`ValueHash`), and gives
/// a code only when the code's value is equal to it: equal values share one code, other values
/// never do, however their hashes fall.
@Suite struct ColumnCodesTests {
  /// A coded column of `values`: its codes and its distinct values.
  func coded(_ type: ValueType, _ values: [Value]) -> (codes: [UInt32], distinct: [Value])? {
    var builder = ColumnBuilder()
    for value in values { builder.append([value]) }
    let table = builder.finish(Schema([.init("f", type, optional: true)]))
    guard case .coded(let codes, let dictionary) = table.columns[0].storage else { return nil }
    return ((0..<codes.count).map { codes[$0] }, dictionary.values)
  }

  @Test func valuesThatHashAlikeKeepTheirOwnCodes() {
    var slots = MemoSlots()
    let values: [Value] = [.null, .string("a"), .string("b")]
    let hash: UInt64 = 0xDEAD_BEEF_0000_0001
    slots.insert(1, hash: hash)
    slots.insert(2, hash: hash)
    func code(_ value: Value, _ hash: UInt64) -> UInt32? {
      slots.find(hash) { values[Int($0)] == value }
    }
    #expect(code(.string("a"), hash) == 1)
    #expect(code(.string("b"), hash) == 2)
    #expect(code(.string("c"), hash) == nil)
    #expect(code(.string("a"), hash ^ (1 << 40)) == nil)
  }

  /// Equal values hash alike, whatever their bytes: the code points that are other spellings
  /// of ASCII characters, composed and decomposed letters, zeros of either sign.
  @Test func equalValuesHashAlike() {
    let pairs: [(Value, Value)] = [
      (.string("K"), .string("\u{212A}")), (.string("a;"), .string("a\u{037E}")),
      (.string("`x"), .string("\u{1FEF}x")), (.string("caf\u{E9}"), .string("cafe\u{301}")),
      (.double(0), .double(-0.0)), (.list([.double(0)]), .list([.double(-0.0)])),
      // Lists and records hash their elements alike, at any depth.
      (.record([.string("K"), .int(3)]), .record([.string("\u{212A}"), .int(3)])),
      (.list([.record([.string("caf\u{E9}")])]), .list([.record([.string("cafe\u{301}")])])),
    ]
    for (a, b) in pairs {
      #expect(a == b)
      #expect(ValueHash.of(a) == ValueHash.of(b), "\(a) and \(b)")
    }
    // A list and a record of the same elements are not equal, nor hashed alike; nor lists of
    // the same elements in another order.
    #expect(ValueHash.of(.list([.int(1)])) != ValueHash.of(.record([.int(1)])))
    #expect(ValueHash.of(.list([.int(1), .int(2)])) != ValueHash.of(.list([.int(2), .int(1)])))
  }

  @Test func equalValuesOfOtherBytesShareACode() throws {
    // `é` as one code point and as `e` and a combining accent; the Kelvin sign and `K`; zero
    // and negative zero in lists: equal as values, other bytes or bits.
    let pairs: [(ValueType, Value, Value)] = [
      (.string, .string("caf\u{E9}"), .string("cafe\u{301}")),
      (.string, .string("\u{212A}"), .string("K")),
      (.list(.double), .list([.double(0.0)]), .list([.double(-0.0)])),
    ]
    for (type, a, b) in pairs {
      let column = try #require(coded(type, [a, b, a, b, .null, b]))
      #expect(column.codes == [1, 1, 1, 1, 0, 1], "\(a)")
      #expect(column.distinct.count == 2)
    }
  }

  @Test func codesAgreeWithEqualityForRandomValues() throws {
    // Values of every kind, with many repeats, and many distinct texts.
    for seed in UInt64(1)...20 {
      var random = SplitMix64(seed: seed)
      let kinds: [(ValueType, (inout SplitMix64) -> Value)] = [
        (.string, { .string("t\($0.int(0...(seed == 1 ? 60_000 : 300)))") }),
        (.int, { .int(Int64($0.int(-50...50)) * 1_000_000_007) }),
        (.date, { .date(CalendarDate(daysSinceEpoch: Int64($0.int(0...40)))) }),
        (.duration, { .duration(TimeSpan(nanoseconds: Int64($0.int(0...40)))) }),
        (.list(.int), { r in .list((0..<r.int(0...3)).map { _ in .int(Int64(r.int(0...2))) }) }),
        (.bool, { .bool($0.chance(0.5)) }),
      ]
      let (type, make) = kinds[Int(seed - 1) % kinds.count]
      let values: [Value] = (0..<(seed == 1 ? 120_000 : 3_000)).map { _ in
        random.chance(0.05) ? .null : make(&random)
      }
      let column = try #require(coded(type, values), "seed \(seed)")
      var codeOf: [Value: UInt32] = [.null: 0]
      for (row, value) in values.enumerated() {
        let code = column.codes[row]
        if let known = codeOf[value] {
          #expect(code == known, "seed \(seed), row \(row)")
          if code != known { return }
        } else {
          codeOf[value] = code
        }
        #expect(Int(code) < column.distinct.count && column.distinct[Int(code)] == value)
      }
      #expect(Set(column.distinct.dropFirst()).count == column.distinct.count - 1)
    }
  }
}
