import FilterDSL
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

  @Test func everyFormatWritesThem() {
    #expect(
      RecordWriterTests.written(.csv, select: ["model", "camera.megapixels", "price"])
        == ["model,camera.megapixels,price", #""Pixel ""7""",50,599"#, "Old,8,", ""].joined(
          separator: "\n"))
    let table = RecordWriterTests.written(.table, select: ["model", "price"])
    #expect(table.contains("Pixel \"7\"") && table.contains("599") && table.contains("2 rows"))
  }
}
