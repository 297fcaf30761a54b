import FilterDSL
import Testing

/// The front door: one environment value checks, compiles and counts.
@Suite struct FilterEnvironmentTests {
  struct Item: Sendable {
    var name: String
    var price: Int
  }

  static let items = [
    Item(name: "a", price: 5), Item(name: "b", price: 1), Item(name: "c", price: 3),
  ]
  static let env = FilterEnvironment(
    RecordType<Item>([.string("name") { $0.name }, .int("price") { $0.price }]),
    parameters: ["most": .int])

  @Test func checkingNeverThrowsAndKeepsEveryDiagnostic() {
    let syntax = FilterEnvironmentTests.env.check(SourceText("price >"))
    #expect(syntax.tree == nil && syntax.diagnostics.map(\.code) == [.expectedExpression])
    let semantic = FilterEnvironmentTests.env.check(SourceText("prize > 1 order by nam"))
    #expect(semantic.tree == nil)
    #expect(semantic.diagnostics.map(\.code) == [.unknownField, .unknownField])
    let good = FilterEnvironmentTests.env.check(SourceText("price <= $most order by name desc"))
    #expect(good.tree?.ordering.count == 1 && good.diagnostics.isEmpty)
  }

  @Test func compilingGivesTheSameEngineAsTheShorthands() throws {
    let env = FilterEnvironmentTests.env
    let query = try env.compileQuery("price <= $most order by price").binding(["most": .int(4)])
    #expect(query.run(FilterEnvironmentTests.items).records.map(\.name) == ["b", "c"])
    let filter = try env.compileFilter("name != b")
    #expect(FilterEnvironmentTests.items.filter(filter.matches).map(\.name) == ["a", "c"])
    let shorthand = try CompiledFilter(
      "name != b", for: env.recordType, parameters: env.parameters)
    #expect(shorthand.plan == filter.plan)
    #expect(throws: FilterError.self) { try env.compileFilter("$least > 1") }
  }

  @Test func facetsComeFromTheEnvironmentToo() throws {
    let source = SourceText("price > 1")
    let filter = try Parser.parseFilter(source).get()
    let counter = try FilterEnvironmentTests.env.facets(
      [FieldPath("name")], filter: filter, source: source)
    let result = counter.count(FilterEnvironmentTests.items)
    #expect(result.matches == 2)
    #expect(result.facets[0].counts.map(\.value) == [.string("a"), .string("c")])
  }
}
