import FilterDSL
import Foundation
import Testing

@testable import FilterData

/// `Scan`: a query over files in one call, through the public API as an embedder writes it.
@Suite struct ScanTests {
  static let phones = DataFiles.root.appendingPathComponent("examples/phones.json").path

  /// Every record of `path`, read as the reader reads them, for answers worked out by hand.
  static func allRecords(_ path: String) throws -> (Schema, [[Value]]) {
    let reader = try DataReader(path: path)
    var values: [[Value]] = []
    while let block = try reader.next() { values += block.map(\.values) }
    return (reader.schema, values)
  }

  static func int(_ value: Value) -> Int64? {
    if case .int(let number) = value { number } else { nil }
  }

  @Test func oneCallGivesTheMatchesInOrder() throws {
    let records = try Scan(file: Self.phones, query: "price < 800 order by price desc").records()
    let (schema, all) = try Self.allRecords(Self.phones)
    let price = try #require(schema.fields.firstIndex { $0.name == "price" })
    let expected = all.compactMap { Self.int($0[price]) }.filter { $0 < 800 }.sorted(by: >)
    #expect(!expected.isEmpty)
    #expect(records.map { Self.int($0.values[price]) } == expected)
    // Each record keeps its text as the file had it.
    #expect(records.allSatisfy { String(decoding: $0.text, as: UTF8.self).contains("\"price\"") })
  }

  /// The README's example, as written there (run from the package's folder).
  @Test func theReadmeExampleRuns() throws {
    let root = DataFiles.root.path
    let files = ["examples/phones.json", "examples/phones.json.gz"].map { root + "/" + $0 }
    var warnings: [String] = []
    let scan = try Scan(
      query: SourceText("diskSpace >= 512 order by price desc limit 3"), files: files,
      warn: { warnings.append($0) })
    let out = OutputSink()
    let summary = try scan.run(
      into: RecordWriter(.csv, for: scan.first, select: ["model", "price"], to: out))
    let lines = out.text.split(separator: "\n")
    #expect(lines.first == "model,price" && lines.count == 4 && summary.matches == 3)
    let prices = lines.dropFirst().compactMap { $0.split(separator: ",").last.flatMap { Int($0) } }
    #expect(prices == prices.sorted(by: >) && prices.count == 3)
    #expect(warnings.isEmpty && summary.faults.isEmpty)
  }

  @Test func aFieldThatWidensLateIsFollowedAndSaidOnce() throws {
    // Past the sample the schema is inferred from: `n` is an integer, then a decimal.
    let count = DataReader.sampleRecords + 500
    let lines = (0..<count).map { #"{"n": \#($0)}"# } + [#"{"n": 0.5}"#]
    let path = try DataFiles.write(lines.joined(separator: "\n") + "\n", "widens.jsonl")
    var warnings: [String] = []
    let scan = try Scan(
      query: SourceText("n < 2 order by n"), files: [path], warn: { warnings.append($0) })
    let records = try scan.records()
    #expect(records.map { $0.values[0] } == [.int(0), .double(0.5), .int(1)])
    #expect(warnings.count == 1 && warnings[0].contains("filtered with 'n' as integers"))
  }

  @Test func eachFileOnItsOwnCountsEachFile() throws {
    let first = try DataFiles.write("{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3}\n", "one.jsonl")
    let second = try DataFiles.write("{\"a\": 5}\n{\"a\": 1}\n", "two.jsonl")
    let out = OutputSink()
    let scan = try Scan(
      query: SourceText("a < 3 limit 1"), files: [first, second],
      options: Scan.Options(perFile: true))
    let summary = try scan.run(into: CountSink(to: out, perSource: true))
    // `limit 1` holds per file, as grep's -m does.
    #expect(out.text == "\(first):1\n\(second):1\n")
    #expect(summary.matches == 2)
    let together = OutputSink()
    try Scan(query: SourceText("a < 3 limit 1"), files: [first, second]).run(
      into: CountSink(to: together))
    #expect(together.text == "1\n")
  }

  @Test func aFirstMatchIsEnoughWhenAsked() throws {
    let first = try DataFiles.write("{\"a\": 1}\n", "first.jsonl")
    // Never opened: the first file answered.
    let missing = first + ".missing"
    let scan = try Scan(
      query: SourceText("a == 1"), files: [first, missing],
      options: Scan.Options(stopsAtFirstMatch: true))
    #expect(try scan.run(into: CountSink(to: nil)).matches == 1)
    // Without it, the missing file is an error.
    #expect(throws: DataError.self) {
      try Scan(query: SourceText("a == 1"), files: [first, missing]).records()
    }
  }

  /// A sink of one's own that cannot take more stops the scan: the next file is not read.
  @Test func aFailingSinkStopsTheScan() throws {
    final class Refusing: RecordSink {
      var count = 0
      var failure: String? { count > 0 ? "full" : nil }
      func write(_ record: DataRecord) { count += 1 }
      func finish() {}
    }
    let first = try DataFiles.write("{\"a\": 1}\n", "full.jsonl")
    let sink = Refusing()
    try Scan(query: SourceText("a == 1"), files: [first, first + ".missing"]).run(into: sink)
    #expect(sink.count == 1)
  }

  @Test func aFixedTypeForAFieldTheFileLacksIsAMisspelling() throws {
    let path = try DataFiles.write("{\"price\": 1}\n", "types.jsonl")
    let options = Scan.Options(reading: ReadOptions(types: ["prize": .int]))
    let error = try #require(throws: ScanError.self) {
      try Scan(query: SourceText("true"), files: [path], options: options)
    }
    #expect(error.message.contains("has no field prize"))
    #expect(error.help == "did you mean --type price=...?")
  }

  @Test func filesWithOtherFieldsAreNotSortedTogether() throws {
    let first = try DataFiles.write("{\"a\": 1}\n", "a.jsonl")
    let second = try DataFiles.write("{\"b\": 1}\n", "b.jsonl")
    let scan = try Scan(query: SourceText("true order by a"), files: [first, second])
    let error = try #require(throws: ScanError.self) { try scan.records() }
    #expect(error.message.contains("has other fields than"))
    // Without a sort, they are one input.
    #expect(try Scan(query: SourceText("true"), files: [first, second]).records().count == 2)
  }
}

/// A data error stops the reading where it is, after the records before it: they stream out
/// first (they were dropped with the block they were in, or never read when the error was in
/// the sample the schema is inferred from).
@Suite struct RecordsBeforeAnErrorTests {
  static let lines = (1...5).map { #"{"a": \#($0)}"# } + [#"{"a": 6,,}"#, #"{"a": 7}"#]

  @Test(arguments: [16, 64, 4096])
  func recordsBeforeAnErrorAreHandedOverFirst(blockSize: Int) throws {
    let path = try DataFiles.write(Self.lines.joined(separator: "\n") + "\n", "bad.jsonl")
    for byColumn in [false, true] {
      let reader = try DataReader(path: path, format: nil, blockSize: blockSize)
      var seen: [Value] = []
      let error = try #require(throws: DataError.self) {
        while let block = try reader.nextBlock(byColumn: byColumn) {
          switch block {
          case .records(let records): seen += records.map { $0.values[0] }
          case .batches(let batches):
            for batch in batches { seen += batch.records(batch.table.rows).map { $0.values[0] } }
          }
        }
      }
      #expect(seen == (1...5).map { .int(Int64($0)) }, "block size \(blockSize)")
      #expect(error.line == 6 && error.description.contains("expected a key in quotes"))
    }
  }

  @Test func aScanWritesThemBeforeItThrows() throws {
    let path = try DataFiles.write(
      "a,b\n1,2\n3,4\n5,\"x\"y\n6,7\n", "bad.csv")
    let collector = RecordCollector()
    #expect(throws: DataError.self) {
      try Scan(query: SourceText("a > 1"), files: [path]).run(into: collector)
    }
    #expect(collector.records.map { $0.values[0] } == [.int(3)])
  }
}
