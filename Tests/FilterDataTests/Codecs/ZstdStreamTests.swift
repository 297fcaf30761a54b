import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// Zstandard read as a stream (`.zst` files, zstd on standard input): the reference library's
/// frames fed in random pieces give the same bytes as decoded whole; frames follow one
/// another and skippable frames are passed over; what is damaged, cut short or asks for too
/// large a window is an error that says where, never a trap; and a file or a pipe of zstd data
/// reads as its uncompressed twin.
@Suite struct ZstdStreamTests {
  @Test(arguments: ZstdTests.inputs + ["orders"])
  func piecesGiveWhatTheWholeGives(name: String) throws {
    for level in name == "orders" ? [3] : [1, 3, 19] {
      let compressed = try ParquetEncodingTests.bytes("\(ZstdTests.folder)/\(name)-\(level).zst")
      let whole: [UInt8]
      if name == "orders" {
        whole = try StreamedPieces.decoded(compressed, seed: 0, limit: Int.max)
      } else {
        whole = try ParquetEncodingTests.bytes("\(ZstdTests.folder)/\(name).raw")
      }
      // (The orders, megabytes of them, in big pieces: in small ones a debug build takes long.)
      for seed in UInt64(0)..<3 {
        let limit = name == "orders" ? 1 << 20 : [1 << 20, 7, 1000][Int(seed)]
        #expect(
          try StreamedPieces.decoded(compressed, seed: seed, limit: limit) == whole, "\(name)")
      }
    }
  }

  /// Frames one after another and skippable frames, as `cat a.zst b.zst` makes.
  @Test func framesFollowOneAnother() throws {
    let first = ZstdTests.frame(
      7,
      blocks: ZstdTests.block(last: false, type: 0, size: 3) + Array("flt".utf8)
        + ZstdTests.block(last: true, type: 1, size: 4) + [UInt8(ascii: "!")])
    let skippable: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 9, 9, 9]
    let second = ZstdTests.frame(2, blocks: ZstdTests.block(last: true, type: 1, size: 2) + [0x41])
    for seed in 0..<20 {
      #expect(
        try StreamedPieces.decoded(first + skippable + second + skippable, seed: UInt64(seed))
          == Array("flt!!!!AA".utf8))
    }
  }

  /// Damaged, cut short, or asking for more than it may: an error saying what and where.
  @Test func damageIsAnErrorThatSaysWhere() throws {
    let compressed = try ParquetEncodingTests.bytes("\(ZstdTests.folder)/json-3.zst")
    // Cut anywhere: the data ends inside a frame.
    var random = SplitMix64(seed: 7)
    for _ in 0..<50 {
      let cut = random.int(1...(compressed.count - 1))
      #expect(throws: DecompressionFailure.self) {
        _ = try StreamedPieces.decoded(Array(compressed[..<cut]), seed: 1)
      }
    }
    // A byte changed: an error (or other bytes, never a trap), with where it was found.
    var failures = 0
    for _ in 0..<200 {
      var changed = compressed
      let at = random.int(0...(changed.count - 1))
      changed[at] ^= UInt8(random.int(1...255))
      do {
        _ = try StreamedPieces.decoded(changed, seed: 2)
      } catch {
        failures += 1
        #expect(error.offset.map { $0 >= 0 && $0 <= changed.count } == true)
      }
    }
    #expect(failures > 20)
    // Not zstd after a frame: said.
    let trailing = try ParquetEncodingTests.bytes("\(ZstdTests.folder)/text-3.zst") + [1, 2, 3, 4]
    #expect {
      _ = try StreamedPieces.decoded(trailing, seed: 3)
    } throws: { error in
      (error as? DecompressionFailure)?.description == "a frame does not start as one"
    }
    // A window of 2 GB (exponent 21: 2^31), which `zstd -d` refuses too.
    let huge: [UInt8] =
      [0x28, 0xB5, 0x2F, 0xFD, 0x00, 21 << 3]
      + ZstdTests.block(
        last: true, type: 1, size: 1) + [0x41]
    #expect {
      _ = try StreamedPieces.decoded(huge, seed: 4)
    } throws: { error in
      (error as? DecompressionFailure)?.description.contains("a window of 2048 MB") == true
    }
  }

  /// A run-length block after another, each claiming 128 KiB, in a frame of a window of
  /// 1 MiB: the stream keeps no more than twice the window however long the frame.
  @Test func memoryStaysWithinTheWindow() throws {
    // Window 1 MiB (exponent 10: 2^20), no size given; 200 blocks of 128 KiB of one byte.
    var frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 10 << 3]
    for index in 0..<200 {
      frame += ZstdTests.block(last: index == 199, type: 1, size: 1 << 17) + [UInt8(index)]
    }
    var stream = ZstdStream()
    stream.feed(frame[...])
    stream.endInput()
    var total = 0
    var most = 0
    while let piece = try stream.nextChunk(limit: 1 << 16) {
      total += piece.count
      most = Swift.max(most, stream.keptBytes)
    }
    #expect(total == 200 << 17)
    #expect(most <= 2 << 20 + 1 << 17)
  }

  /// A `.zst` file and zstd on standard input read as their uncompressed twin, by their first
  /// bytes whatever the name; the format by the name before `.zst`.
  @Test func filesAndPipesReadAsTheirTwins() throws {
    let compressed = try ParquetEncodingTests.bytes("\(ZstdTests.folder)/json-3.zst")
    let raw = try ParquetEncodingTests.bytes("\(ZstdTests.folder)/json.raw")
    let named = try DataFiles.write(compressed, "records.jsonl.zst")
    let twin = try DataFiles.write(raw, "records.jsonl")
    #expect(DataFormat(path: named) == .jsonl)
    #expect(DataFormat(path: "a.CSV.ZST") == .csv)
    let read = try DataReader(path: named)
    let expected = try DataReader(path: twin)
    #expect(read.schema == expected.schema)
    func all(_ reader: DataReader) throws -> [String] {
      var out: [String] = []
      while let block = try reader.next() { out += block.map { $0.values.description } }
      return out
    }
    #expect(try all(read) == all(expected))
    let unnamed = try DataFiles.write(compressed, "records.bin")
    let sniffed = try DataReader(path: unnamed, format: .jsonl)
    #expect(try all(sniffed) == all(try DataReader(path: twin)))
  }
}
