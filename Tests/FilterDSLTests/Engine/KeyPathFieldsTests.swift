import FilterDSL
import TestSupport
import Testing

/// Fields declared by key path: a stored property of a struct is read in place, at its offset
/// in the record (no record copied); any other key path is applied. Either way a filter finds
/// what it finds over the same fields declared by closure, record by record and in batches.
@Suite struct KeyPathFieldsTests {
  /// Fields of every kind the key-path forms take, at offsets other than zero, with texts
  /// short enough to be held inline and long enough to be on the heap.
  struct Item: Sendable {
    var flag: Bool
    var name: String
    var small: Int8
    var count: Int
    var ratio: Double
    var other: Int
    var label: String
    var doubled: Int { count * 2 }
  }

  /// The same fields on a class: no offset to read at, so the key paths are applied.
  final class Box: Sendable {
    let item: Item
    init(_ item: Item) { self.item = item }
    var name: String { item.name }
    var count: Int { item.count }
    var ratio: Double { item.ratio }
  }

  static let names = [
    "a", "B", "é", "e\u{301}", "", "Space Black", "a text longer than sixteen bytes",
  ]

  static let byClosure = RecordType<Item>([
    .bool("flag") { $0.flag }, .string("name") { $0.name }, .int("count") { $0.count },
    .double("ratio") { $0.ratio }, .int("other") { $0.other }, .string("label") { $0.label },
    .int("doubled") { $0.doubled },
  ])
  static let byKeyPath = RecordType<Item>([
    .bool("flag", \.flag), .string("name", \.name), .int("count", \.count),
    .double("ratio", \.ratio), .int("other", \.other), .string("label", \.label),
    .int("doubled", \.doubled),
  ])
  static let boxes = RecordType<Box>([
    .bool("flag", \.item.flag), .string("name", \.name), .int("count", \.count),
    .double("ratio", \.ratio), .int("other", \.item.other), .string("label", \.item.label),
    .int("doubled", \.item.doubled),
  ])

  static func items(_ count: Int, seed: UInt64) -> [Item] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      Item(
        flag: rng.chance(0.5), name: rng.pick(names), small: Int8(rng.int(-128...127)),
        count: rng.int(-3...3) * (rng.chance(0.1) ? Int.max / 8 : 1),
        ratio: rng.chance(0.05) ? .nan : Double(rng.int(-20...20)) / 4, other: rng.int(0...9),
        label: rng.pick(names) + (rng.chance(0.5) ? " and more text to be on the heap" : ""))
    }
  }

  /// A random filter over the fields: comparisons with constants and lists (the forms a
  /// batch tests field by field), arithmetic and functions (read record by record), joined.
  static func filter(_ rng: inout SplitMix64, depth: Int = 2) -> String {
    let ops = ["==", "!=", "<", "<=", ">", ">="]
    let choice = depth <= 0 ? rng.int(0...6) : rng.int(0...9)
    switch choice {
    case 0: return "count \(rng.pick(ops)) \(rng.int(-4...4))"
    case 1: return "ratio \(rng.pick(ops)) \(Double(rng.int(-20...20)) / 4)"
    case 2: return "\(rng.pick(["name", "label"])) \(rng.pick(ops)) \"\(rng.pick(names))\""
    case 3:
      let list = (0..<rng.int(1...3)).map { _ in "\"\(rng.pick(names))\"" }
      return "name \(rng.chance(0.3) ? "not in" : "in") (\(list.joined(separator: ", ")))"
    case 4: return "count in (\(rng.int(-3...3)), \(rng.int(-3...3))) and other \(rng.pick(ops)) 4"
    case 5: return "count + other \(rng.pick(ops)) \(rng.int(-5...12))"
    case 6: return rng.pick(["flag", "not flag", "doubled > 2", "lower(name) == \"b\""])
    case 7: return "not (\(filter(&rng, depth: depth - 1)))"
    default:
      return
        "(\(filter(&rng, depth: depth - 1))) \(rng.pick(["and", "or"])) (\(filter(&rng, depth: depth - 1)))"
    }
  }

  @Test func storedPropertiesHaveOffsets() {
    // What makes the in-place reads happen (and the class's key paths be applied).
    #expect(MemoryLayout<Item>.offset(of: \Item.label) != nil)
    #expect(MemoryLayout<Item>.offset(of: \Item.doubled) == nil)
    #expect(MemoryLayout<Box>.offset(of: \Box.count) == nil)
  }

  @Test(arguments: [1, 2, 3])
  func keyPathsFindWhatClosuresFind(seed: UInt64) throws {
    // More records than a batch (1,024), so that batches follow each other.
    let items = KeyPathFieldsTests.items(2_500, seed: seed)
    let boxed = items.map(Box.init)
    var rng = SplitMix64(seed: seed &+ 100)
    for _ in 0..<60 {
      let text = KeyPathFieldsTests.filter(&rng)
      let reference = try CompiledFilter(text, for: KeyPathFieldsTests.byClosure)
      let expected = items.indices.filter { reference.evaluate(items[$0]) == .true }
      let inPlace = try CompiledFilter(text, for: KeyPathFieldsTests.byKeyPath)
      let applied = try CompiledFilter(text, for: KeyPathFieldsTests.boxes)
      // (Booleans: a failure names the filter, not thousands of values.)
      let smalls = expected.map { items[$0].small }
      let recordByRecord = items.indices.filter { inPlace.matches(items[$0]) } == expected
      let batch = inPlace.filter(items).matches.map(\.small) == smalls
      let appliedRecordByRecord = boxed.indices.filter { applied.matches(boxed[$0]) } == expected
      let appliedBatch = applied.filter(boxed).matches.map(\.item.small) == smalls
      #expect(recordByRecord && batch, "in place: \(text)")
      #expect(appliedRecordByRecord && appliedBatch, "applied: \(text)")
      #expect(inPlace.count(items).count == expected.count, "\(text)")
    }
  }

  @Test func textsReadInPlaceStayWhole() throws {
    // Strings read at their offset are copies the record keeps its own of: the records and
    // the matches still hold every text after the filter ran, many times over.
    let items = KeyPathFieldsTests.items(3_000, seed: 9)
    let text = #"label >= "a" and name != "B""#
    let filter = try CompiledFilter(text, for: KeyPathFieldsTests.byKeyPath)
    var matches: [Item] = []
    for _ in 0..<5 { matches = filter.filter(items).matches }
    let expected = items.filter(try CompiledFilter(text, for: KeyPathFieldsTests.byClosure).matches)
    #expect(!expected.isEmpty && expected.count < items.count)
    let sameMatches = matches.map(\.label) == expected.map(\.label)
    let sameNames = matches.map(\.name) == expected.map(\.name)
    let recordsKept = items.map(\.label) == KeyPathFieldsTests.items(3_000, seed: 9).map(\.label)
    #expect(sameMatches && sameNames && recordsKept)
  }
}
