import Testing

@testable import FilterDSL

/// Facet counts are disjunctive: each field's counts equal a brute-force count over the
/// records matching every part of the filter except that field's own condition.
@Suite struct FacetCounterTests {
  static let schema = Schema([
    .init("color", .string), .init("disk", .int),
    .init("price", .int), .init("tags", .list(.string), optional: true),
  ])

  static func records(_ count: Int) -> [[Value]] {
    var seed: UInt64 = 42
    func next(_ n: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(n))
    }
    let colors = ["Starlight", "Midnight", "Gold", "Space Black"]
    let tags = ["5G", "eSIM", "MagSafe"]
    return (0..<count).map { _ in
      [
        .string(colors[next(4)]), .int([64, 128, 256, 512][next(4)]), .int(Int64(400 + next(1200))),
        next(5) == 0 ? .null : .list((0..<next(4)).map { _ in .string(tags[next(3)]) }),
      ]
    }
  }

  func counts(_ filter: String, _ records: [[Value]]) throws -> FacetCounter<[Value]>.Result {
    let source = SourceText(filter)
    let expr = try #require(Parser.parseFilter(source).value)
    let counter = try FacetCounter(
      ["color", "disk", "tags"].map(FieldPath.init), filter: expr, source: source,
      for: .dynamic(FacetCounterTests.schema))
    return counter.count(records)
  }

  /// Counts of `slot`'s values among records where `keep` is true, by brute force.
  func expected(_ records: [[Value]], slot: Int, where keep: ([Value]) -> Bool) -> [Value: Int] {
    var tally: [Value: Int] = [:]
    for record in records where keep(record) {
      if case .list(let items) = record[slot] {
        for item in Set(items) { tally[item, default: 0] += 1 }
      } else {
        tally[record[slot], default: 0] += 1
      }
    }
    return tally
  }

  @Test func eachFieldIgnoresItsOwnCondition() throws {
    let records = FacetCounterTests.records(2000)
    let result = try counts(
      "color in (Starlight, \"Space Black\") and (disk == 256 or disk == 512) and price < 1000",
      records)
    func int(_ v: Value) -> Int64 { if case .int(let i) = v { return i } else { return -1 } }
    func color(_ r: [Value]) -> Bool {
      r[0] == .string("Starlight") || r[0] == .string("Space Black")
    }
    func disk(_ r: [Value]) -> Bool { int(r[1]) == 256 || int(r[1]) == 512 }
    func price(_ r: [Value]) -> Bool { int(r[2]) < 1000 }
    let byColor = expected(records, slot: 0) { disk($0) && price($0) }
    let byDisk = expected(records, slot: 1) { color($0) && price($0) }
    let byTag = expected(records, slot: 3) { color($0) && disk($0) && price($0) }
    func tally(_ facet: FacetCounter<[Value]>.Facet) -> [Value: Int] {
      Dictionary(uniqueKeysWithValues: facet.counts.map { ($0.value, $0.count) })
    }
    #expect(tally(result.facets[0]) == byColor)
    #expect(tally(result.facets[1]) == byDisk)
    #expect(tally(result.facets[2]) == byTag)
    #expect(result.matches == records.filter { color($0) && disk($0) && price($0) }.count)
    // Other colours are counted: ticking one more is always possible.
    #expect(byColor.keys.contains(.string("Gold")))
  }

  @Test func countsAreMostFrequentFirstWithNullsLast() throws {
    let result = try counts("price > 0", FacetCounterTests.records(500))
    for facet in result.facets {
      let numbers = facet.counts.map(\.count)
      #expect(numbers == numbers.sorted(by: >) || facet.counts.last?.value == .null)
    }
    #expect(result.facets[2].counts.contains { $0.value == .null })
  }

  @Test func fieldsHoldingRecordsAndUnknownFieldsAreErrors() throws {
    let schema = Schema([.init("camera", .record(Schema([.init("mp", .int)])))])
    #expect(throws: FilterError.self) {
      try FacetCounter<[Value]>(
        [FieldPath("camera")], filter: nil, source: SourceText(""), for: .dynamic(schema))
    }
    #expect(throws: FilterError.self) {
      try FacetCounter<[Value]>(
        [FieldPath("lens")], filter: nil, source: SourceText(""), for: .dynamic(schema))
    }
  }
}
