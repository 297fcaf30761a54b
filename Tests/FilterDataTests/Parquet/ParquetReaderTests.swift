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
    "phones-encodings", "phones-encodings-v2", "phones-lz4", "lz4", "types",
  ]

  /// The records a scan of `path` gives for `query`, every field read, as printed (NaN equal
  /// to NaN; an exact decimal as the double nearest it, as the JSON twin holds it).
  static func scanned(_ path: String, _ query: String = "true") throws -> [String] {
    try Scan(file: path, query: query, options: Scan.Options(readsWholeRecords: true)).records()
      .map { $0.values.map { Self.asTwin($0).description }.joined(separator: "|") }
  }

  /// `value` as the JSON twin has it: exact decimals as their nearest doubles.
  static func asTwin(_ value: Value) -> Value {
    switch value {
    case .decimal(let d): .double(d.doubleValue)
    case .list(let items): .list(items.map(asTwin))
    case .record(let values): .record(values.map(asTwin))
    default: value
    }
  }

  /// `type` as the JSON twin's: exact decimals are doubles there.
  static func asTwin(_ type: ValueType) -> ValueType {
    switch type {
    case .decimal: .double
    case .list(let element): .list(asTwin(element))
    case .record(let schema):
      .record(
        Schema(schema.fields.map { .init($0.name, asTwin($0.type), optional: $0.isOptional) }))
    default: type
    }
  }

  /// Every row of `folder/name.parquet` is the row of its twin `folder/name.jsonl`; the first
  /// that is not is recorded.
  static func expectRowsAsTwin(_ folder: String, _ name: String) throws {
    let parquet = try scanned("\(folder)/\(name).parquet")
    let twin = try scanned("\(folder)/\(name).jsonl")
    #expect(parquet.count == twin.count)
    for (row, (got, wanted)) in zip(parquet, twin).enumerated() where got != wanted {
      Issue.record("\(name) row \(row): \(got) where the JSON has \(wanted)")
      break
    }
  }

  static func count(_ path: String, _ query: String) throws -> Int {
    try Scan(file: path, query: query).run(into: CountSink(to: nil)).matches
  }

  @Test(
    arguments: fixtures + [
      "small", "small-gzip-v2", "small-plain", "small-zstd", "small-encodings", "rare-types",
      "int96", "times",
    ])
  func everyRowReadsAsItsTwin(name: String) throws {
    try Self.expectRowsAsTwin(Self.folder, name)
    let source = try ParquetSource(path: "\(Self.folder)/\(name).parquet")
    let reader = try DataReader(path: "\(Self.folder)/\(name).jsonl")
    try reader.inferWhole()
    #expect(source.schema.names == reader.schema.names)
    #expect(source.schema.fields.map { Self.asTwin($0.type) } == reader.schema.fields.map(\.type))
  }

  /// Parquet's decimals (pyarrow's `decimal128(9, 2)`, `(18, 3)` and `(30, 1)`) are exact
  /// decimals, their scale kept: `0.1 * 3` is `0.3` there, which doubles miss.
  @Test func decimalsAreExact() throws {
    let path = "\(Self.folder)/types.parquet"
    let source = try ParquetSource(path: path)
    for name in ["d9", "d18", "d30"] {
      #expect(source.schema.field(named: name)?.field.type == .decimal, "\(name)")
    }
    #expect(try Self.count(path, "d30 * 3 == 0.3") == 1)
    #expect(try Self.count(path, "d9 - 0.25 == 1.00 and d18 == -12.345") == 1)
    let first = try Scan(file: path, query: "true limit 2").records()
    #expect(first.map { "\($0.values[7])" } == ["0.00", "1.25"])
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

  /// Structs, lists, lists of lists, lists of structs, maps and a struct of a struct of a list
  /// of structs, with nulls and empty lists at every level: read as their JSON twins, in
  /// pages v1 and v2 (small pages, so that lists run across them), dictionary and plain, and in
  /// the older list layout.
  @Test(arguments: ["nested", "nested-v2", "nested-legacy", "small-nested"])
  func nestedFieldsReadAsTheirTwins(name: String) throws {
    let parquet = try Self.scanned("\(Self.folder)/\(name).parquet")
    let twin = try Self.scanned("\(Self.folder)/\(name).jsonl")
    #expect(parquet.count == twin.count && !parquet.isEmpty)
    for (row, (got, wanted)) in zip(parquet, twin).enumerated() where got != wanted {
      Issue.record("\(name) row \(row): \(got) where the JSON has \(wanted)")
      break
    }
    // The same shapes (the file says every field may be null, which the JSON shows of some).
    func shape(_ type: ValueType) -> String {
      switch type {
      case .list(let element): "[\(shape(element))]"
      case .record(let schema):
        "{" + schema.fields.map { "\($0.name): \(shape($0.type))" }.joined(separator: ", ") + "}"
      default: "\(type)"
      }
    }
    let source = try ParquetSource(path: "\(Self.folder)/\(name).parquet")
    let reader = try DataReader(path: "\(Self.folder)/\(name).jsonl")
    try reader.inferWhole()
    #expect(
      source.schema.fields.map { shape($0.type) } == reader.schema.fields.map { shape($0.type) })
    let filters = [
      "camera.mp > 20", #"tags contains "Pro""#, "any stores.stock > 20",
      #"any stores (stock > 10 and name == "Paris")"#, "specs is null", "deep.a.b is null",
      #"any deep.a.b.c endsWith "-2""#, "grid is null or sizes contains 256", "len(tags) >= 2",
      "tags is empty", "camera is null", #"any specs (key == "ram" and value > 5)"#,
      "camera.zoom between 2 and 3", "all stores.stock < 30", "none tags == eSIM",
      "exists camera.mp",
    ]
    for filter in filters {
      // (The smaller files have some of the fields: a filter naming another is an error.)
      guard let wanted = try? Self.count("\(Self.folder)/\(name).jsonl", filter) else {
        #expect(["nested-legacy", "small-nested"].contains(name), "\(name): \(filter)")
        continue
      }
      #expect(
        try Self.count("\(Self.folder)/\(name).parquet", filter) == wanted, "\(name): \(filter)")
    }
    let sorted = "len(tags) > 0 order by id desc limit 3"
    #expect(
      try Self.scanned("\(Self.folder)/\(name).parquet", sorted)
        == Self.scanned("\(Self.folder)/\(name).jsonl", sorted))
  }

  /// A count of a nested field reads that field's leaves only.
  @Test func aNestedFieldReadsOnlyItsLeaves() throws {
    let path = "\(Self.folder)/nested.parquet"
    let camera = try ParquetSource(path: path)
    #expect(
      try Scan(query: SourceText("camera.mp > 20"), source: camera).run(into: CountSink(to: nil))
        .matches == 102)
    let all = try ParquetSource(path: path)
    _ = try Scan(query: SourceText("camera.mp > 20"), source: all).records()
    #expect(camera.progress.done > 0)
    #expect(camera.progress.done * 4 < all.progress.done)
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
      _ = try Self.scanned("\(Self.folder)/brotli.parquet")
    } throws: { error in
      "\(error)".contains("column 'id' of row group 1 is compressed with Brotli")
    }
    #expect {
      _ = try ParquetSource(path: "\(Self.folder)/too-deep.parquet")
    } throws: { error in
      "\(error)".contains("is nested deeper than 64 levels")
        && "\(error)".contains("too-deep.parquet")
    }
    #expect {
      _ = try FileSource.open(nil, format: .parquet)
    } throws: { error in
      "\(error)".contains("save it to a file first")
    }
  }

  /// Any byte of a file changed, or the file cut anywhere: an error naming the file, or
  /// records; never a trap.
  @Test(arguments: ["types", "small-nested", "small-paged"])
  func corruptFilesAreErrors(name: String) throws {
    let original = Array(
      try Data(contentsOf: URL(fileURLWithPath: "\(Self.folder)/\(name).parquet")))
    var errors = 0
    func read(_ bytes: [UInt8]) throws {
      let path = try DataFiles.write(bytes, "corrupt.parquet")
      do {
        _ = try Scan(file: path, query: "true").records()
      } catch let error as DataError {
        #expect(error.description.contains("corrupt.parquet"))
        errors += 1
      }
      // A filter, so that statistics and page indexes are read too.
      if name == "small-paged", let scan = try? Scan(file: path, query: "id < 2 or price > 600") {
        do {
          _ = try scan.records()
        } catch let error as DataError {
          #expect(error.description.contains("corrupt.parquet"))
        }
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
