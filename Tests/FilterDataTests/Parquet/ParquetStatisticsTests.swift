import FilterDSL
import TestSupport
import Testing

@testable import FilterData

/// Row groups ruled out by their statistics (`sorted.parquet`: thirty row groups of 50 rows,
/// ids and release dates rising): every count equals the count over the JSON Lines twin,
/// which has no statistics, and the row groups a filter's range misses are not read.
@Suite struct ParquetStatisticsTests {
  static let parquet = ParquetReaderTests.folder + "/sorted.parquet"
  static let twin = ParquetReaderTests.folder + "/sorted.jsonl"

  /// How many records match, and how many row groups were passed over.
  static func count(
    _ filter: String, types: [String: ValueType] = [:], parameters: [String: Value] = [:]
  ) throws -> (Int, Int) {
    let source = try ParquetSource(path: parquet)
    let scan = try Scan(
      query: SourceText(filter), source: source, parameterTypes: types, parameters: parameters)
    return (try scan.run(into: CountSink(to: nil)).matches, source.skippedRowGroups)
  }

  @Test func countsAreTheTwinsAndMissedRowGroupsAreNotRead() throws {
    for (filter, skipped) in [
      ("id < 75", 28), ("id <= 49", 29), ("id > 1449", 29), ("id >= 1450", 29), ("id == 700", 29),
      ("id == 700.5", 29), ("id between 100 and 149", 29), ("id in (5, 1499)", 28),
      ("released >= 2021-12-01", 28), ("released < 2020-01-26", 29), ("id != 3", 0),
      ("id < 75 or price > 1300", 0), ("id < 75 and price > 1300", 28), ("not (id < 75)", 0),
      ("price is null and id > 1400", 28), ("id is null", 30), ("id is not null", 0),
      ("screen > 100", 30), ("screen >= 6.6", 0), ("true", 0), ("false", 30),
      (#"color == "Gold" and id < 50"#, 29), ("id < 75.5", 28), ("id > -1", 0),
    ] {
      let (count, passed) = try Self.count(filter)
      let twin = try Scan(file: Self.twin, query: filter).run(into: CountSink(to: nil)).matches
      #expect(count == twin, "\(filter)")
      #expect(passed == skipped, "\(filter): \(passed) row groups passed over")
    }
  }

  @Test func parametersAreReadWhenTheScanRuns() throws {
    let types: [String: ValueType] = ["low": .int, "high": .int]
    let (count, passed) = try Self.count(
      "id < $low or id > $high", types: types, parameters: ["low": .int(10), "high": .int(1489)])
    #expect(count == 20 && passed == 28)
    // An unbound parameter is null: nothing is less than it, and nothing is ruled out by it.
    let (none, unread) = try Self.count("id < $low", types: types)
    #expect(none == 0 && unread == 0)
  }

  @Test func explainSaysWhatIsRead() throws {
    let scan = try Scan(file: Self.parquet, query: "id < 75")
    #expect(
      scan.explanation
        == "Lt(id, 75)\nparquet: reads 2 of 30 row groups (28 ruled out by their statistics)")
    #expect(
      try Scan(file: Self.parquet, query: "true").explanation.hasSuffix("reads 30 of 30 row groups")
    )
  }

  /// Random ranges over the ids, prices and dates: the counts of the twin, whatever is passed
  /// over.
  @Test func randomRangesCountAsTheTwin() throws {
    var generator = SplitMix64(seed: 2026)
    for _ in 0..<20 {
      let low = Int.random(in: -10...1510, using: &generator)
      let high = low + Int.random(in: 0...300, using: &generator)
      let price = Int.random(in: 400...1500, using: &generator)
      let filter =
        [
          "id between \(low) and \(high)", "id >= \(low) and price < \(price)",
          "id < \(low) or id > \(high)", "price >= \(price) and id in (\(low), \(high))",
          "released > 2020-01-01 and id <= \(high)",
        ].randomElement(using: &generator)!
      let twin = try Scan(file: Self.twin, query: filter).run(into: CountSink(to: nil)).matches
      #expect(try Self.count(filter).0 == twin, "\(filter)")
    }
  }
}
