import Foundation
import TestSupport
import Testing

@testable import FilterData

/// LZ4 blocks as pyarrow's LZ4 (the reference library) writes them for Parquet's `LZ4_RAW`
/// (`Scripts/make-parquet-fixtures.py`; the inputs are the zstd fixtures'): every input back,
/// byte for byte; blocks made by hand for runs, long lengths and Hadoop's frames (the older
/// `LZ4` codec). Cut or changed bytes give an error or output of the length expected, never a
/// trap.
@Suite struct LZ4Tests {
  static let folder = DataFiles.root.appendingPathComponent("Tests/Fixtures/lz4").path
  static let inputs = DataFiles.root.appendingPathComponent("Tests/Fixtures/zstd").path

  static func decompress(_ bytes: [UInt8], expected: Int, hadoop: Bool = false)
    throws(LZ4.Failure) -> [UInt8]
  {
    let result: Result<[UInt8], LZ4.Failure> = bytes.withUnsafeBytes { raw in
      Result { () throws(LZ4.Failure) in
        hadoop
          ? try LZ4.decompressHadoop(raw, expected: expected)
          : try LZ4.decompress(raw, expected: expected)
      }
    }
    return try result.get()
  }

  @Test(arguments: ZstdTests.inputs)
  func readsWhatTheReferenceWrote(name: String) throws {
    let raw = try ParquetEncodingTests.bytes("\(Self.inputs)/\(name).raw")
    let compressed = try ParquetEncodingTests.bytes("\(Self.folder)/\(name).lz4")
    #expect(try Self.decompress(compressed, expected: raw.count) == raw)
    #expect(throws: LZ4.Failure.self) { try Self.decompress(compressed, expected: raw.count + 1) }
    if !raw.isEmpty {
      #expect(throws: LZ4.Failure.self) {
        try Self.decompress(compressed, expected: raw.count - 1)
      }
    }
  }

  @Test func handMadeBlocks() throws {
    let a = UInt8(ascii: "a")
    let b = UInt8(ascii: "b")
    // One literal, then a copy of it 20 long (15, then 1 more, then the 4 every copy has),
    // overlapping what it writes; then literals only.
    let run: [UInt8] = [0x1F, a, 0x01, 0x00, 0x01, 0x10, b]
    #expect(try Self.decompress(run, expected: 22) == Array(repeating: a, count: 21) + [b])
    // A literal length of 15 + 255 + 3 = 273.
    let literals = [UInt8](repeating: 7, count: 273)
    #expect(try Self.decompress([0xF0, 255, 3] + literals, expected: 273) == literals)
    // An offset of 0, or before the output's start; a length past the output.
    #expect(throws: LZ4.Failure.self) {
      try Self.decompress([0x10, a, 0x00, 0x00], expected: 5)
    }
    #expect(throws: LZ4.Failure.self) {
      try Self.decompress([0x10, a, 0x02, 0x00], expected: 5)
    }
    #expect(throws: LZ4.Failure.self) {
      try Self.decompress([0xF0] + [UInt8](repeating: 255, count: 40), expected: 500)
    }
    // More output than any block of its size can give is refused before it is allocated.
    #expect(throws: LZ4.Failure.self) { try Self.decompress([0x10, a], expected: 1 << 30) }
  }

  /// Hadoop's frames (the older `LZ4` codec): each the bytes it gives and takes, big-endian,
  /// then a block; a block without them is read as one.
  @Test func hadoopFrames() throws {
    let text = Array("flt reads LZ4".utf8)
    let block = [UInt8(text.count) << 4] + text
    func frame(_ block: [UInt8], gives: Int) -> [UInt8] {
      [0, 0, 0, UInt8(gives), 0, 0, 0, UInt8(block.count)] + block
    }
    #expect(try Self.decompress(frame(block, gives: 13), expected: 13, hadoop: true) == text)
    #expect(
      try Self.decompress(
        frame(block, gives: 13) + frame(block, gives: 13), expected: 26, hadoop: true)
        == text + text)
    #expect(try Self.decompress(block, expected: 13, hadoop: true) == text)
    #expect(throws: LZ4.Failure.self) {
      try Self.decompress(frame(block, gives: 13), expected: 14, hadoop: true)
    }
  }

  @Test(arguments: ZstdTests.inputs)
  func cutOrChangedBytesNeverTrap(name: String) throws {
    let raw = try ParquetEncodingTests.bytes("\(Self.inputs)/\(name).raw")
    let compressed = try ParquetEncodingTests.bytes("\(Self.folder)/\(name).lz4")
    for length in stride(from: 0, to: compressed.count, by: Swift.max(1, compressed.count / 50)) {
      if let out = try? Self.decompress(Array(compressed.prefix(length)), expected: raw.count) {
        #expect(out.count == raw.count)
      }
    }
    var rng = SplitMix64(seed: UInt64(name.utf8.count))
    for _ in 0..<100 {
      var bytes = compressed
      guard !bytes.isEmpty else { break }
      bytes[Int(rng.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
      if let out = try? Self.decompress(bytes, expected: raw.count) {
        #expect(out.count == raw.count)
      }
    }
  }
}
