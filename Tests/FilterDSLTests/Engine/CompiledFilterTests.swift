import FilterDSL
import Foundation
import Testing

/// The embedding API over typed Swift values, as the README shows it.
@Suite struct CompiledFilterTests {
  struct Phone: Sendable {
    var model: String
    var price: Int
    var screenSize: Double
    var processor: String
    var memory: Int
    var diskSpace: Int
    var color: String
    var nickname: String?
  }

  static let catalog = [
    Phone(
      model: "iPhone 14", price: 799, screenSize: 6.1, processor: "A15 Bionic", memory: 6,
      diskSpace: 128, color: "Midnight"),
    Phone(
      model: "iPhone 14 Plus", price: 899, screenSize: 6.7, processor: "A15 Bionic", memory: 6,
      diskSpace: 256, color: "Starlight"),
    Phone(
      model: "iPhone 14 Pro", price: 999, screenSize: 6.1, processor: "A16 Bionic", memory: 6,
      diskSpace: 512, color: "Space Black", nickname: "pro"),
    Phone(
      model: "iPhone 14 Pro Max", price: 1299, screenSize: 6.7, processor: "A16 Bionic", memory: 6,
      diskSpace: 256, color: "Space Black"),
    Phone(
      model: "iPhone SE", price: 429, screenSize: 4.7, processor: "A15 Bionic", memory: 4,
      diskSpace: 64, color: "Starlight"),
  ]

  static let phones = RecordType<Phone>([
    .string("model") { $0.model },
    .int("price") { $0.price },
    .double("screenSize") { $0.screenSize },
    .string("processor") { $0.processor },
    .int("memory") { $0.memory },
    .int("diskSpace") { $0.diskSpace },
    .string("color", knownValues: ["Midnight", "Starlight", "Space Black"]) { $0.color },
    .string("nickname", optional: true) { $0.nickname },
  ])

  /// Money as exact decimals: Foundation's `Decimal` through its text.
  @Test func exactDecimalFields() throws {
    struct Item: Sendable {
      var name: String
      var price: Decimal
    }
    let items = ["2.55", "0.30", "2.5"].enumerated().map { index, text in
      Item(name: "\(index)", price: Decimal(string: text) ?? 0)
    }
    let type = RecordType<Item>([
      .string("name") { $0.name }, .decimal("price") { ExactDecimal("\($0.price)") },
    ])
    let filter = try CompiledFilter("price - 0.55 == 2.00 or price == 0.1 + 0.2", for: type)
    #expect(items.filter(filter.matches).map(\.name) == ["0", "1"])
    #expect(try CompiledFilter("price * 2 == 5.10", for: type).matches(items[0]))
    #expect(try CompiledFilter("price > 2.5e0", for: type).matches(items[0]))
  }

  @Test func keyPathFields() throws {
    let byKeyPath = RecordType<Phone>([
      .string("model", \.model), .int("price", \.price), .double("screenSize", \.screenSize),
      .string("color", \.color),
    ])
    let filter = try CompiledFilter(
      "price < 900 and screenSize > 6 and color != Midnight", for: byKeyPath)
    #expect(CompiledFilterTests.catalog.filter(filter.matches).map(\.model) == ["iPhone 14 Plus"])
  }

  @Test func designExample() throws {
    let filter = try CompiledFilter(
      #"color in (Starlight, "Space Black") and diskSpace >= 256"#, for: CompiledFilterTests.phones)
    #expect(
      CompiledFilterTests.catalog.filter(filter.matches).map(\.model) == [
        "iPhone 14 Plus", "iPhone 14 Pro", "iPhone 14 Pro Max",
      ])
    #expect(
      filter.plan.description == "And(In(color, {Starlight, Space Black}), Ge(diskSpace, 256))")
  }

  @Test func multiSelectFromTheBrief() throws {
    let filter = try CompiledFilter(
      #"diskSpace in (256, 512) and color in (Starlight, "Space Black") and price == 1299"#,
      for: CompiledFilterTests.phones)
    #expect(
      CompiledFilterTests.catalog.filter(filter.matches).map(\.model) == ["iPhone 14 Pro Max"])
  }

  @Test func parametersAreBoundAtEvaluation() throws {
    let filter = try CompiledFilter(
      "price <= $budget", for: CompiledFilterTests.phones, parameters: ["budget": .int])
    #expect(
      CompiledFilterTests.catalog.filter(filter.binding(["budget": .int(900)]).matches).count == 3)
    #expect(
      CompiledFilterTests.catalog.filter(filter.binding(["budget": .int(500)]).matches).count == 1)
    #expect(
      CompiledFilterTests.catalog.filter(filter.matches).isEmpty, "unbound parameters are null")
  }

  @Test func nullsFollowThreeValuedLogic() throws {
    let filter = try CompiledFilter("nickname != pro", for: CompiledFilterTests.phones)
    #expect(
      CompiledFilterTests.catalog.filter(filter.matches).isEmpty,
      "a missing nickname is unknown, not different")
    let missing = try CompiledFilter("nickname is null", for: CompiledFilterTests.phones)
    #expect(CompiledFilterTests.catalog.filter(missing.matches).count == 4)
  }

  @Test func faultsAreCountedNotFatal() throws {
    let filter = try CompiledFilter(
      "price * 9223372036854775807 > 0 or price / (memory - 6) < 0", for: CompiledFilterTests.phones
    )
    let (matches, faults) = filter.filter(CompiledFilterTests.catalog)
    #expect(matches.map(\.model) == ["iPhone SE"])
    #expect(faults[.integerOverflow] == 5)
    #expect(faults[.divisionByZero] == 4)
  }

  @Test func embedderFunctions() throws {
    let discount = FunctionDefinition(
      name: "discounted", arity: 2...2,
      resultType: { types in
        types.allSatisfy(\.isNumeric)
          ? .success(.int) : .failure(TypeRuleError("discounted takes two numbers"))
      },
      evaluate: { args, _ in
        guard case .int(let price) = args[0], case .int(let percent) = args[1] else {
          return .success(.null)
        }
        return .success(.int(price - price * percent / 100))
      })
    let functions = FunctionRegistry.builtins.adding(discount)
    let filter = try CompiledFilter(
      "discounted(price, 20) < 720", for: CompiledFilterTests.phones, functions: functions)
    #expect(CompiledFilterTests.catalog.filter(filter.matches).map(\.price) == [799, 429])
    do {
      _ = try CompiledFilter(
        "discounted(model, 20) < 720", for: CompiledFilterTests.phones, functions: functions)
      Issue.record("expected a type error")
    } catch {
      #expect(error.diagnostics.map(\.message) == ["discounted takes two numbers"])
    }
    #expect(throws: FilterError.self) {
      try CompiledFilter("discounted(price, 20) < 720", for: CompiledFilterTests.phones)
    }
  }

  @Test func warningsAreKept() throws {
    let filter = try CompiledFilter("color == Midnigth", for: CompiledFilterTests.phones)
    #expect(filter.warnings.map(\.message) == ["no record has color 'Midnigth'"])
    #expect(filter.warnings.first?.help == #"did you mean "Midnight"?"#)
    #expect(
      try CompiledFilter("color == Midnight", for: CompiledFilterTests.phones).warnings.isEmpty)
  }

  @Test func errorsCarryEveryDiagnostic() {
    do {
      _ = try CompiledFilter("colr == Gold and price > \"cheap\"", for: CompiledFilterTests.phones)
      Issue.record("expected an error")
    } catch {
      #expect(error.diagnostics.map(\.code.description) == ["FLT301", "FLT305"])
      #expect(error.description.contains("did you mean 'color'?"))
    }
  }

  @Test(arguments: [
    ("price > 900 or screenSize < 5", "Or(Gt(price, 900), Lt(screenSize, 5))"),
    ("not (model contains[c] pro)", "Not(Contains[c](model, pro))"),
    ("price between 500 and 1000", "Between(price, 500, 1000)"),
    (
      "diskSpace in 128...512 and nickname is not null",
      "And(In(diskSpace, 128...512), IsNotNull(nickname))"
    ),
    (
      "model like \"iPhone*\" and color not in (Gold)",
      "And(Like(model, iPhone*), NotIn(color, {Gold}))"
    ),
  ])
  func explain(filter: String, plan: String) throws {
    #expect(try CompiledFilter(filter, for: CompiledFilterTests.phones).plan.description == plan)
  }

  @Test func oneCompiledFilterServesManyThreads() async throws {
    let filter = try CompiledFilter(
      "price < 1000 and color != Midnight", for: CompiledFilterTests.phones)
    let counts = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          (0..<1000).reduce(0) { total, _ in
            total + CompiledFilterTests.catalog.filter(filter.matches).count
          }
        }
      }
      return await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(counts == Array(repeating: 3000, count: 8))
  }
}
