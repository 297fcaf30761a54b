import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// Records made from values (a Parquet file's rows, a table's) are written from their values
/// (``ValueCells``), not through JSON text made and scanned again: byte for byte what the
/// text would have given, in every output format, with and without a selection and `-H`.
@Suite struct ValueCellsTests {
  /// A sink that writes through `writer` record by record: each row of a batch made a record
  /// with its JSON text first (the way every batch was written before).
  final class ThroughText: RecordSink {
    let writer: RecordWriter
    init(_ writer: RecordWriter) { self.writer = writer }
    var count: Int { writer.count }
    func write(_ record: DataRecord) { writer.write(record) }
    func finish() { writer.finish() }
  }

  static let parquet = DataFiles.root.appendingPathComponent("Tests/Fixtures/parquet").path

  /// What `source()` gives, written in `format` both ways.
  static func both(
    _ format: OutputFormat, _ source: () throws -> any RecordSource, select: [String]?,
    files: Bool
  ) throws -> (values: String, text: String) {
    var outputs: [String] = []
    for throughText in [false, true] {
      let records = try source()
      let out = OutputSink()
      let writer = RecordWriter(format, for: records, select: select, to: out, showingFiles: files)
      let sink: any RecordSink = throughText ? ThroughText(writer) : writer
      var options = Scan.Options()
      options.outputFields = select.map(Set.init) ?? []
      options.readsWholeRecords = true
      _ = try Scan(query: SourceText("true"), source: records, options: options).run(into: sink)
      outputs.append(out.text)
    }
    return (outputs[0], outputs[1])
  }

  @Test(arguments: [
    "small-nested", "nested", "nested-legacy", "rare-types", "int96", "times", "phones-snappy",
  ])
  func parquetRowsAreWrittenAsTheirTextWouldBe(name: String) throws {
    let path = "\(Self.parquet)/\(name).parquet"
    for format in OutputFormat.allCases {
      for select in [nil, ["id", "camera.mp", "camera", "tags", "nowhere", "a.b"]] {
        for files in [false, true] {
          let (values, text) = try Self.both(
            format, { try FileSource.open(path) }, select: select, files: files)
          #expect(values == text, "\(name) \(format) \(select ?? []) \(files)")
          #expect(!values.isEmpty)
        }
      }
    }
  }

  /// Values at the edges: NaN (null in JSON), infinities, -0.0, decimals, empty text, text
  /// with quotes, separators and line breaks, dates, times, durations, a null record, lists
  /// of records and objects of mixed values.
  @Test func valuesAtTheEdgesAreWrittenAsTheirTextWouldBe() throws {
    let inner = Schema([.init("x", .int), .init("y", .string)])
    let schema = Schema([
      .init("d", .double), .init("n", .decimal), .init("s", .string), .init("day", .date),
      .init("at", .dateTime), .init("t", .time), .init("span", .duration),
      .init("r", .record(inner)),
      .init("rs", .list(.record(inner))), .init("m", .any), .init("b", .bool),
    ])
    let object = Value.object(
      ObjectValue(keys: ["k", "x"], values: [.int(1), .list([.string("a\"")])]))
    let rows: [[Value]] = [
      [
        .double(.nan), .decimal(ExactDecimal("-12.50")!), .string(""),
        .date(CalendarDate(daysSinceEpoch: -1)),
        .dateTime(Instant(seconds: 1, nanoseconds: 5)), .time(TimeOfDay(hour: 24, minute: 0)!),
        .duration(TimeSpan(nanoseconds: -90_000_000_000)), .null,
        .list([.record([.int(1), .null])]),
        object, .bool(false),
      ],
      [
        .double(.infinity), .null, .string("a,\"b\"\n\tc\\"), .null, .null, .null, .null,
        .record([.int(-3), .string("é")]), .list([]), .string("plain"), .null,
      ],
      [
        .double(-.infinity), .decimal(ExactDecimal("0.001")!), .string("-5"), .null, .null, .null,
        .null,
        .record([.null, .null]), .null, .int(7), .bool(true),
      ],
      [
        .double(-0.0), .null, .string("null"), .null, .null, .null, .null, .null, .null, .null,
        .null,
      ],
    ]
    let table = ColumnTable(schema: schema, rows: rows)
    final class Source: RecordSource {
      let schema: Schema
      let table: ColumnTable
      init(_ table: ColumnTable) { (schema, self.table) = (table.schema, table) }
      var name: String { "edges" }
      var recordType: RecordType<DataRecord> { DataRecord.recordType(schema) }
      func read(_ body: (DataBlock) throws -> Bool) throws {
        _ = try body(.batches([RecordBatch(table, source: "edges")]))
      }
    }
    for format in OutputFormat.allCases {
      for select in [nil, ["r.x", "m.x", "m.k", "rs", "d", "s", "r"]] {
        let (values, text) = try Self.both(format, { Source(table) }, select: select, files: true)
        #expect(values == text, "\(format) \(select ?? [])\n\(values)\n\(text)")
      }
    }
  }

  /// `-H` names a Parquet file's path (it named none).
  @Test func aParquetFilesRowsNameIt() throws {
    let path = "\(Self.parquet)/small-plain.parquet"
    let (csv, _) = try Self.both(.csv, { try FileSource.open(path) }, select: ["id"], files: true)
    #expect(
      csv.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix(path + ",") }, "\(csv)")
  }
}
