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
      ("screen > 100", 30), ("screen >= 6.6", 0), ("true", 0),
      // (A constant filter is counted from the footer: no row group is looked at.)
      ("false", 0),
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

  /// Pages ruled out by the page index (`paged.parquet`: one row group of 12,000 rows in small
  /// pages, with a page index; `paged-noindex.parquet`, the same without one): the counts and
  /// the records of the file read whole, fewer bytes read, the pages passed over said.
  @Test func pagesTheIndexRulesOutAreNotRead() throws {
    let (paged, whole) = (
      ParquetReaderTests.folder + "/paged.parquet",
      ParquetReaderTests.folder + "/paged-noindex.parquet"
    )
    func run(_ path: String, _ filter: String) throws -> (Int, ParquetSource) {
      let source = try ParquetSource(path: path)
      return (
        try Scan(query: SourceText(filter), source: source).run(into: CountSink(to: nil)).matches,
        source
      )
    }
    var generator = SplitMix64(seed: 7)
    var filters = [
      "id < 500", "id between 3000 and 3100 or id > 11900",
      "released >= 2023-01-01 and price < 700",
      #"color == "Gold" and id < 2000"#, "not (id < 11000)", "id > 20000",
      "price is null and id < 900",
      "screen > 6 and id >= 6000 and id < 6100", "id < 100 or price > 1390",
    ]
    for _ in 0..<10 {
      let low = Int.random(in: -10...12_010, using: &generator)
      let high = low + Int.random(in: 0...800, using: &generator)
      filters.append(
        [
          "id between \(low) and \(high)", "id >= \(low) and price < \(low % 1400)",
          "id < \(low) or id > \(high)", "released <= 2020-02-01 or id in (\(low), \(high))",
        ].randomElement(using: &generator)!)
    }
    var skipped = 0
    for filter in filters {
      let (count, source) = try run(paged, filter)
      #expect(count == (try run(whole, filter).0), "\(filter)")
      skipped += source.skippedPages
    }
    #expect(skipped > 100)
    let (_, selective) = try run(paged, "id < 500")
    let (_, all) = try run(paged, "id >= 0")
    #expect(selective.skippedPages > 5 && all.skippedPages == 0)
    #expect(selective.progress.done * 4 < all.progress.done)
    // Records printed (every column read, the index of each used) are those of the file read
    // whole.
    let query = "id between 4000 and 4100 or released < 2020-01-05 order by price desc, id"
    let printed = try ParquetReaderTests.scanned(paged, query)
    #expect(printed == (try ParquetReaderTests.scanned(whole, query)))
    #expect(printed.count > 100)
    #expect(
      try Scan(file: paged, query: "id < 500").explanation.hasSuffix(
        "reads 1 of 1 row group; 11 pages ruled out by the page index"))
  }
}
