import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// Arrow as flt writes it (`-f arrow`, `-f arrows`), read back by flt's own reader: every value
/// of every record as written, nested records and lists included, as a file and as a stream,
/// in one batch and in many; values that do not fit their field are written as null and
/// counted. (That pyarrow and Polars read these files value by value is checked by
/// `Scripts/check-arrow-with-pyarrow.py`, a CI step of its own.) The FlatBuffers the writer
/// makes, read by flt's FlatBuffers reader.
@Suite struct ArrowWriterTests {
  static let fixtures = ParquetWriterTests.fixtures

  /// `path`'s records written as Arrow (read whole, as `-f arrow` reads them), and where.
  static func written(_ path: String, stream: Bool = false, batchRows: Int = 65_536) throws
    -> (String, ArrowWriter)
  {
    let scan = try Scan(
      file: path, query: "true", options: Scan.Options(readsWholeRecords: true))
    let out = OutputSink()
    let writer = try ArrowWriter(
      schema: scan.first.schema, to: out, stream: stream, batchRows: batchRows)
    _ = try scan.run(into: writer)
    out.flush()
    let name = stream ? "written.arrows" : "written.arrow"
    return (try TemporaryFiles.write(out.collected, name).path, writer)
  }

  @Test(arguments: [
    "../../examples/phones.json", "parquet/nested.jsonl", "parquet/phones-snappy.jsonl",
    "parquet/times.jsonl", "parquet/nested.parquet",
  ])
  func everyValueReadsBack(name: String) throws {
    let source = "\(Self.fixtures)/\(name)"
    for stream in [false, true] {
      for batches in [7, 65_536] {
        let (path, writer) = try Self.written(source, stream: stream, batchRows: batches)
        let (got, wanted) = (try ParquetWriterTests.rows(path), try ParquetWriterTests.rows(source))
        #expect(got.count == wanted.count && writer.count == wanted.count)
        for (row, (a, b)) in zip(got, wanted).enumerated() where a != b {
          Issue.record("\(name) row \(row): \(a) where the source has \(b)")
          break
        }
        #expect(writer.warnings.isEmpty, "\(writer.warnings)")
        let read = try ArrowSource(path: path)
        let scanned = try Scan(file: source, query: "true").first.schema
        #expect(read.schema.names == scanned.names, "\(name)")
        // (Every field is written nullable: nested ones read back optional.)
        #expect(
          read.schema.fields.map { Self.optional($0.type) }
            == scanned.fields.map { Self.optional($0.type) }, "\(name)")
      }
    }
  }

  /// `type` with the fields of its records (at any depth) optional, names and types kept.
  static func optional(_ type: ValueType) -> ValueType {
    switch type {
    case .list(let element): .list(optional(element))
    case .record(let schema):
      .record(Schema(schema.fields.map { .init($0.name, optional($0.type), optional: true) }))
    default: type
    }
  }

  /// A file of many batches is counted from its footer as the source has rows.
  @Test func aFileOfManyBatchesCountsFromItsFooter() throws {
    let source = "\(Self.fixtures)/parquet/sorted.jsonl"
    let (path, _) = try Self.written(source, batchRows: 50)
    let arrow = try ArrowSource(path: path)
    for filter in ["true", "id < 75", "released >= 2021-06-01"] {
      #expect(
        try Scan(query: SourceText(filter), source: try ArrowSource(path: path))
          .run(into: CountSink(to: nil)).matches
          == Scan(file: source, query: filter).run(into: CountSink(to: nil)).matches)
    }
    #expect(
      try Scan(query: SourceText("true"), source: arrow).run(into: CountSink(to: nil)).matches > 0)
    #expect(arrow.progress.done == 0)
  }

  /// A value that does not fit its field is written as null and counted; a time finer than
  /// a microsecond is cut, and counted; exact decimals are text, digits kept, and said.
  @Test func valuesThatDoNotFitAreCounted() throws {
    let schema = Schema([
      .init("n", .int, optional: true), .init("when", .dateTime, optional: true),
      .init("tags", .list(.string), optional: true), .init("price", .decimal, optional: true),
    ])
    let out = OutputSink()
    let writer = try ArrowWriter(schema: schema, to: out)
    let price = ExactDecimal("12345678901234567890.123456789012345678").map(Value.decimal) ?? .null
    for values: [Value] in [
      [
        .int(1), .dateTime(Instant(seconds: 0, nanoseconds: 1500)), .list([.string("a"), .int(2)]),
        price,
      ],
      [.string("two"), .dateTime(Instant(seconds: Int64.max)), .string("not a list"), .null],
      [.null, .null, .list([]), .null],
    ] {
      writer.write(DataRecord(values: values, text: [], format: .json))
    }
    writer.finish()
    out.flush()
    #expect(writer.warnings.count == 3)
    #expect(writer.warnings[0].contains("3 values did not fit"), "\(writer.warnings)")
    #expect(writer.warnings[1].contains("1 exact decimal was written to Arrow as text"))
    #expect(writer.warnings[2].contains("1 time had fractions finer than a microsecond"))
    let path = try TemporaryFiles.write(out.collected, "unfit.arrow").path
    #expect(
      try ParquetWriterTests.rows(path) == [
        [
          "1", "1970-01-01T00:00:00.000001Z", #"("a", "2")"#,
          #""12345678901234567890.123456789012345678""#,
        ],
        ["null", "null", "null", "null"], ["null", "null", "()", "null"],
      ])
  }

  /// Records nested deeper than flt reads are refused before anything is written.
  @Test func tooDeepIsRefused() throws {
    var type = ValueType.int
    for _ in 0..<70 { type = .record(Schema([.init("x", type, optional: true)])) }
    #expect(throws: ScanError.self) {
      try ArrowWriter(schema: Schema([.init("deep", type, optional: true)]), to: OutputSink())
    }
  }

  /// The FlatBuffers the writer makes read back field by field: scalars of each width at
  /// their alignment, text, vectors of tables and of structs, tables left empty.
  @Test func flatBuffersReadBack() throws {
    let object = FlatObject.table([
      0: .int8(7), 1: .int64(-5), 2: .object(.string("héllo")), 3: .int16(300),
      4: .object(.tables([.table([:]), .table([1: .int32(42)])])),
      5: .object(.structs([[1, 2], [3, 4]])), 7: .bool(true),
    ])
    let bytes = object.serialized()
    #expect(bytes.count % 8 == 0)
    let root = try FlatBuffer(bytes).root()
    #expect(try root.integer(0, UInt8.self) == 7)
    #expect(try root.integer(1, Int64.self) == -5)
    #expect(try root.string(2) == "héllo")
    #expect(try root.integer(3, Int16.self) == 300)
    let tables = try root.tables(4)
    #expect(tables.count == 2)
    #expect(try tables[0].integer(1, Int32.self, or: 9) == 9)
    #expect(try tables[1].integer(1, Int32.self) == 42)
    #expect(try root.structs(5, words: 2) == [[1, 2], [3, 4]])
    #expect(try root.integer(6, Int32.self, or: -1) == -1)
    #expect(try root.bool(7))
    // Every 8-byte scalar and struct lies 8-aligned.
    #expect(try root.vector(5, elementSize: 16).map { $0.start % 8 } == 0)
  }
}
