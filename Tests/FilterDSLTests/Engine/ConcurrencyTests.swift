import Dispatch
import FilterDSL
import Testing

/// One compiled query shared by many threads, each with its own parameter values (a server
/// answering requests at once): every thread gets the answer a single-threaded run gives.
/// Run under ThreadSanitizer in CI.
@Suite struct ConcurrencyTests {
  static let records = Array(repeating: CompiledFilterTests.catalog, count: 400).flatMap { $0 }

  /// Results of `work(i)` for i in 0..<count, each computed on its own thread.
  static func onThreads<T: Sendable>(_ count: Int, _ work: @Sendable (Int) -> T) -> [T] {
    let results = Results<T>(count)
    DispatchQueue.concurrentPerform(iterations: count) { results.set($0, work($0)) }
    return results.values
  }

  /// One slot per thread, each written by its own thread only.
  final class Results<T>: @unchecked Sendable {
    private var slots: UnsafeMutableBufferPointer<T?>
    init(_ count: Int) {
      slots = .allocate(capacity: count)
      slots.initialize(repeating: nil)
    }
    deinit { slots.deallocate() }
    func set(_ index: Int, _ value: T) { slots[index] = value }
    var values: [T] { slots.compactMap { $0 } }
  }

  @Test func oneQueryManyThreadsManyBindings() throws {
    let env = FilterEnvironment(
      CompiledFilterTests.phones, parameters: ["budget": .int, "color": .string],
      evaluationLimits: EvaluationLimits(maxCostPerQuery: 10_000_000))
    let query = try env.compileQuery(
      "price <= $budget and (color == $color or model contains \"Pro\") order by price desc, model limit 7"
    )
    let colors = ["Midnight", "Starlight", "Space Black", "Gold"]
    let bindings: [[String: Value]] = (0..<64).map { i in
      ["budget": .int(Int64(400 + 60 * i)), "color": .string(colors[i % colors.count])]
    }
    let expected = bindings.map { query.binding($0).run(Self.records).records.map(\.model) }
    let filter = try #require(query.filter)
    let expectedCounts = bindings.map { filter.binding($0).filter(Self.records).matches.count }
    #expect(Set(expectedCounts).count > 3 && Set(expected).count > 3)
    let results = Self.onThreads(bindings.count) { i in
      (
        query.binding(bindings[i]).run(Self.records).records.map(\.model),
        filter.binding(bindings[i]).filter(Self.records).matches.count
      )
    }
    #expect(results.count == bindings.count)
    for (i, result) in results.enumerated() {
      #expect(result.0 == expected[i], "binding \(i)")
      #expect(result.1 == expectedCounts[i], "binding \(i)")
    }
  }

  @Test func facetCountsOnManyThreads() throws {
    let counter = try FacetCounter(
      [FieldPath("color"), FieldPath("diskSpace")],
      filter: Parser.parseFilter(SourceText("price < $budget")).get(),
      source: SourceText("price < $budget"), for: CompiledFilterTests.phones,
      parameters: ["budget": .int])
    let budgets = (0..<32).map { Int64(400 + 30 * $0) }
    let expected = budgets.map { counter.binding(["budget": .int($0)]).count(Self.records) }
    let results = Self.onThreads(budgets.count) { i in
      counter.binding(["budget": .int(budgets[i])]).count(Self.records)
    }
    for (i, result) in results.enumerated() {
      #expect(result.matches == expected[i].matches, "budget \(budgets[i])")
      #expect(result.facets == expected[i].facets, "budget \(budgets[i])")
    }
  }
}
