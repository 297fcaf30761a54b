import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// The next block of gzip data decoded on a thread of its own while a buffer is parsed
/// (`ReadAhead`) gives what reading it in turn gives: the same records, schema changes,
/// warnings and errors at the same places, whether the bytes the reader keeps were guessed
/// right (records a line) or not (records over several lines, CSV's quoted line breaks), in
/// parts or not.
@Suite struct ReadingAheadTests {
  typealias Parts = ReadingInPartsTests

  @Test(arguments: ["jsonl", "csv", "json"])
  func readingAheadReadsWhatReadingInTurnReads(format: String) throws {
    var (taken, copied) = (0, 0)
    let (csv, array) = (format == "csv", format == "json")
    for seed in UInt64(1)...8 {
      var random = SplitMix64(seed: seed &* 104_729 &+ (csv ? 1 : array ? 2 : 0))
      let broken = seed % 4 == 0
      let text = Parts.data(
        &random, csv: csv, array: array, count: random.int(20...400), broken: broken)
      // (Damaged: the error at the end is met by a read ahead.)
      let damaged = seed % 3 == 1
      let path = try DataFiles.write(
        GzipTests.stored(text, damaged: damaged), "ahead-\(seed).\(format).gz")
      let options = seed % 3 == 0 ? ReadOptions(types: ["price": .int]) : ReadOptions()
      for size in [64, 333, 1_000, 4_096] {
        for inParts in [false, true] {
          let (inTurn, _) = Parts.reading(
            path, options: options, blockSize: size, inParts: inParts, ahead: false)
          let (ahead, reader) = Parts.reading(
            path, options: options, blockSize: size, inParts: inParts, ahead: true)
          #expect(
            ahead == inTurn,
            "seed \(seed), block size \(size), in parts \(inParts): \(Parts.difference(ahead, inTurn))"
          )
          if ahead != inTurn { return }
          taken += reader?.aheadCounts.taken ?? 0
          copied += reader?.aheadCounts.joined ?? 0
        }
      }
    }
    // (Both ways were taken: blocks as they were read, and blocks joined to what was kept.)
    #expect(taken > 100)
    #expect(copied > 10)
  }
}
