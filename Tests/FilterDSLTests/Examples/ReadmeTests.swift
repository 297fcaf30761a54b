import FilterDSL
import Testing

// The embedding example of the README, verbatim, so that it keeps compiling and stays true.

/// Every field a filter mentions.
func fields(_ expr: Expr) -> Set<String> {
  switch expr.kind {
  case .field(let path): [path.dotted]
  case .exists(let path): [path.dotted]
  case .literal, .parameter: []
  case .list(let items), .logical(_, let items), .call(_, let items):
    items.reduce([]) { $0.union(fields($1)) }
  case .range(let a, let b, _), .arithmetic(_, let a, let b):
    fields(a).union(fields(b))
  case .negate(let e), .not(let e): fields(e)
  case .filtered(let list, _): fields(list)  // the filter reads the elements' fields
  case .predicate(let subject, let condition), .quantified(_, let subject, let condition):
    fields(subject).union(fields(condition))
  }
}

func fields(_ condition: Condition) -> Set<String> {
  switch condition.kind {
  case .compare(_, let operand, _), .text(_, let operand, _, _), .member(let operand, _, _),
    .same(let operand, _):
    fields(operand)
  case .between(let lower, let upper, _, _): fields(lower).union(fields(upper))
  case .isNull, .isEmpty, .satisfies: []
  }
}

@Suite struct ReadmeTests {
  @Test func fieldsExample() throws {
    #expect(
      fields(try Parser.parseFilter("price * 2 < `budget` and any tags == 5G").get()) == [
        "price", "budget", "tags",
      ])
  }

  @Test func parseExample() throws {
    let result = Parser.parseFilter(#"color in (Starlight, "Space Black") and diskSpace >= 256"#)
    #expect(!result.hasErrors)
    #expect(
      result.value?.description == #"color in ("Starlight", "Space Black") and diskSpace >= 256"#)
    #expect(
      result.value?.debugDescription
        == #"(and (in color (list "Starlight" "Space Black")) (>= diskSpace 256))"#)
    let query = try Parser.parseQuery("price < 1000 order by price desc limit 5").get()
    #expect(query.limit == Expr(.literal(.int(5))))
  }
}

/// The README's compile-once example, through the public API only.
@Suite struct ReadmeEngineTests {
  struct Phone {
    var model: String
    var price: Int
    var screenSize: Double
    var processor: String
    var memory: Int
    var diskSpace: Int
    var color: String
  }

  @Test func compileOnceEvaluateMany() throws {
    let phones = RecordType<Phone>([
      .string("model") { $0.model },
      .int("price") { $0.price },
      .double("screenSize") { $0.screenSize },
      .string("processor") { $0.processor },
      .int("memory") { $0.memory },
      .int("diskSpace") { $0.diskSpace },
      .string("color", knownValues: ["Midnight", "Starlight", "Space Black"]) { $0.color },
    ])
    let catalog = [
      Phone(
        model: "iPhone 14", price: 799, screenSize: 6.1, processor: "A15 Bionic", memory: 6,
        diskSpace: 128, color: "Midnight"),
      Phone(
        model: "iPhone 14 Plus", price: 899, screenSize: 6.7, processor: "A15 Bionic", memory: 6,
        diskSpace: 256, color: "Starlight"),
      Phone(
        model: "iPhone 14 Pro Max", price: 1299, screenSize: 6.7, processor: "A16 Bionic",
        memory: 6, diskSpace: 256, color: "Space Black"),
    ]
    let filter = try CompiledFilter(
      #"color in (Starlight, "Space Black") and diskSpace >= 256"#, for: phones)
    #expect(catalog.filter(filter.matches).map(\.model) == ["iPhone 14 Plus", "iPhone 14 Pro Max"])
    #expect(filter.filter(catalog).matches.map(\.model) == ["iPhone 14 Plus", "iPhone 14 Pro Max"])
    #expect(
      filter.plan.description == "And(In(color, {Starlight, Space Black}), Ge(diskSpace, 256))")
    let cheap = try CompiledFilter("price <= $budget", for: phones, parameters: ["budget": .int])
    #expect(catalog.filter(cheap.binding(["budget": .int(900)]).matches).count == 2)
    let top = try CompiledQuery("screenSize > 6 order by price desc limit 1", for: phones)
    #expect(top.run(catalog).records.map(\.model) == ["iPhone 14 Pro Max"])
    let stats = try FilterEnvironment(phones)
      .compileStats("count(), mean(price), max(price) by color where diskSpace >= 256")
    #expect(
      stats.run(catalog).rows == [
        [.string("Space Black"), .int(1), .double(1299), .int(1299)],
        [.string("Starlight"), .int(1), .double(899), .int(899)],
      ])
  }

  @Test func multiSelect() throws {
    var requirement = Requirement([
      .values("diskSpace", [.int(128), .int(256), .int(512)]),
      .values("color", [.string("Midnight"), .string("Starlight"), .string("Space Black")]),
      .values("price", [.int(799), .int(1299)]),
    ])
    try requirement.set("diskSpace", "256", on: true)
    try requirement.set("diskSpace", "512", on: true)
    try requirement.set("color", "Starlight", on: true)
    try requirement.set("color", "Space Black", on: true)
    try requirement.set("price", "1299", on: true)
    #expect(
      requirement.text
        == #"(diskSpace == 256 or diskSpace == 512) and (color == "Starlight" or color == "Space Black") and price == 1299"#
    )
  }
}

/// The README's example of records held by column, verbatim.
@Suite struct ReadmeColumnTests {
  @Test func columnTableExample() throws {
    let schema = Schema([.init("color", .string), .init("diskSpace", .int), .init("price", .int)])
    var builder = ColumnBuilder()
    builder.append([.string("Starlight"), .int(256), .int(999)])
    builder.append([.string("Midnight"), .int(128), .int(799)])
    builder.append([.string("Starlight"), .int(512), .int(1299)])
    let table = builder.finish(schema)

    let filter = try CompiledFilter(
      #"color in (Starlight, "Space Black") and diskSpace >= 256"#, for: table.recordType)
    let rows = filter.filter(table.rows).matches  // [0, 2]: row numbers, in order
    let row = table.row(rows[0])  // [.string("Starlight"), .int(256), .int(999)]
    #expect(rows == [0, 2])
    #expect(row == [.string("Starlight"), .int(256), .int(999)])
  }
}
