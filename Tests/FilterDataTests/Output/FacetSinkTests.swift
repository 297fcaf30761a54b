import FilterDSL
import Testing

@testable import FilterData

/// `--facets` counts the batches a scan reads by column by their columns: the same counts as
/// counting every record one by one (as it did before, and still does for a batch read
/// under a schema the facets were not checked against).
@Suite struct FacetSinkTests {
  /// The counts of `fields` among the records of `path` matching `filter`: from the scan's
  /// batches, and from the same records one by one; and how many batches went by column.
  /// (Blocks of 32 KB, and a column's codes begun again past 1,000 texts: many batches,
  /// coded apart.)
  func both(_ fields: [String], _ filter: String, _ path: String) throws -> (
    byColumn: FacetCounts, byRecord: FacetCounts, batches: Int
  ) {
    func scan() throws -> Scan {
      let reader = try DataReader(path: path, format: nil, blockSize: 32 << 10)
      reader.batchCodedValues = 1000
      return try Scan(query: SourceText(""), source: reader)
    }
    let source = SourceText(filter)
    let expr = try filter.isEmpty ? nil : Parser.parseFilter(source).get()
    func facets(for scan: Scan) throws -> FacetSink {
      let sink = try FacetSink(
        fields.map { FieldPath($0) }, filter: expr, source: source, for: scan.first)
      scan.options.outputFields = sink.fieldNames
      return sink
    }
    let byColumn = try scan()
    let sink = try facets(for: byColumn)
    try byColumn.run(into: sink)
    let byRecord = try scan()
    let reference = try facets(for: byRecord)
    for record in try byRecord.records() { reference.write(record) }
    reference.finish()
    return (sink.counts, reference.counts, sink.batchesByColumn)
  }

  @Test(arguments: ["", "g > 0 or v < 0", "k in (key1, key2, K) and g >= 0", "w > 1e9"])
  func batchesCountedByColumnAgreeWithRecords(filter: String) throws {
    let path = try DataFiles.write(StatsSinkTests.lines(24_000, seed: 17), "keys.jsonl")
    let (byColumn, byRecord, batches) = try both(["k", "g", "v"], filter, path)
    #expect(batches > 10, "\(batches) batches were counted by column")
    #expect(byColumn == byRecord, "\(filter)")
    #expect(byColumn.facets.count == 3)
    #expect(filter == "w > 1e9" || byColumn.facets[0].counts.count > 100)
  }

  /// A field that widens part way: the batches read after it are counted as records.
  @Test func aSchemaThatGrowsIsCountedAsRecords() throws {
    let path = try DataFiles.write(
      StatsSinkTests.lines(16_000, seed: 11, widenAt: 13_000), "grows.jsonl")
    let (byColumn, byRecord, _) = try both(["v", "g"], "", path)
    #expect(byColumn == byRecord)
    #expect(byColumn.facets[1].records == 16_000)
  }
}
