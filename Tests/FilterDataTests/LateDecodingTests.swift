import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// A source that can fetch its records again by their places, in memory: it says which fields
/// it was asked to decode and which records it fetched.
final class FetchingRows: FetchingSource {
  let schema: Schema
  let rows: [[Value]]
  var decoded: [Set<String>?] = []
  var fetched: [[Int]] = []

  init(_ rows: [[Value]], schema: Schema) { (self.rows, self.schema) = (rows, schema) }

  var name: String { "rows" }
  var fetches: Bool { true }
  var recordType: RecordType<DataRecord> { DataRecord.recordType(schema) }
  private var decoding: Set<String>?

  func prepare(decoding fields: Set<String>?) {
    decoding = fields
    decoded.append(fields)
  }

  /// Three rows a batch, the fields not decoded null, each row numbered.
  func read(_ body: (DataBlock) throws -> Bool) throws {
    for start in stride(from: 0, to: rows.count, by: 3) {
      let values = rows[start..<min(start + 3, rows.count)].map { row in
        schema.fields.indices.map {
          decoding?.contains(schema.fields[$0].name) ?? true ? row[$0] : .null
        }
      }
      var batch = RecordBatch(ColumnTable(schema: schema, rows: values))
      batch.ordinals = .from(start)
      guard try body(.batches([batch])) else { return }
    }
  }

  func records(at ordinals: [Int], makingText: Bool) throws -> [DataRecord] {
    fetched.append(ordinals)
    return ordinals.map { DataRecord(rows[$0], schema: schema) }
  }
}

/// A query that sorts and keeps a few records reads only the fields it filters and sorts by,
/// then fetches the records it keeps whole (late decoding): the same records, in the same
/// order, as reading every field gives.
@Suite struct LateDecodingTests {
  static let schema = Schema([
    .init("id", .int), .init("price", .int, optional: true), .init("name", .string),
    .init("tags", .list(.string), optional: true),
  ])
  static let rows: [[Value]] = (0..<40).map { (i: Int) -> [Value] in
    let price: Value = i % 7 == 3 ? .null : .int(Int64((i * 37) % 50))
    let tags: [Value] = (0..<(i % 3)).map { (k: Int) -> Value in .string("t\(k)") }
    return [.int(Int64(i)), price, .string("item \(i)"), .list(tags)]
  }

  /// The price of `row`, or -1 where it has none.
  static func price(_ row: [Value]) -> Int64 {
    if case .int(let n) = row[1] { n } else { -1 }
  }

  static func id(_ row: [Value]) -> Int64 {
    if case .int(let n) = row[0] { n } else { -1 }
  }

  @Test func keptRecordsAreFetchedWhole() throws {
    let source = FetchingRows(Self.rows, schema: Self.schema)
    let kept = try Scan(
      query: SourceText("price > 10 order by price desc, id limit 4 offset 1"), source: source
    ).records()
    #expect(source.decoded == [["id", "price"]])
    #expect(source.fetched.count == 1 && source.fetched[0].count == 4)
    // Every field, of the right records: those a sort of every field keeps.
    let all = Self.rows.filter { Self.price($0) > 10 }
      .sorted { a, b in
        Self.price(a) != Self.price(b) ? Self.price(a) > Self.price(b) : Self.id(a) < Self.id(b)
      }
    #expect(kept.map(\.values) == Array(all[1..<5]))
  }

  /// Without a limit, or with one past what is fetched, every field is read as before.
  @Test func largeOrNoLimitsReadEveryField() throws {
    for query in ["true order by price", "true order by price limit 20000"] {
      let source = FetchingRows(Self.rows, schema: Self.schema)
      let kept = try Scan(query: SourceText(query), source: source).records()
      #expect(source.fetched.isEmpty, "\(query)")
      #expect(kept.count == 40 && kept.allSatisfy { $0.values[2] != .null }, "\(query)")
    }
  }

  /// Parquet files (row groups of 64 and pages a page index rules out among them) give the
  /// records their JSON twins give, for sorts with limits and offsets, over nested fields too.
  @Test(arguments: ["nested", "nested-v2", "phones-snappy", "phones-gzip-v2"])
  func parquetSortsAsTheTwin(name: String) throws {
    let folder = ParquetReaderTests.folder
    let queries =
      name.hasPrefix("nested")
      ? [
        "any stores.stock > 40 order by id desc limit 3",
        "true order by camera.mp desc, id limit 4",
        "id > 20 order by id desc limit 20 offset 10",
        "camera.zoom > 1 order by len(tags), id limit 6",
      ]
      : [
        "true order by price limit 5", "price > 800 order by screen desc, id limit 7",
        "color == Gold order by released desc, id limit 3 offset 2",
        "id < 40 order by price desc limit 100",
      ]
    for query in queries {
      #expect(
        try ParquetReaderTests.scanned("\(folder)/\(name).parquet", query)
          == ParquetReaderTests.scanned("\(folder)/\(name).jsonl", query), "\(name): \(query)")
    }
  }

  /// Arrow files (whose batches are read again, a dictionary's values too) and streams (read
  /// once: every field decoded) give the records their Parquet twins' JSON gives.
  @Test(arguments: [
    "phones.arrow", "phones-dictionary.arrow", "phones-lz4.arrow", "phones.arrows",
    "phones-deltas.arrows", "phones-views.arrow", "nested.arrow", "nested.arrows",
  ])
  func arrowSortsAsTheTwin(name: String) throws {
    let twin =
      "\(ParquetReaderTests.folder)/\(name.hasPrefix("nested") ? "nested" : "phones-plain").jsonl"
    let queries =
      name.hasPrefix("nested")
      ? [
        "any stores.stock > 40 order by id desc limit 3",
        "true order by camera.mp desc, id limit 4",
      ]
      : [
        "true order by price limit 5", "price > 800 order by screen desc, id limit 7",
        "color == Gold order by released desc, id limit 3 offset 2",
      ]
    for query in queries {
      #expect(
        try ParquetReaderTests.scanned("\(ArrowReaderTests.folder)/\(name)", query)
          == ParquetReaderTests.scanned(twin, query), "\(name): \(query)")
    }
  }
}
