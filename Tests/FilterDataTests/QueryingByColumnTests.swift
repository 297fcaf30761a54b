import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// A query run over a file's blocks read by column (``DataReader/nextBatches()``: filtered over
/// each batch's columns, only the matches made into records) hands back the records, faults,
/// warnings and errors that the same run over blocks of records gives: whatever the block size,
/// the paging, the sorting, and the schema's growth while the file is read.
@Suite struct QueryingByColumnTests {
  /// What a run gave.
  struct Outcome: Equatable {
    var records: [String] = []
    var faults: [Int] = []
    var warnings: [String] = []
    var error: String? = nil
  }

  /// Runs `query` over `path` as the one-shot command does: the query compiled for the
  /// reader's records, again whenever the schema grows (the matches kept to sort are read
  /// again then), reading stopped once the query is complete. The schema is inferred from
  /// the first `sample` records.
  static func run(
    _ query: String, _ path: String, _ options: ReadOptions, blockSize: Int, sample: Int,
    byColumn: Bool
  ) -> Outcome {
    var outcome = Outcome()
    do {
      let reader = try DataReader(
        path: path, format: nil, options: options, blockSize: blockSize, sample: sample)
      // (The clock is set, as the command sets it: `today()` is not the epoch.)
      func compiled() throws -> CompiledQuery<DataRecord> {
        try CompiledQuery(query, for: reader.recordType).binding(
          [:], now: Instant(seconds: 1_700_000_000))
      }
      var execution = QueryExecution(try compiled(), retaining: \.detached)
      reader.decodeOnly(Set(execution.query.query.fieldNames))
      var version = reader.schemaVersion
      while !execution.isComplete, let block = try reader.nextBlock(byColumn: byColumn) {
        if reader.schemaVersion != version {
          version = reader.schemaVersion
          execution.replace(with: try compiled(), updatingKeptFrom: 0, reader.redecoded)
        }
        outcome.records += execution.consume(block).map(Self.text)
        outcome.warnings += reader.takeWarnings().map(\.description)
      }
      outcome.records += execution.finish().map(Self.text)
      let faults = execution.faults
      outcome.faults = [
        faults[.integerOverflow], faults[.divisionByZero], faults[.invalidConversion],
        faults[.dateOutOfRange],
      ]
      if faults.overLimit != nil { outcome.error = "over the limit" }
    } catch {
      outcome.error = "\(error)"
    }
    return outcome
  }

  static func text(_ record: DataRecord) -> String { String(decoding: record.text, as: UTF8.self) }

  /// A random query over the fields of ``ReadingIntoColumnsTests``' data: comparisons,
  /// text tests, nested fields, lists, arithmetic that faults, joined by `and`, `or`, `not`;
  /// sorted or not, paged or not.
  static func query(_ random: inout SplitMix64, csv: Bool) -> String {
    func atom(_ random: inout SplitMix64) -> String {
      random.pick([
        "price < \(random.int(0...40))", "price >= \(random.int(0...40))", "price == 7",
        "price * 2 > 30", "100 / (id % 3) > 40", "id % 7 == 0", "id between 10 and 200",
        #"name == "Snow""#, #"name in ("Snow", "é", "Space Black")"#, #"name contains[c] "b""#,
        "name is null", #"name like "S*""#, "camera.mp >= 12", "camera.zoom > 1",
        csv ? "camera.mp is null" : "camera is null", #"any tags == "5G""#,
        "tags contains eSIM", "len(tags) >= 2", "released < 2023-01-01", "released is null",
        "released < today() - 400d",
        "id * 4611686018427387904 > 0",
      ])
    }
    func filter(_ random: inout SplitMix64, _ depth: Int) -> String {
      guard depth > 0, random.chance(0.6) else { return atom(&random) }
      switch random.int(0...2) {
      case 0: return "(\(filter(&random, depth - 1)) and \(filter(&random, depth - 1)))"
      case 1: return "(\(filter(&random, depth - 1)) or \(filter(&random, depth - 1)))"
      default: return "not \(filter(&random, depth - 1))"
      }
    }
    var text = random.chance(0.1) ? "" : filter(&random, 2)
    if random.chance(0.4) {
      text += " order by " + random.pick(["price desc", "id", "name, id desc", "camera.mp, id"])
    }
    if random.chance(0.4) { text += " limit \(random.int(0...30))" }
    if random.chance(0.2) { text += " offset \(random.int(0...20))" }
    return text
  }

  @Test(arguments: ["jsonl", "json", "csv"])
  func byColumnAsByRecord(format: String) throws {
    for seed in UInt64(1)...8 {
      var random = SplitMix64(seed: seed &* 7_919 &+ UInt64(format.utf8.count))
      let (path, options) = try ReadingIntoColumnsTests.file(
        &random, format: format, seed: seed, name: "query-\(seed)")
      for _ in 0..<5 {
        let query = Self.query(&random, csv: format == "csv")
        // A schema inferred from every record (only then are a sort's matches pruned by
        // batch), or one that grows.
        let sample = seed % 2 == 0 ? 20 : 1_000
        for size in [97, 1 << 20] {
          let expected = Self.run(
            query, path, options, blockSize: size, sample: sample, byColumn: false)
          let got = Self.run(
            query, path, options, blockSize: size, sample: sample, byColumn: true)
          #expect(got == expected, "seed \(seed), block size \(size): \(query)")
          if got != expected { return }
        }
      }
    }
  }
}

extension QueryingByColumnTests {
  @Test func aBatchReaderThatLearnedManyValuesStartsAgain() throws {
    // Text that is rarely repeated: the rows' builder would keep every distinct value of the
    // file, block after block; it starts again once it holds more than it may keep.
    let text = (0..<3_000).map { #"{"id": \#($0), "name": "n\#($0 / 2)", "kind": "k\#($0 % 3)"}"# }
      .joined(separator: "\n")
    let path = try DataFiles.write(text + "\n", "distinct.jsonl")
    let reader = try DataReader(path: path, format: nil, blockSize: 4_096, sample: 20)
    reader.batchCodedValues = 200
    let query = try CompiledQuery(#"name like "n1*" and kind != k1"#, for: reader.recordType)
    var (matched, most, starts) = (0, 0, 0)
    var codes = 0
    while let batches = try reader.nextBatches() {
      let held = reader.rows?.builder.codedValues ?? 0
      if held < codes { starts += 1 }
      let second = reader.secondRows?.builder.codedValues ?? 0
      (codes, most) = (held, Swift.max(most, held, second))
      for batch in batches {
        let rows = query.compiled(for: batch.table.recordType).run(batch.table.rows).records
        matched += batch.records(rows).count
      }
    }
    // (At most the limit, and a block's values: about 50 records' names and kinds.)
    #expect(most > 100 && most <= 200 + 2 * 60)
    #expect(starts > 3)
    let expected = (0..<3_000).filter { String($0 / 2).hasPrefix("1") && $0 % 3 != 1 }.count
    #expect(matched == expected)
  }
}
