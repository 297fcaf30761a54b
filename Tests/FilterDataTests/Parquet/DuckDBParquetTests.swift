import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// Parquet files DuckDB wrote with each of its codecs (`Scripts/make-duckdb-fixtures.py`), and
/// the counts DuckDB gave for 150 random filters over them (integers of several widths,
/// decimals of each physical form, doubles, text, booleans, dates, timestamps with and without
/// a time zone, a struct and a list; nulls everywhere; `and`, `or`, `not`): flt counts each as
/// DuckDB did, scanning the file (row groups ruled out by their statistics) and loaded into a
/// table (the column engine).
@Suite struct DuckDBParquetTests {
  static let folder = DataFiles.root.appendingPathComponent("Tests/Fixtures/duckdb").path

  struct Case: Decodable {
    var filter: String
    var sql: String
    var count: Int
  }

  struct Fixture: Decodable {
    var rows: Int
    var cases: [Case]
    /// Over the folder of hive-style partitions.
    var hive: [Case]
  }

  static let fixture: Fixture? = {
    guard let data = FileManager.default.contents(atPath: "\(folder)/counts.json") else {
      return nil
    }
    return try? JSONDecoder().decode(Fixture.self, from: data)
  }()

  @Test(arguments: ["snappy", "zstd", "gzip", "lz4", "uncompressed"])
  func countsAreDuckDBs(codec: String) throws {
    let fixture = try #require(Self.fixture)
    #expect(fixture.cases.count == 150)
    let path = "\(Self.folder)/phones-\(codec).parquet"
    let loaded = try LoadedRecords(loading: ParquetSource(path: path))
    #expect(loaded.count == fixture.rows)
    var skipped = 0
    for test in fixture.cases {
      let source = try ParquetSource(path: path)
      let scanned = try Scan(query: SourceText(test.filter), source: source)
        .run(into: CountSink(to: nil)).matches
      skipped += source.skippedRowGroups
      #expect(scanned == test.count, "\(codec): \(test.filter) (DuckDB: \(test.sql))")
      let filter = try CompiledFilter(test.filter, for: loaded.table.recordType)
      #expect(
        filter.filter(loaded.table.rows).matches.count == test.count,
        "\(codec), loaded: \(test.filter)")
    }
    // Some row groups were ruled out by their statistics, and the counts stayed DuckDB's.
    #expect(skipped > 0)
  }

  /// A folder DuckDB wrote in hive-style partitions (`year=2022/color=Deep%20Purple/…`): read
  /// as one input, the folders' names as fields (typed, decoded), counted as DuckDB counts
  /// with `hive_partitioning`; a filter on a partition reads only the files under it.
  @Test func aFolderOfPartitionsCountsAsDuckDBs() throws {
    let fixture = try #require(Self.fixture)
    let path = "\(Self.folder)/hive"
    let folder = try #require(try FileSource.open(path) as? ParquetFolder)
    #expect(folder.schema.fields.suffix(2).map(\.name) == ["year", "color"])
    #expect(folder.schema.fields.suffix(2).map(\.type) == [.int, .string])
    let loaded = try LoadedRecords(loading: FileSource.open(path))
    #expect(loaded.count == 600)
    #expect(!fixture.hive.isEmpty)
    for test in fixture.hive {
      let source = try FileSource.open(path)
      #expect(
        try Scan(query: SourceText(test.filter), source: source).run(into: CountSink(to: nil))
          .matches == test.count, "\(test.filter) (DuckDB: \(test.sql))")
      let filter = try CompiledFilter(test.filter, for: loaded.table.recordType)
      #expect(
        filter.filter(loaded.table.rows).matches.count == test.count, "loaded: \(test.filter)")
    }
    let spaced = try Scan(query: SourceText(#"color == "Deep Purple""#), source: folder)
    #expect(try spaced.run(into: CountSink(to: nil)).matches > 0)
    // The other colours' 25 files are not opened, and --explain says why, not "statistics".
    #expect(folder.skippedFiles == 25 && folder.skippedRowGroups == 0)
    #expect(spaced.explanation.contains("row groups in 5 files"), "\(spaced.explanation)")
    #expect(spaced.explanation.hasSuffix("; 25 of 30 files ruled out by their folders' names"))
    #expect(!spaced.explanation.contains("statistics"))
  }
}
