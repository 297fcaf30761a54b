import FilterDSL
import Testing

/// The engine's long loops ask their `until` closure now and then and return early, with a
/// partial result, once it says stop (how Ctrl-C stops a statement at the REPL).
@Suite struct StoppingTests {
  static let records = Array(
    repeating: CompiledFilterTests.catalog, count: 5_000
  ).flatMap { $0 }

  /// A stop that says true from its second question on.
  final class SecondAsk {
    var asked = 0
    func stop() -> Bool {
      asked += 1
      return asked > 1
    }
  }

  @Test(arguments: ["price > 0", "lower(model) contains \"iphone\""])
  func filtersStopPartWay(filter text: String) throws {
    let filter = try CompiledFilter(text, for: CompiledFilterTests.phones)
    let all = StoppingTests.records.count
    #expect(filter.filter(StoppingTests.records).matches.count == all)
    let stop = SecondAsk()
    let partial = filter.filter(StoppingTests.records, until: stop.stop).matches.count
    #expect(partial > 0 && partial < all)
    #expect(stop.asked == 2)
    let sequence = filter.filter(StoppingTests.records[...], until: SecondAsk().stop)
    #expect(sequence.matches.count > 0 && sequence.matches.count < all)
  }

  @Test func queriesStopPartWay() throws {
    // Sorted, filtered as a batch, and streamed (a limit and no order).
    let queries = ["price > 0 order by price", "price > 0", "price > 0 limit 100000"]
    for text in queries {
      let query = try CompiledQuery(text, for: CompiledFilterTests.phones)
      #expect(query.run(StoppingTests.records).records.count == StoppingTests.records.count)
      #expect(query.run(StoppingTests.records, until: SecondAsk().stop).records.isEmpty, "\(text)")
    }
  }

  @Test func facetsStopPartWay() throws {
    let counter = try FacetCounter(
      [FieldPath("color")], filter: nil, source: SourceText(""), for: CompiledFilterTests.phones)
    let all = StoppingTests.records.count
    #expect(counter.count(StoppingTests.records).facets[0].records == all)
    let partial = counter.count(StoppingTests.records, until: SecondAsk().stop).facets[0].records
    #expect(partial > 0 && partial < all)
  }
}
