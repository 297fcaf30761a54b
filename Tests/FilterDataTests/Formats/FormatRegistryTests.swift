import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// A format flt does not know, added through the registry alone: lines of `key=value` pairs
/// separated by `;`, after a first line `KV1` (its magic bytes). Values that are integers in
/// every line are integers, the others text.
final class KeyValueSource: RecordSource {
  let name: String
  let schema: Schema
  private let rows: [[Value]]

  init(path: String?) throws(DataError) {
    name = path ?? "<stdin>"
    guard let path, let data = FileManager.default.contents(atPath: path) else {
      throw DataError.file(name, "cannot be read")
    }
    var lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    guard lines.first == "KV1" else { throw DataError.file(name, "does not start with KV1") }
    lines.removeFirst()
    let pairs = lines.map { line in
      line.split(separator: ";").map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        return (parts[0], parts.count > 1 ? parts[1] : "")
      }
    }
    var names: [String] = []
    for line in pairs { for (key, _) in line where !names.contains(key) { names.append(key) } }
    let integers = Set(
      names.filter { key in
        pairs.allSatisfy { line in line.first { $0.0 == key }.map { Int64($0.1) != nil } ?? true }
      })
    schema = Schema(names.map { Schema.Field($0, integers.contains($0) ? .int : .string) })
    rows = pairs.map { line in
      names.map { key -> Value in
        guard let text = line.first(where: { $0.0 == key })?.1 else { return .null }
        return integers.contains(key) ? Int64(text).map(Value.int) ?? .null : .string(text)
      }
    }
  }

  var recordType: RecordType<DataRecord> { DataRecord.recordType(schema) }

  func read(_ body: (DataBlock) throws -> Bool) throws {
    _ = try body(.batches([RecordBatch(ColumnTable(schema: schema, rows: rows))]))
  }

  static let format = DataFormat(
    name: "kv", title: "key=value lines", extensions: ["kv"], magic: Array("KV1\n".utf8)
  ) { input in try KeyValueSource(path: input.path) }
}

/// The registry of formats: flt's own are there, by name, extension and first bytes; a
/// format registered is read by every path a file takes (a scan, a folder's listing, a file
/// whose name says nothing, the lists messages give) with nothing else changed.
@Suite struct FormatRegistryTests {
  static let shop = "KV1\nmodel=A;price=300\nmodel=B;price=900;color=Gold\nmodel=C;price=450\n"

  @Test func fltsOwnFormatsAreRegistered() {
    #expect(DataFormat.all.prefix(5).map(\.name) == ["json", "jsonl", "csv", "tsv", "parquet"])
    #expect(DataFormat(name: "parquet") == .parquet && DataFormat(name: "xml") == nil)
    #expect(DataFormat(path: "x.PQ") == .parquet && DataFormat(path: "a.csv.bz2") == .csv)
    #expect(DataFormat.sniffed(Array("PAR1\u{15}".utf8)) == .parquet)
    #expect(DataFormat.sniffed(Array("{\"a\":1}".utf8)) == nil)
    #expect(DataFormat.extensionList.hasPrefix(".json, .geojson, .jsonl, .ndjson, .csv"))
  }

  @Test func aFormatRegisteredIsReadAsFltsOwnAre() throws {
    DataFormat.register(KeyValueSource.format)
    #expect(DataFormat.all.contains(KeyValueSource.format))
    #expect(DataFormat(path: "prices.KV.gz") == KeyValueSource.format)
    #expect(DataFormat(name: "kv") == KeyValueSource.format)
    #expect(DataFormat.extensionList.contains(".kv") && DataFormat.nameList.contains("kv"))
    // By its extension, in a scan.
    let path = try DataFiles.write(Self.shop, "shop.kv")
    let cheap = try Scan(file: path, query: "price < 500 order by price desc").records()
    #expect(cheap.map { $0.values[0] } == [.string("C"), .string("A")])
    #expect(try Scan(file: path, query: "color is null").run(into: CountSink(to: nil)).matches == 2)
    // By its first bytes, under a name that says nothing.
    let unnamed = try DataFiles.write(Self.shop, "shop-export")
    #expect(try FileSource.open(unnamed) is KeyValueSource)
    // Named by -i / load's format, whatever the file is called.
    let misnamed = try DataFiles.write(Self.shop, "shop.txt")
    #expect(try FileSource.open(misnamed, format: DataFormat(name: "kv")) is KeyValueSource)
    // A folder of its files is listed, and (the format reads no folders) an error that says
    // to name them.
    let folder = try TemporaryFiles.makeFolder("kv").path
    try Data(Self.shop.utf8).write(to: URL(fileURLWithPath: folder + "/a.kv"))
    let listed = try DataFolder(folder).files.map { ($0.path as NSString).lastPathComponent }
    #expect(listed == ["a.kv"])
    #expect {
      _ = try FileSource.open(folder)
    } throws: {
      "\($0)".contains("is a folder of key=value lines files") && "\($0)".contains("/*.kv")
    }
  }

  /// A file whose name says nothing and whose first bytes no format claims: an error listing
  /// the extensions; standard input that begins as Parquet does: an error that says to save
  /// it to a file first (not CSV of binary cells).
  @Test func whatNoFormatClaimsIsAnError() throws {
    let unnamed = try DataFiles.write("a,b\n1,2\n", "numbers")
    #expect {
      _ = try FileSource.open(unnamed)
    } throws: { "\($0)".contains("has no known extension (.json, .geojson") }
    #expect {
      _ = try FileSource.open(nil, format: .parquet)
    } throws: { "\($0)".contains("cannot be read as Parquet, which is read from a file") }
  }
}
