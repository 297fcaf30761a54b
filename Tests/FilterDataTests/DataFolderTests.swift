import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// Folders where a data file goes: the data files under them, hidden and `_` files passed
/// over, hive-style folder names as typed fields (`__HIVE_DEFAULT_PARTITION__` null, `%20`
/// decoded), and clear errors for a folder flt cannot read as one input.
@Suite struct DataFolderTests {
  static let parquet = DataFiles.root.appendingPathComponent("Tests/Fixtures/parquet").path

  /// A folder holding `files` (paths inside it, each a copy of `source`).
  static func folder(_ files: [String], source: String = "small.parquet") throws -> String {
    let root = try TemporaryFiles.makeFolder("data")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(parquet)/\(source)"))
    for file in files {
      let url = root.appendingPathComponent(file)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try bytes.write(to: url)
    }
    return root.path
  }

  static func count(_ path: String, _ filter: String) throws -> Int {
    try Scan(query: SourceText(filter), source: FileSource.open(path))
      .run(into: CountSink(to: nil)).matches
  }

  @Test func partitionsAreTypedFields() throws {
    let path = try Self.folder([
      "day=2024-01-02/shop=Deep%20Purple/part-0.parquet",
      "day=2024-01-03/shop=__HIVE_DEFAULT_PARTITION__/part-0.parquet",
      "day=2024-01-03/shop=7/part-1.parquet", "_SUCCESS.parquet", ".hidden/x.parquet",
      "_temporary/0/part-9.parquet", "notes.txt",
    ])
    let folder = try DataFolder(path)
    #expect(folder.files.count == 3)
    #expect(
      folder.files.map { $0.partitions.map(\.name) }
        == Array(repeating: ["day", "shop"], count: 3))
    #expect(
      folder.files[0].partitions.map(\.value) == [
        .date(CalendarDate(year: 2024, month: 1, day: 2)!), .string("Deep Purple"),
      ])
    // (In the order of their paths: "7" before "_".)
    #expect(folder.files[1].partitions[1].value == .string("7"))
    #expect(folder.files[2].partitions[1].value == .null)
    // small.parquet has 6 rows.
    #expect(try Self.count(path, #"shop is null or shop == "7""#) == 12)
    #expect(try Self.count(path, "day == 2024-01-02") == 6)
    #expect(try Self.count(path, "true") == 18)
    // Integers where every value is one.
    let numbered = try DataFolder(try Self.folder(["n=1/a.parquet", "n=20/a.parquet"]))
    #expect(numbered.files.map { $0.partitions[0].value } == [.int(1), .int(20)])
  }

  @Test func foldersFltCannotReadAsOneAreErrors() throws {
    let empty = try TemporaryFiles.makeFolder("empty").path
    #expect { _ = try FileSource.open(empty) } throws: { "\($0)".contains("no data files") }
    let mixed = try Self.folder(["a.parquet"])
    try Data("{}\n".utf8).write(to: URL(fileURLWithPath: mixed + "/b.jsonl"))
    #expect { _ = try FileSource.open(mixed) } throws: { "\($0)".contains("which is not Parquet") }
    // Files whose fields differ: an error naming the second.
    let different = try Self.folder(["a.parquet"])
    try Data(contentsOf: URL(fileURLWithPath: "\(Self.parquet)/types.parquet"))
      .write(to: URL(fileURLWithPath: different + "/b.parquet"))
    #expect {
      _ = try Self.count(different, "true or false")
    } throws: { "\($0)".contains("b.parquet") && "\($0)".contains("has other fields than") }
    // A partition named as a column.
    let clash = try Self.folder(["price=3/a.parquet"])
    #expect { _ = try FileSource.open(clash) } throws: { "\($0)".contains("has a column 'price'") }
  }
}
