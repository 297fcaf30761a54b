import FilterDSL
import Testing

@testable import FilterData

/// The README's data-file example, through the public API, so that it stays true.
@Suite struct ReadmeDataTests {
  @Test(arguments: ["diskSpace >= 512 limit 3", "diskSpace >= 512 order by price desc limit 3"])
  func theDataFileExampleRunsTheOnePipeline(text: String) throws {
    let reader = try DataReader(
      path: DataFiles.root.appendingPathComponent("examples/phones.json").path)
    let query = try CompiledQuery(text, for: reader.recordType)
    reader.decodeOnly(Set(query.query.fieldNames))
    let out = OutputSink()
    let writer = RecordWriter(.csv, for: reader, select: ["model", "price"], to: out)
    var execution = QueryExecution(query, retaining: \.detached)
    while !execution.isComplete, let block = try reader.nextBlock(byColumn: true) {
      for record in execution.consume(block) { writer.write(record) }
    }
    for record in execution.finish() { writer.write(record) }
    writer.finish()
    let lines = out.text.split(separator: "\n")
    #expect(lines.first == "model,price" && lines.count == 4)
    if text.contains("order by") {
      let prices = lines.dropFirst().compactMap {
        $0.split(separator: ",").last.flatMap { Int($0) }
      }
      #expect(prices == prices.sorted(by: >) && prices.count == 3)
    }
  }
}
