import FilterDSL
import TestSupport
import Testing

@testable import FilterData

/// A scan hands `--stats` the batches it reads by column with the rows that match, and the
/// sink tallies them by their columns: the same rows as tallying the matches as records, one
/// by one (as it did before, and still does for a batch read under a schema the stats were
/// not checked against).
@Suite struct StatsSinkTests {
  /// `count` JSON lines: `k` one of many texts (some equal though spelled apart), `g` one of
  /// a few integers, `v` an integer, `w` a double (nulls and NaN among them); `v` a double
  /// from line `widenAt` on, when given.
  static func lines(_ count: Int, seed: UInt64, widenAt: Int? = nil) -> String {
    var rng = SplitMix64(seed: seed)
    let tricky = ["K", "\\u212A", "e\\u0301", "\\u00e9", ";", "\\u037E", "", "Space Black"]
    var text = ""
    for line in 0..<count {
      let k = rng.chance(0.1) ? rng.pick(tricky) : "key\(rng.int(0...4999))"
      let g = rng.int(-2...3)
      var v = rng.chance(0.1) ? "null" : "\(rng.int(-1000...1000))"
      if let widenAt, line >= widenAt, v != "null" { v += ".5" }
      let w = rng.chance(0.05) ? "null" : "\(Double(rng.int(-100_000...100_000)) / 8)"
      text += #"{"k":"\#(k)","g":\#(g),"v":\#(v),"w":\#(w)}"# + "\n"
    }
    return text
  }

  static let stats = [
    "count(), sum(v), mean(w), min(v), max(w) by k",
    "count(), sum(v), count(v) by k, g",
    "min(k), max(k), distinct(k), median(w) by g",
    "sum(w), mean(v)",
  ]

  /// The rows of `stats` over the matches of `filter` in `path`: tallied from the scan's
  /// batches, and from the same matches as records; and how many batches went by column.
  /// (Blocks of 32 KB, and a column's codes begun again past 1,000 texts: many batches,
  /// coded apart.)
  func both(_ stats: String, _ filter: String, _ path: String) throws -> (
    byColumn: StatsResult, byRecord: StatsResult, batches: Int
  ) {
    func scan() throws -> Scan {
      let reader = try DataReader(path: path, format: nil, blockSize: 32 << 10)
      reader.batchCodedValues = 1000
      return try Scan(query: SourceText(filter), source: reader)
    }
    let source = SourceText(stats)
    let query = try Parser.parseStats(source).get()
    let byColumn = try scan()
    let sink = try StatsSink(query, source: source, for: byColumn.first)
    byColumn.options.outputFields = sink.fieldNames
    try byColumn.run(into: sink)
    let byRecord = try scan()
    byRecord.options.outputFields = sink.fieldNames
    let reference = try StatsSink(query, source: source, for: byRecord.first)
    for record in try byRecord.records() { reference.write(record) }
    reference.finish()
    return (sink.result, reference.result, sink.batchesByColumn)
  }

  @Test(arguments: StatsSinkTests.stats)
  func batchesTalliedByColumnAgreeWithRecords(stats: String) throws {
    let path = try DataFiles.write(Self.lines(24_000, seed: 7), "keys.jsonl")
    for filter in ["true", "g > 0 or v < 0"] {
      let (byColumn, byRecord, batches) = try both(stats, filter, path)
      #expect(batches > 10, "\(batches) batches were tallied by column")
      #expect(byColumn.records == byRecord.records)
      // (The fields were read: the rows hold values.)
      #expect(byColumn.rows.contains { !$0[0].isNull }, "\(byColumn.rows)")
      #expect(
        StatsGenerator.same(byColumn.rows, byRecord.rows),
        "\(stats) where \(filter): \(byColumn.rows.prefix(5)) vs \(byRecord.rows.prefix(5))")
    }
  }

  /// Equal texts spelled with other code points (`K` and the Kelvin sign, `é` in one code
  /// point or two) are one group, as `==` says.
  @Test func equalTextsAreOneGroup() throws {
    let path = try DataFiles.write(Self.lines(12_000, seed: 3), "keys.jsonl")
    let (byColumn, _, _) = try both("count() by k", "true", path)
    let keys = byColumn.rows.map { $0[0] }
    #expect(Set(keys).count == keys.count)
    #expect(keys.filter { $0 == .string("K") }.count == 1)
    #expect(keys.contains(.string("\u{E9}")) || keys.contains(.string("e\u{301}")))
  }

  /// A field that widens (integers, then decimals) part way: the batches read after it are
  /// tallied as records, and the rows are those of the records.
  @Test func aSchemaThatGrowsIsTalliedAsRecords() throws {
    let path = try DataFiles.write(Self.lines(16_000, seed: 11, widenAt: 13_000), "grows.jsonl")
    let (byColumn, byRecord, _) = try both("count(), sum(w), max(v) by g", "true", path)
    #expect(byColumn.records == 16_000)
    #expect(StatsGenerator.same(byColumn.rows, byRecord.rows), "\(byColumn.rows)\n\(byRecord.rows)")
  }
}
