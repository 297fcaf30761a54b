import FilterDSL
import TestSupport
import Testing

// The code of the DocC articles (Sources/FilterDSL/FilterDSL.docc), verbatim, so that it keeps
// compiling and stays true; `articlesQuoteOnlyThisFile` checks that every line of their code
// is here.

/// A shop's own record type.
struct Phone: Sendable {
  var model: String
  var price: Int
  var screenSize: Double
  var color: String
  var diskSpace: Int
  var inStock: Bool
}

let phoneType = RecordType<Phone>([
  .string("model") { $0.model },
  .int("price") { $0.price },
  .double("screenSize") { $0.screenSize },
  .string("color", knownValues: ["Midnight", "Starlight", "Space Black", "Gold"]) { $0.color },
  .int("diskSpace") { $0.diskSpace },
  .bool("inStock") { $0.inStock },
])

let shelf = [
  Phone(
    model: "iPhone 14", price: 799, screenSize: 6.1, color: "Midnight", diskSpace: 128,
    inStock: true),
  Phone(
    model: "iPhone 14 Plus", price: 999, screenSize: 6.7, color: "Starlight", diskSpace: 256,
    inStock: true),
  Phone(
    model: "iPhone 14 Pro", price: 1499, screenSize: 6.1, color: "Gold", diskSpace: 1024,
    inStock: false),
  Phone(
    model: "iPhone 14 Pro Max", price: 1199, screenSize: 6.7, color: "Space Black",
    diskSpace: 256, inStock: true),
]

/// What a server answers when a user's filter is too big or too costly.
enum SearchError: Error {
  case badFilter(String)
  case tooCostly(String)
}

/// A server's search: the user's filter, compiled under the untrusted limits, over its records.
func search(_ userText: String, budget: Int) throws -> [Phone] {
  let environment = FilterEnvironment(
    phoneType.withoutKnownValues(), parameters: ["budget": .int],
    limits: .untrusted, evaluationLimits: .untrusted)
  let query: CompiledQuery<Phone>
  do {
    query = try environment.compileQuery(userText)
  } catch {
    throw SearchError.badFilter(error.rendered(colored: false))
  }
  let (records, faults) = query.binding(["budget": .int(Int64(budget))]).run(shelf)
  if let limit = faults.overLimit { throw SearchError.tooCostly(limit.message) }
  return records
}

@Suite struct DocumentationTests {
  @Test func gettingStarted() throws {
    let filter = try CompiledFilter("diskSpace >= 256 and price < 1200", for: phoneType)
    let matches = filter.filter(shelf).matches
    // iPhone 14 Plus, iPhone 14 Pro Max
    #expect(matches.map(\.model) == ["iPhone 14 Plus", "iPhone 14 Pro Max"])
    #expect(shelf.filter(filter.matches).map(\.model) == matches.map(\.model))

    let cheap = try CompiledFilter("price <= $budget", for: phoneType, parameters: ["budget": .int])
    let underBudget = shelf.filter(cheap.binding(["budget": .int(1000)]).matches)
    // iPhone 14, iPhone 14 Plus
    #expect(underBudget.map(\.model) == ["iPhone 14", "iPhone 14 Plus"])

    let query = try CompiledQuery("inStock order by price desc limit 2", for: phoneType)
    let top = query.run(shelf).records
    // iPhone 14 Pro Max, iPhone 14 Plus
    #expect(top.map(\.model) == ["iPhone 14 Pro Max", "iPhone 14 Plus"])

    do {
      _ = try CompiledFilter("colr == Gold", for: phoneType)
    } catch {
      print(error.rendered(colored: false))
      // error[FLT301]: unknown field 'colr'
      //  --> <filter>:1:1
      //   |
      // 1 | colr == Gold
      //   | ^^^^ not a field of the data
      //   = help: did you mean 'color'?
      #expect(error.diagnostics.map(\.code) == [.unknownField])
      #expect(error.rendered(colored: false).contains("did you mean 'color'?"))
    }
  }

  @Test func untrustedFilters() throws {
    #expect(
      try search("price <= $budget and color == Gold", budget: 2000).map(\.model) == [
        "iPhone 14 Pro"
      ])
    // A field outside the allow-list is an error, and no value of the data is suggested.
    #expect(throws: SearchError.self) { try search("colr == Gold", budget: 2000) }
    do {
      _ = try search("color == Gld", budget: 2000)
    } catch {
      Issue.record("a value the data may not have is no error")
    }
    // Too deep, or too costly, before anything runs.
    let deep = String(repeating: "(", count: 200) + "price > 1" + String(repeating: ")", count: 200)
    #expect(throws: SearchError.self) { try search(deep, budget: 1) }
    let costly = #"model matches "(a|b|c|d|e|f|g|h){400}""#
    #expect(throws: SearchError.self) { try search(costly, budget: 1) }
  }

  @Test func multiSelectFacets() throws {
    var requirement = Requirement([
      .values("diskSpace", [.int(128), .int(256), .int(1024)]),
      .values("color", [.string("Midnight"), .string("Starlight"), .string("Space Black")]),
    ])
    try requirement.set("diskSpace", "256", on: true)
    try requirement.set("diskSpace", "1024", on: true)
    try requirement.set("color", "Space Black", on: true)
    // (diskSpace == 256 or diskSpace == 1024) and color == "Space Black"
    #expect(
      requirement.text == #"(diskSpace == 256 or diskSpace == 1024) and color == "Space Black""#)

    let source = SourceText(requirement.text)
    let facets = try FacetCounter(
      [FieldPath("diskSpace"), FieldPath("color")], filter: requirement.filter, source: source,
      for: phoneType)
    let result = facets.count(shelf)
    for facet in result.facets {
      print(facet.field, facet.counts.map { "\($0.value): \($0.count)" })
    }
    // diskSpace ["256: 1"]
    // color ["Gold: 1", "Space Black: 1", "Starlight: 1"]
    print(result.matches)  // 1
    #expect(result.matches == 1)
    #expect(result.facets[0].counts.map(\.count) == [1])
    #expect(
      result.facets[1].counts.map(\.value)
        == [.string("Gold"), .string("Space Black"), .string("Starlight")])

    do {
      try requirement.set("color", "starlight", on: true)
    } catch {
      print(error)  // no toggle 'starlight' in 'color'; did you mean 'Starlight'?
      #expect(error.description == "no toggle 'starlight' in 'color'; did you mean 'Starlight'?")
    }
  }

  /// Every line of code in the articles is a line of this file (spaces aside), so the
  /// articles show only code that compiles and is checked here.
  @Test func articlesQuoteOnlyThisFile() throws {
    let code = try ArticleCode.lines(of: "Sources/FilterDSL/FilterDSL.docc", missingFrom: #filePath)
    #expect(code.missing == [])
    #expect(code.quoted > 40)
  }
}
