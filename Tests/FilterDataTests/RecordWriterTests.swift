import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// Writers take columns, not a reader: an embedder prints records it made itself.
@Suite struct RecordWriterTests {
  static let camera = Schema([.init("megapixels", .int), .init("zoom", .double, optional: true)])
  static let schema = Schema([
    .init("model", .string), .init("price", .int), .init("camera", .record(camera)),
    .init("tags", .list(.string)), .init("released", .date),
  ])
  static let records = [
    DataRecord(
      [
        .string("Pixel \"7\""), .int(599), .record([.int(50), .double(2.5)]),
        .list([.string("5G")]), .date(CalendarDate(daysSinceEpoch: 19_251)),
      ], schema: schema),
    DataRecord(
      [.string("Old"), .null, .record([.int(8), .null]), .list([]), .null], schema: schema),
  ]

  static func written(_ format: OutputFormat, select: [String]? = nil) -> String {
    let out = OutputSink()
    let writer = RecordWriter(format, columns: schema.names, select: select, to: out)
    for record in records { writer.write(record) }
    writer.finish()
    return out.text
  }

  @Test func recordsMadeFromValuesAreJSONObjects() {
    #expect(
      RecordWriterTests.written(.jsonl) == """
        {"model":"Pixel \\"7\\"","price":599,"camera":{"megapixels":50,"zoom":2.5},"tags":["5G"],"released":"2022-09-16"}
        {"model":"Old","price":null,"camera":{"megapixels":8,"zoom":null},"tags":[],"released":null}

        """)
  }

  /// A record longer than the output's buffer (a value of megabytes) is written as it is
  /// compacted, straight to the file, not gathered first: the same bytes as a short one's,
  /// whitespace inside its strings kept, outside them dropped, records in order.
  @Test func aLongRecordIsWrittenAsAShortOne() throws {
    let long = String(repeating: "ab c\t", count: 400_000)
    let texts = [
      "{ \"a\" : \"x  y\",\n  \"long\": \"\(long)\", \"b\": [1, 2] }", "{\"a\": \"short\"}",
    ]
    let url = TemporaryFiles.url("long-record.jsonl")
    #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
    let file = try FileHandle(forWritingTo: url)
    let out = OutputSink(descriptor: file.fileDescriptor)
    let writer = RecordWriter(.jsonl, columns: ["a", "long", "b"], select: nil, to: out)
    for text in texts { writer.write(DataRecord(values: [], text: Array(text.utf8)[...])) }
    writer.finish()
    try file.close()
    #expect(out.failure == nil)
    let written = try String(contentsOf: url, encoding: .utf8)
    #expect(written == "{\"a\":\"x  y\",\"long\":\"\(long)\",\"b\":[1,2]}\n{\"a\":\"short\"}\n")
  }

  @Test func everyFormatWritesThem() {
    #expect(
      RecordWriterTests.written(.csv, select: ["model", "camera.megapixels", "price"])
        == ["model,camera.megapixels,price", #""Pixel ""7""",50,599"#, "Old,8,", ""].joined(
          separator: "\n"))
    let table = RecordWriterTests.written(.table, select: ["model", "price"])
    #expect(table.contains("Pixel \"7\"") && table.contains("599") && table.contains("2 rows"))
  }

  /// Records a field a line, for records too wide for a table: names padded, values as a
  /// table shows them, a count at the end; on a screen, as many records as fit.
  @Test func recordsAFieldALine() {
    #expect(
      RecordWriterTests.written(.records, select: ["model", "price", "camera.zoom"]) == """
        ── 1 ───────────────────
        model        Pixel "7"
        price        599
        camera.zoom  2.5
        ── 2 ───────────────────
        model        Old
        price        null
        camera.zoom  null
        2 records

        """)
    let out = OutputSink()
    let writer = RecordWriter(.records, columns: ["a", "b"], select: nil, to: out)
    // Nine lines: three records of two fields and a rule each.
    writer.maxRows = 9
    for n in 0..<5 { writer.write(DataRecord([.int(Int64(n)), .null], schema: Self.pair)) }
    writer.finish()
    #expect(writer.shown == 3 && out.text.hasSuffix("a  2\nb  null\n3 of 5 records\n"))
  }

  static let pair = Schema([.init("a", .int), .init("b", .int, optional: true)])

  /// A table fitted to a width (a terminal's): the widest columns narrow first, their cells
  /// cut with `…`; numbers stay right-aligned; no line is wider than asked.
  @Test func tablesFitTheWidthAskedFor() {
    var table = TableLayout(headers: ["model", "note", "price"])
    table.rows = [
      [
        .init("Galaxy Z Fold4", isNumber: false),
        .init(String(repeating: "a long note ", count: 3), isNumber: false),
        .init("1799", isNumber: true),
      ],
      [
        .init("iPhone SE", isNumber: false), .init("short", isNumber: false),
        .init("429", isNumber: true),
      ],
    ]
    let wide = table.text(footer: "")
    #expect(wide.split(separator: "\n").map { DisplayWidth.of($0) }.max() == 14 + 2 + 36 + 2 + 5)
    for width in [40, 30, 20] {
      table.maxTotalWidth = width
      let lines = table.text(footer: "").split(separator: "\n")
      #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(width): \(lines)")
      #expect(lines.last?.hasSuffix("  429") == true)
      #expect(lines[2].contains("…"))
    }
    // Too narrow for every column at 4: the columns stop at 4 and the line is as short as it
    // can be.
    table.maxTotalWidth = 5
    #expect(table.text(footer: "").split(separator: "\n")[0] == "mod…  note  pri…")
    // A table cut to fit says how to see the rest; one that fits says nothing more.
    table.cutHint = "show f1, f2 or set format records"
    #expect(
      table.text(footer: "2 rows").hasSuffix(
        "\n2 rows (cut to fit: show f1, f2 or set format records)\n"))
    table.maxTotalWidth = 80
    #expect(table.text(footer: "2 rows").hasSuffix("429\n2 rows\n"))
  }

  /// CSV flattens nested records to a column per field inside, as the CSV reader nests such
  /// headers again; lists stay JSON text in one cell.
  @Test func csvFlattensNestedRecords() throws {
    let columns = RecordWriter.columns(of: Self.schema, for: .csv)
    #expect(columns == ["model", "price", "camera.megapixels", "camera.zoom", "tags", "released"])
    #expect(RecordWriter.columns(of: Self.schema, for: .jsonl) == Self.schema.names)
    let out = OutputSink()
    let writer = RecordWriter(.csv, columns: columns, select: nil, to: out)
    for record in Self.records { writer.write(record) }
    #expect(
      out.text == """
        model,price,camera.megapixels,camera.zoom,tags,released
        "Pixel ""7\""\",599,50,2.5,"[""5G""]",2022-09-16
        Old,,8,,[],

        """)
    // Read back, the columns nest again under `camera`.
    let read = try DataReader(path: try DataFiles.write(out.text, "flat.csv"))
    #expect(read.schema.fields.map(\.name) == ["model", "price", "camera", "tags", "released"])
    #expect(read.schema.type(of: FieldPath("camera.zoom")) == .double)

    // And JSON output of those rows nests them too, as the JSON they came from.
    let json = OutputSink()
    let jsonWriter = RecordWriter(.jsonl, columns: read.schema.names, select: nil, to: json)
    while let block = try read.next() { block.forEach(jsonWriter.write) }
    jsonWriter.finish()
    #expect(
      json.text == #"""
        {"model":"Pixel \"7\"","price":599,"camera":{"megapixels":50,"zoom":2.5},"tags":"[\"5G\"]","released":"2022-09-16"}
        {"model":"Old","price":null,"camera":{"megapixels":8,"zoom":null},"tags":"[]","released":null}

        """#)
  }

  /// Null and empty text look different: in a table, null shows as `null` (or the text
  /// asked for) and empty text as nothing; in CSV, null is an empty cell and empty text `""`.
  @Test func nullAndEmptyTextStayApart() throws {
    let schema = Schema([.init("name", .string, optional: true), .init("n", .int, optional: true)])
    let records = [
      DataRecord([.string(""), .int(1)], schema: schema),
      DataRecord([.null, .null], schema: schema),
      DataRecord([.string("x"), .int(22)], schema: schema),
    ]
    func written(_ format: OutputFormat, null: String? = nil, styled: Bool = false) -> String {
      let out = OutputSink()
      let writer = RecordWriter(format, columns: schema.names, select: nil, to: out)
      if let null { writer.nullText = null }
      writer.styled = styled
      for record in records { writer.write(record) }
      writer.finish()
      return out.text
    }
    #expect(written(.csv) == "name,n\n\"\",1\n,\nx,22\n")
    // TSV has no quotes (as its readers expect): empty text and null are both empty.
    #expect(written(.tsv) == "name\tn\n\t1\n\t\nx\t22\n")
    #expect(
      written(.table) == """
        name     n
        ────  ────
                 1
        null  null
        x       22
        3 rows

        """)
    #expect(written(.table, null: "∅").contains("\n∅      ∅\n"))
    // On a terminal, null is dimmed (the padding does not count the escapes).
    #expect(
      written(.table, styled: true).contains("\n\u{1B}[2mnull\u{1B}[0m  \u{1B}[2mnull\u{1B}[0m\n"))
    // The CSV reader reads them back apart: "" is empty text, an empty cell null (and
    // writes them out again the same way).
    let path = try DataFiles.write(written(.csv), "apart.csv")
    let read = try DataFiles.read(path)
    #expect(read.values.map(\.first) == [.string(""), .null, .string("x")])
    let loaded = try LoadedRecords(reading: DataReader(path: path))
    let again = OutputSink()
    let writer = RecordWriter(.csv, for: try DataReader(path: path), select: nil, to: again)
    for record in loaded.records([0, 1, 2]) { writer.write(record) }
    #expect(again.text == written(.csv))
  }
}
