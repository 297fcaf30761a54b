import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// Parquet files pyarrow wrote (`Scripts/make-parquet-fixtures.py`) read as their JSON Lines
/// twins, written beside them from the same rows: every value of every row, and the same
/// counts for filters over each type.
@Suite struct ParquetReaderTests {
  static let folder = DataFiles.root.appendingPathComponent("Tests/Fixtures/parquet").path
  static let fixtures = [
    "phones-snappy", "phones-gzip-v2", "phones-plain", "phones-v2-plain", "phones-zstd", "zstd",
    "phones-encodings", "phones-encodings-v2", "types",
  ]

  /// The records a scan of `path` gives for `query`, every field read, as printed (NaN equal
  /// to NaN).
  static func scanned(_ path: String, _ query: String = "true") throws -> [String] {
    try Scan(file: path, query: query, options: Scan.Options(readsWholeRecords: true)).records()
      .map { $0.values.map(\.description).joined(separator: "|") }
  }

  static func count(_ path: String, _ query: String) throws -> Int {
    try Scan(file: path, query: query).run(into: CountSink(to: nil)).matches
  }

  @Test(
    arguments: fixtures + [
      "small", "small-gzip-v2", "small-plain", "small-zstd", "small-encodings",
    ])
  func everyRowReadsAsItsTwin(name: String) throws {
    let parquet = try Self.scanned("\(Self.folder)/\(name).parquet")
    let twin = try Self.scanned("\(Self.folder)/\(name).jsonl")
    #expect(parquet.count == twin.count)
    for (row, (got, wanted)) in zip(parquet, twin).enumerated() where got != wanted {
      Issue.record("\(name) row \(row): \(got) where the JSON has \(wanted)")
      break
    }
    let source = try ParquetSource(path: "\(Self.folder)/\(name).parquet")
    let reader = try DataReader(path: "\(Self.folder)/\(name).jsonl")
    try reader.inferWhole()
    #expect(source.schema.names == reader.schema.names)
    #expect(source.schema.fields.map(\.type) == reader.schema.fields.map(\.type))
  }

  @Test(arguments: fixtures.dropLast())
  func filtersCountAsOverTheTwin(name: String) throws {
    for filter in [
      "price < 600", "price is null", "not (screen >= 5.8)", #"color == "Gold""#,
      #"color in (Midnight, "Space Black") or inStock"#, "released >= 2022-06-01",
      #"model contains "Pro" and price > 900"#, "id % 7 == 3", "inStock is null or not inStock",
    ] {
      #expect(
        try Self.count("\(Self.folder)/\(name).parquet", filter)
          == Self.count("\(Self.folder)/\(name).jsonl", filter), "\(name): \(filter)")
    }
    #expect(
      try Self.scanned(
        "\(Self.folder)/\(name).parquet", "price > 800 order by screen desc, id limit 7")
        == Self.scanned(
          "\(Self.folder)/\(name).jsonl", "price > 800 order by screen desc, id limit 7"))
  }

  @Test func typesCountAsOverTheTwin() throws {
    for filter in [
      "u64 > 2000000000000000000", "u32 >= 3000000000", "i8 < 0", "f32 > 4.5", "d18 < -100",
      "d9 between 10 and 20", "ms >= 2024-03-02T00:00:00Z", "us < 2022-01-01T05:00:00Z",
      #"text contains "é""#, "text is null",
    ] {
      #expect(
        try Self.count("\(Self.folder)/types.parquet", filter)
          == Self.count("\(Self.folder)/types.jsonl", filter), "\(filter)")
    }
  }

  /// A count reads only the columns its filter names; printing reads them all.
  @Test func onlyTheColumnsAQueryReadsAreRead() throws {
    let path = "\(Self.folder)/phones-plain.parquet"
    let counted = try ParquetSource(path: path)
    let scan = try Scan(query: SourceText("price < 600"), source: counted)
    #expect(try scan.run(into: CountSink(to: nil)).matches > 0)
    let printed = try ParquetSource(path: path)
    _ = try Scan(query: SourceText("price < 600"), source: printed).records()
    #expect(counted.progress.done > 0)
    #expect(counted.progress.done * 4 < printed.progress.done)
    // A count with no filter is the footer's: no column is read.
    let footer = try ParquetSource(path: path)
    #expect(
      try Scan(query: SourceText("true"), source: footer).run(into: CountSink(to: nil)).matches
        == 300)
    #expect(footer.progress.done == 0)
  }

  @Test func whatIsNotReadYetIsSaidByName() throws {
    #expect {
      _ = try Self.scanned("\(Self.folder)/lz4.parquet")
    } throws: { error in
      "\(error)".contains("column 'id' of row group 1 is compressed with LZ4")
    }
    #expect {
      _ = try ParquetSource(path: "\(Self.folder)/nested.parquet")
    } throws: { error in
      "\(error)".contains("nested data (column 'camera')")
    }
    #expect {
      _ = try FileSource.open(nil, format: .parquet)
    } throws: { error in
      "\(error)".contains("save it to a file first")
    }
  }

  /// Any byte of a file changed, or the file cut anywhere: an error naming the file, or
  /// records; never a trap.
  @Test func corruptFilesAreErrors() throws {
    let original = Array(try Data(contentsOf: URL(fileURLWithPath: "\(Self.folder)/types.parquet")))
    var errors = 0
    func read(_ bytes: [UInt8]) throws {
      let path = try DataFiles.write(bytes, "corrupt.parquet")
      do {
        _ = try Scan(file: path, query: "true").records()
      } catch let error as DataError {
        #expect(error.description.contains("corrupt.parquet"))
        errors += 1
      }
    }
    for length in stride(from: 0, to: original.count, by: 61) {
      try read(Array(original.prefix(length)))
    }
    #expect(errors == (original.count + 60) / 61)
    for offset in stride(from: 0, to: original.count, by: 3) {
      var bytes = original
      bytes[offset] ^= 0xA5
      try read(bytes)
    }
    #expect(errors > (original.count + 60) / 61)
  }
}
