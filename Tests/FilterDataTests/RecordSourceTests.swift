import FilterDSL
import FilterData
import Testing

/// A source of one's own, through the public API only: an array of dictionaries, as an
/// embedder's records might be.
final class DictionarySource: RecordSource {
  let schema: Schema
  let rows: [[String: Value]]
  /// How many blocks were asked for, and the query pushed down to it.
  var blocksHanded = 0
  var pushed: BoundQuery?
  /// Whether it takes over filters on `stock` (to test what the scan does with the rest).
  let takesStock: Bool

  init(_ rows: [[String: Value]], schema: Schema, takesStock: Bool = false) {
    (self.rows, self.schema, self.takesStock) = (rows, schema, takesStock)
  }

  var name: String { "inventory" }
  var recordType: RecordType<DataRecord> { DataRecord.recordType(schema) }

  /// Takes over `stock == N` when asked to: hands over only those rows, and leaves the
  /// rest of the query to the scan.
  func pushDown(_ query: BoundQuery, parameters: [String: Value], now: Instant) -> BoundQuery? {
    guard takesStock, query.filter != nil else { return nil }
    pushed = query
    var rest = query
    rest.filter = nil
    return rest
  }

  func read(_ body: (DataBlock) throws -> Bool) throws {
    var kept = rows
    if let pushed, let filter = pushed.filter {
      // Only `stock == 0` is taken over, in this toy.
      #expect(filter.description.contains("stock == 0"))
      kept = rows.filter { $0["stock"] == .int(0) }
    }
    // Two rows a block, by column.
    for start in stride(from: 0, to: kept.count, by: 2) {
      blocksHanded += 1
      let values = kept[start..<min(start + 2, kept.count)].map { row in
        schema.fields.map { row[$0.name] ?? .null }
      }
      guard try body(.batches([RecordBatch(ColumnTable(schema: schema, rows: values))])) else {
        return
      }
    }
  }
}

@Suite struct RecordSourceTests {
  static let schema = Schema([.init("sku", .string), .init("stock", .int, optional: true)])
  static let rows: [[String: Value]] = [
    ["sku": .string("A-1"), "stock": .int(3)],
    ["sku": .string("B-2"), "stock": .int(0)],
    ["sku": .string("C-3")],
    ["sku": .string("D-4"), "stock": .int(0)],
    ["sku": .string("E-5"), "stock": .int(7)],
  ]

  @Test func aSourceOfOnesOwnIsScannedAsAFileIs() throws {
    let source = DictionarySource(Self.rows, schema: Self.schema)
    let records = try Scan(
      query: SourceText("stock < 5 order by stock desc, sku"), source: source
    ).records()
    #expect(
      records.map(\.values) == [
        [.string("A-1"), .int(3)], [.string("B-2"), .int(0)], [.string("D-4"), .int(0)],
      ])
    // Records made from values have their text made as JSON, for every output format.
    let out = OutputSink()
    try Scan(query: SourceText("stock is null"), source: source).run(
      into: RecordWriter(.jsonl, for: source, select: nil, to: out))
    #expect(out.text == #"{"sku":"C-3","stock":null}"# + "\n")
  }

  @Test func aLimitStopsTheSourceEarly() throws {
    // 20 blocks; the scan reads at most a few ahead (two wait while one is filtered).
    let many = (0..<40).map { ["sku": Value.string("S-\($0)"), "stock": .int(Int64($0))] }
    let source = DictionarySource(many, schema: Self.schema)
    let records = try Scan(query: SourceText("stock >= 1 limit 1"), source: source).records()
    #expect(records.map { $0.values[1] } == [.int(1)])
    #expect(source.blocksHanded <= 5, "\(source.blocksHanded) blocks of 20 read")
  }

  @Test func whatTheSourceTakesOverTheScanDoesNot() throws {
    let source = DictionarySource(Self.rows, schema: Self.schema, takesStock: true)
    let scan = try Scan(query: SourceText("stock == 0 order by sku desc"), source: source)
    // The rest (the sort) is the scan's: its plan has no filter.
    #expect(scan.compiled.filter == nil && scan.compiled.sorts)
    #expect(try scan.records().map { $0.values[0] } == [.string("D-4"), .string("B-2")])
  }

  @Test func aQueryThatDoesNotCheckAgainstTheSourceThrows() throws {
    let source = DictionarySource(Self.rows, schema: Self.schema)
    let error = try #require(throws: FilterError.self) {
      try Scan(query: SourceText("stok > 1"), source: source)
    }
    #expect(error.description.contains("did you mean 'stock'"))
  }
}
