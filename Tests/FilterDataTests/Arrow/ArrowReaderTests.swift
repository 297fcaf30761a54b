import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// Arrow IPC files and streams pyarrow and Polars wrote (`Scripts/make-arrow-fixtures.py`)
/// from the Parquet fixtures, read as those Parquet files' JSON Lines twins: every value of
/// every row, the same types, and the same counts for filters over each type.
@Suite struct ArrowReaderTests {
  static let folder = DataFiles.root.appendingPathComponent("Tests/Fixtures/arrow").path
  static let parquet = ParquetReaderTests.folder

  /// Each Arrow fixture, and the Parquet fixture whose rows it holds.
  static let twins: [String: String] = [
    "phones.arrow": "phones-plain", "phones-lz4.arrow": "phones-plain",
    "phones-zstd.arrow": "phones-plain", "phones.arrows": "phones-plain",
    "phones-legacy.arrows": "phones-plain", "phones.feather": "phones-plain",
    "phones-dictionary.arrow": "phones-plain", "phones-replaced.arrows": "phones-plain",
    "phones-deltas.arrows": "phones-plain", "phones-views.arrow": "phones-plain",
    "phones-large.arrow": "phones-plain", "phones-polars.arrow": "phones-plain",
    "phones-polars-zstd.arrow": "phones-plain", "phones-polars.arrows": "phones-plain",
    "types.arrow": "types", "rare-types.arrow": "rare-types", "times.arrow": "times",
    "nested.arrow": "nested", "nested.arrows": "nested", "nested-large.arrow": "nested",
    "nested-views.arrow": "nested", "nested-polars.arrow": "nested",
  ]

  /// The source of `name` in the fixtures (the legacy stream, which has no marker to sniff,
  /// named as a stream).
  static func source(_ name: String) throws -> any RecordSource {
    try FileSource.open("\(folder)/\(name)")
  }

  /// The fields and every row of `source`, each value as printed.
  static func rows(_ source: any RecordSource) throws -> (names: [String], rows: [[String]]) {
    let records = try Scan(
      query: SourceText("true"), source: source, options: Scan.Options(readsWholeRecords: true)
    ).records()
    return (source.schema.names, records.map { $0.values.map(\.description) })
  }

  @Test(arguments: twins.keys.sorted())
  func everyRowReadsAsItsTwin(name: String) throws {
    let arrow = try Self.rows(Self.source(name))
    let twinSource = try ParquetSource(path: "\(Self.parquet)/\(Self.twins[name]!).parquet")
    let twin = try Self.rows(twinSource)
    // (Some files hold only some of the twin's fields.)
    let slots = arrow.names.map { twin.names.firstIndex(of: $0) }
    #expect(!slots.contains(nil), "\(name): \(arrow.names) where the twin has \(twin.names)")
    #expect(arrow.rows.count == twin.rows.count, "\(name)")
    for (row, (got, whole)) in zip(arrow.rows, twin.rows).enumerated() {
      let wanted = slots.map { whole[$0 ?? 0] }
      if got != wanted {
        Issue.record("\(name) row \(row): \(got) where the twin has \(wanted)")
        break
      }
    }
    // The same types, field by field, as the Parquet file's.
    let source = try Self.source(name)
    for field in source.schema.fields {
      #expect(
        field.type == twinSource.schema.fields.first { $0.name == field.name }?.type,
        "\(name): \(field.name) is \(field.type)")
    }
  }

  @Test func filtersCountAsOverTheTwin() throws {
    let filters = [
      "price < 600", "color == \"Gold\"", "inStock", "released >= 2022-01-01",
      "model contains \"Pro\" and screen > 6", "color is null or price is null",
    ]
    for name in Self.twins.keys.sorted() where name.hasPrefix("phones") {
      for filter in filters {
        #expect(
          try ParquetReaderTests.count("\(Self.folder)/\(name)", filter)
            == ParquetReaderTests.count("\(Self.parquet)/phones-plain.parquet", filter),
          "\(name): \(filter)")
      }
    }
    let types = "\(Self.folder)/types.arrow"
    #expect(try ParquetReaderTests.count(types, "d30 * 3 == 0.3") == 1)
    #expect(try ParquetReaderTests.count(types, "u64 > 3000000000000000000") == 9)
    #expect(
      try ParquetReaderTests.count("\(Self.folder)/nested.arrow", "any stores.stock > 40") > 0)
    #expect(
      try ParquetReaderTests.count("\(Self.folder)/nested.arrow", "any stores.stock > 40")
        == ParquetReaderTests.count("\(Self.parquet)/nested.parquet", "any stores.stock > 40"))
  }

  /// A file's rows are counted from its batches' headers, no body read; a stream's are read.
  @Test func aFileIsCountedFromItsFooter() throws {
    for (name, readsBodies) in [("phones.arrow", false), ("phones.arrows", true)] {
      let source = try ArrowSource(path: "\(Self.folder)/\(name)")
      let counted = try Scan(query: SourceText("true"), source: source)
        .run(into: CountSink(to: nil)).matches
      #expect(counted == 300)
      #expect((source.progress.done > 1000) == readsBodies, "\(name): \(source.progress)")
    }
  }

  /// Only the fields a query reads are decoded: the others are null.
  @Test func onlyTheFieldsReadAreDecoded() throws {
    let source = try Self.source("phones-zstd.arrow")
    source.prepare(decoding: ["price"])
    var rows: [[Value]] = []
    try source.read { block in
      guard case .batches(let batches) = block else { return false }
      for batch in batches { rows += batch.table.rows.map { batch.table.row($0) } }
      return true
    }
    let price = source.schema.names.firstIndex(of: "price")!
    #expect(rows.count == 300)
    #expect(rows.allSatisfy { row in row.indices.allSatisfy { $0 == price || row[$0] == .null } })
    #expect(
      rows.filter { $0[price] != .null }.count
        == (try ParquetReaderTests.count(
          "\(Self.parquet)/phones-plain.parquet", "price is not null")))
  }

  /// Arrow's files are known by their extensions and by their first bytes.
  @Test func theRegistryKnowsArrow() throws {
    #expect(DataFormat(path: "x.feather") == .arrow)
    #expect(DataFormat(path: "x.arrows.zst") == .arrowStream)
    #expect(DataFormat.sniffed(Array("ARROW1\0\0".utf8)) == .arrow)
    #expect(DataFormat.sniffed([0xFF, 0xFF, 0xFF, 0xFF, 0x10, 0, 0, 0]) == .arrowStream)
    // A file whose name says nothing, by its magic bytes.
    let copy = try TemporaryFiles.write(
      Array(try Data(contentsOf: URL(fileURLWithPath: "\(Self.folder)/phones.arrow"))),
      "phones.data")
    #expect(try Self.rows(FileSource.open(copy.path)).rows.count == 300)
  }
}
