import FilterDSL
import Testing

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
    ("order by price", ["b", "e", "c", "f", "a", "d"]),
    ("order by price asc", ["b", "e", "c", "f", "a", "d"]),
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

  @Test func nothingSelectedConstrainsNothing() {
    #expect(MultiSelectTests.catalog().filter == nil)
    #expect(MultiSelectTests.catalog().text == "")
  }

  @Test func theBriefsSelection() throws {
    var requirement = MultiSelectTests.catalog()
    requirement.set("diskSpace", "256", on: true)
    requirement.set("diskSpace", "512", on: true)
    requirement.set("color", "\"Starlight\"", on: true)
    requirement.set("color", "\"Space Black\"", on: true)
    requirement.set("price", "1299", on: true)
    #expect(
      requirement.text
        == #"(diskSpace == 256 or diskSpace == 512) and (color == "Starlight" or color == "Space Black") and price == 1299"#
    )
    let reparsed = try Parser.parseFilter(requirement.text).get()
    #expect(reparsed == requirement.filter)
  }

  @Test func aSetWithEveryToggleOnDoesNotConstrain() {
    var requirement = MultiSelectTests.catalog()
    for size in ["128", "256", "512"] { requirement.set("diskSpace", size, on: true) }
    requirement.set("price", "799", on: true)
    #expect(requirement.text == "price == 799")
  }

  @Test func filtersPhones() throws {
    var requirement = MultiSelectTests.catalog()
    requirement.set("color", "\"Starlight\"", on: true)
    requirement.set("color", "\"Space Black\"", on: true)
    requirement.set("diskSpace", "256", on: true)
    requirement.set("diskSpace", "512", on: true)
    let filter = try CompiledFilter(requirement.text, for: CompiledFilterTests.phones)
    #expect(
      CompiledFilterTests.catalog.filter(filter.matches).map(\.model) == [
        "iPhone 14 Plus", "iPhone 14 Pro", "iPhone 14 Pro Max",
      ])
  }
}
