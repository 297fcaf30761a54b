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
    let (taken, copied) = try Self.compare(format, seeds: 1...8, sizes: [64, 333, 1_000, 4_096])
    // (Both ways were taken: blocks as they were read, and blocks joined to what was kept.)
    #expect(taken > 100)
    #expect(copied > 10)
  }

  /// The same for a few files at one block size: few enough threads for ThreadSanitizer (CI
  /// runs this one under it; the test above makes thousands).
  @Test func aGzipFileReadAheadReadsWhatReadingInTurnReads() throws {
    let (taken, _) = try Self.compare("jsonl", seeds: 1...3, sizes: [1_000])
    #expect(taken > 10)
  }

  /// Reads gzip files of random records (`format`) at each block size of `sizes`, reading
  /// ahead and in turn, and expects the same; returns how many blocks read ahead were taken
  /// as they were read, and how many were joined to the bytes kept.
  static func compare(_ format: String, seeds: ClosedRange<UInt64>, sizes: [Int]) throws -> (
    taken: Int, copied: Int
  ) {
    var (taken, copied) = (0, 0)
    let (csv, array) = (format == "csv", format == "json")
    for seed in seeds {
      var random = SplitMix64(seed: seed &* 104_729 &+ (csv ? 1 : array ? 2 : 0))
      let broken = seed % 4 == 0
      let text = Parts.data(
        &random, csv: csv, array: array, count: random.int(20...400), broken: broken)
      // (Damaged: the error at the end is met by a read ahead.)
      let damaged = seed % 3 == 1
      let path = try DataFiles.write(
        GzipTests.stored(text, damaged: damaged), "ahead-\(seed).\(format).gz")
      let options = seed % 3 == 0 ? ReadOptions(types: ["price": .int]) : ReadOptions()
      for size in sizes {
        for inParts in [false, true] {
          let (inTurn, _) = Parts.reading(
            path, options: options, blockSize: size, inParts: inParts, ahead: false)
          let (ahead, reader) = Parts.reading(
            path, options: options, blockSize: size, inParts: inParts, ahead: true)
          #expect(
            ahead == inTurn,
            "seed \(seed), block size \(size), in parts \(inParts): \(Parts.difference(ahead, inTurn))"
          )
          if ahead != inTurn { return (taken, copied) }
          taken += reader?.aheadCounts.taken ?? 0
          copied += reader?.aheadCounts.joined ?? 0
        }
      }
    }
    return (taken, copied)
  }
}
