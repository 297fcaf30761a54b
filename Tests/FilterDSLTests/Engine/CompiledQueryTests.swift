import TestSupport
import Testing

@testable import FilterDSL

/// Queries: stable multi-key sorts, SQL's null placement, offset and limit after sorting.
@Suite struct CompiledQueryTests {
  struct Item: Sendable {
    var name: String
    var price: Int?
    var size: Double
  }

  static let items = [
    Item(name: "a", price: 3, size: 1), Item(name: "b", price: nil, size: 2),
    Item(name: "c", price: 1, size: 2),
    Item(name: "d", price: 3, size: 1), Item(name: "e", price: nil, size: 1),
    Item(name: "f", price: 2, size: 3),
  ]

  static let type = RecordType<Item>([
    .string("name") { $0.name }, .int("price", optional: true) { $0.price },
    .double("size") { $0.size },
  ])

  static func names(_ text: String, parameters: [String: Value] = [:]) throws -> [String] {
    let query = try CompiledQuery(text, for: type, parameters: parameters.mapValues { _ in .int })
    return query.binding(parameters).run(items).records.map(\.name)
  }

  @Test(arguments: [
    // Nulls last unless said, ascending or descending (as DuckDB and pandas).
    ("order by price", ["c", "f", "a", "d", "b", "e"]),
    ("order by price asc", ["c", "f", "a", "d", "b", "e"]),
    ("order by price nulls first", ["b", "e", "c", "f", "a", "d"]),
    ("order by price desc", ["a", "d", "f", "c", "b", "e"]),
    ("order by price nulls last", ["c", "f", "a", "d", "b", "e"]),
    ("order by price desc nulls first", ["b", "e", "a", "d", "f", "c"]),
    ("order by size, price desc", ["a", "d", "e", "c", "b", "f"]),
    ("order by size desc, name desc", ["f", "c", "b", "e", "d", "a"]),
    ("size < 3 order by price desc limit 2", ["a", "d"]),
    ("order by price desc limit 2 offset 1", ["d", "f"]),
    ("limit 2", ["a", "b"]),
    ("offset 4", ["e", "f"]),
    ("offset 10", []),
    ("size == 1 limit 0", []),
    ("size == 1", ["a", "d", "e"]),
    ("order by -size, name", ["f", "b", "c", "a", "d", "e"]),
  ])
  func sorting(query: String, expected: [String]) throws {
    #expect(try CompiledQueryTests.names(query) == expected, "\(query)")
  }

  @Test func limitsFromParameters() throws {
    #expect(
      try CompiledQueryTests.names(
        "order by name limit $n offset $m", parameters: ["n": .int(2), "m": .int(1)]) == ["b", "c"])
    #expect(
      try CompiledQueryTests.names("order by name limit $n", parameters: ["n": .int(-3)]) == [])
  }

  @Test func explain() throws {
    let query = try CompiledQuery(
      "size < 3 order by price desc nulls first, name limit 2 offset $n",
      for: CompiledQueryTests.type, parameters: ["n": .int])
    #expect(
      query.plan.description
        == "Limit(2, Offset($n, Sort(price desc nulls first, name, Lt(size, 3))))")
    #expect(
      try CompiledQuery("limit 1", for: CompiledQueryTests.type).plan.description
        == "Limit(1, All())")
  }

  @Test func queryErrors() {
    #expect(throws: FilterError.self) {
      try CompiledQuery("order by nme", for: CompiledQueryTests.type)
    }
    #expect(throws: FilterError.self) {
      try CompiledQuery("limit \"x\"", for: CompiledQueryTests.type)
    }
  }
}

/// The multi-select shape from the brief: toggles, sets, a requirement.
@Suite struct MultiSelectTests {
  static func catalog() -> Requirement {
    Requirement([
      .values("diskSpace", [.int(128), .int(256), .int(512)]),
      .values("color", [.string("Midnight"), .string("Starlight"), .string("Space Black")]),
      .values("price", [.int(799), .int(1299)]),
    ])
  }

  @Test func nothingSelectedConstrainsNothingAndStillCompiles() throws {
    let requirement = MultiSelectTests.catalog()
    #expect(requirement.filter == nil)
    #expect(requirement.text == "true")
    let filter = try CompiledFilter(requirement.text, for: CompiledFilterTests.phones)
    #expect(
      CompiledFilterTests.catalog.filter(filter.matches).count
        == CompiledFilterTests.catalog.count)
  }

  @Test func theBriefsSelection() throws {
    var requirement = MultiSelectTests.catalog()
    try requirement.set("diskSpace", "256", on: true)
    try requirement.set("diskSpace", "512", on: true)
    try requirement.set("color", "Starlight", on: true)
    try requirement.set("color", "Space Black", on: true)
    try requirement.set("price", "1299", on: true)
    #expect(
      requirement.text
        == #"(diskSpace == 256 or diskSpace == 512) and (color == "Starlight" or color == "Space Black") and price == 1299"#
    )
    let reparsed = try Parser.parseFilter(requirement.text).get()
    #expect(reparsed == requirement.filter)
  }

  @Test func everyToggleOnConstrainsUnlessTheSetCoversEveryValue() throws {
    // The catalog's phones come in more colours than these three: a Gold phone must not come
    // back when the shopper ticked all three.
    var requirement = MultiSelectTests.catalog()
    for color in ["Midnight", "Starlight", "Space Black"] {
      try requirement.set("color", color, on: true)
    }
    #expect(
      requirement.text
        == #"color == "Midnight" or color == "Starlight" or color == "Space Black""#)
    let filter = try CompiledFilter(requirement.text, for: CompiledFilterTests.phones)
    #expect(!CompiledFilterTests.catalog.filter(filter.matches).contains { $0.color == "Gold" })
    // A set that lists every value says so, and then all on means any.
    var sizes = ToggleSet.values(
      "diskSpace", [.int(128), .int(256), .int(512)], coversEveryValue: true)
    for size in ["128", "256", "512"] { try sizes.set(size, on: true) }
    #expect(sizes.filter == nil)
    try sizes.set("512", on: false)
    #expect(sizes.filter?.description == "diskSpace == 128 or diskSpace == 256")
  }

  @Test func unknownNamesAreErrorsWithSuggestions() throws {
    var requirement = MultiSelectTests.catalog()
    #expect(throws: MultiSelectError.self) { try requirement.set("color", "starlight", on: true) }
    do {
      try requirement.set("color", "starlight", on: true)
    } catch {
      #expect(error.description == "no toggle 'starlight' in 'color'; did you mean 'Starlight'?")
    }
    do {
      try requirement.set("colour", "Starlight", on: true)
    } catch {
      #expect(error.description == "no set 'colour'; did you mean 'color'?")
    }
    do {
      try requirement.set("price", "5", on: true)
    } catch {
      #expect(error.description == "no toggle '5' in 'price'; the toggles are '799', '1299'")
    }
    #expect(requirement == MultiSelectTests.catalog())
  }

  @Test func filtersPhones() throws {
    var requirement = MultiSelectTests.catalog()
    try requirement.set("color", "Starlight", on: true)
    try requirement.set("color", "Space Black", on: true)
    try requirement.set("diskSpace", "256", on: true)
    try requirement.set("diskSpace", "512", on: true)
    let filter = try CompiledFilter(requirement.text, for: CompiledFilterTests.phones)
    #expect(
      CompiledFilterTests.catalog.filter(filter.matches).map(\.model) == [
        "iPhone 14 Plus", "iPhone 14 Pro", "iPhone 14 Pro Max",
      ])
  }

  @Test func theFirstFewAreTheFirstOfTheWholeSort() {
    // A limit keeps a bounded heap instead of sorting everything: same records, same order,
    // ties and nulls included.
    var rng = SplitMix64(seed: 7)
    for round in 0..<200 {
      let count = rng.int(0...300)
      let width = rng.int(1...2)
      let values: [Value] = (0..<(count * width)).map { _ in
        rng.chance(0.1) ? .null : rng.chance(0.5) ? .int(Int64(rng.int(0...20))) : .double(2.5)
      }
      let keys = (0..<width).map { _ in (descending: rng.chance(0.5), nullsFirst: rng.chance(0.5)) }
      let whole = SortOrder.order(values, keys: keys, count: count)
      for first in [0, 1, 3, rng.int(0...count), count, count + 5] {
        let top = SortOrder.order(values, keys: keys, count: count, first: first)
        #expect(top == Array(whole.prefix(first)), "round \(round), first \(first)")
      }
    }
  }
}
