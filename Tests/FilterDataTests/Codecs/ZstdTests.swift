import Foundation
import TestSupport
import Testing

@testable import FilterData

/// Zstandard frames as pyarrow's zstd (the reference library) writes them at three levels
/// (`Scripts/make-parquet-fixtures.py`): every input back, byte for byte; and frames made by
/// hand for what a library rarely writes (raw and run-length blocks, skippable frames, several
/// frames). Cut, changed or made up bytes give an error, never a trap or output past what was
/// expected.
@Suite struct ZstdTests {
  static let folder = DataFiles.root.appendingPathComponent("Tests/Fixtures/zstd").path
  static let inputs = ["empty", "short", "text", "runs", "bytes", "json", "long"]

  static func decompress(_ bytes: [UInt8], expected: Int) throws(Zstd.Failure) -> [UInt8] {
    let result: Result<[UInt8], Zstd.Failure> = bytes.withUnsafeBytes { raw in
      Result { () throws(Zstd.Failure) in try Zstd.decompress(raw, expected: expected) }
    }
    return try result.get()
  }

  @Test(arguments: inputs)
  func readsWhatTheReferenceWrote(name: String) throws {
    let raw = try ParquetEncodingTests.bytes("\(Self.folder)/\(name).raw")
    for level in [1, 3, 19] {
      let compressed = try ParquetEncodingTests.bytes("\(Self.folder)/\(name)-\(level).zst")
      #expect(try Self.decompress(compressed, expected: raw.count) == raw, "\(name) at \(level)")
      // A size other than the frame's is an error, not more or less output.
      #expect(throws: Zstd.Failure.self) {
        try Self.decompress(compressed, expected: raw.count + 1)
      }
      if !raw.isEmpty {
        #expect(throws: Zstd.Failure.self) {
          try Self.decompress(compressed, expected: raw.count - 1)
        }
      }
    }
  }

  /// 3.4 MB of rows (`i,i*7919%10000`, 300,000 lines) as the zstd command writes it at
  /// level 3: tens of thousands of matches. Each match once copied the whole output before
  /// it (a slice of the array appended to itself), so that a page of Polars' zstd decoded at
  /// 1 MB/s: this frame took minutes. (The time limit only ends a run that would otherwise
  /// hang until CI's.)
  @Test(.timeLimit(.minutes(2))) func framesOfManyMatchesDecodeInLinearTime() throws {
    var raw: [UInt8] = []
    for i in 0..<300_000 { raw += Array("\(i),\(i * 7919 % 10000)\n".utf8) }
    let compressed = try ParquetEncodingTests.bytes("\(Self.folder)/orders-3.zst")
    #expect(compressed.count < raw.count / 10)
    #expect(try Self.decompress(compressed, expected: raw.count) == raw)
  }

  @Test(arguments: inputs)
  func cutOrChangedBytesNeverTrap(name: String) throws {
    let raw = try ParquetEncodingTests.bytes("\(Self.folder)/\(name).raw")
    let compressed = try ParquetEncodingTests.bytes("\(Self.folder)/\(name)-3.zst")
    for length in stride(from: 0, to: compressed.count, by: Swift.max(1, compressed.count / 50)) {
      #expect(throws: Zstd.Failure.self) {
        try Self.decompress(Array(compressed.prefix(length)), expected: raw.count)
      }
    }
    var rng = SplitMix64(seed: UInt64(name.utf8.count))
    for _ in 0..<60 {
      var bytes = compressed
      bytes[Int(rng.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
      // Either an error or bytes of the length expected.
      if let out = try? Self.decompress(bytes, expected: raw.count) {
        #expect(out.count == raw.count)
      }
    }
  }

  /// A frame header for content of `size` bytes (one byte of size: a single segment).
  static func frame(_ size: UInt8, blocks: [UInt8]) -> [UInt8] {
    [0x28, 0xB5, 0x2F, 0xFD, 0x20, size] + blocks
  }

  /// A block header: last or not, type, size.
  static func block(last: Bool, type: Int, size: Int) -> [UInt8] {
    let header = (last ? 1 : 0) | type << 1 | size << 3
    return [UInt8(header & 0xFF), UInt8((header >> 8) & 0xFF), UInt8(header >> 16)]
  }

  @Test func framesMadeByHand() throws {
    // A raw block, then a run-length block.
    let raw = Self.frame(
      7,
      blocks: Self.block(last: false, type: 0, size: 3) + Array("flt".utf8)
        + Self.block(last: true, type: 1, size: 4) + [UInt8(ascii: "!")])
    #expect(try Self.decompress(raw, expected: 7) == Array("flt!!!!".utf8))
    // A skippable frame before it and another frame after it.
    let skippable: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 9, 9, 9]
    let second = Self.frame(2, blocks: Self.block(last: true, type: 1, size: 2) + [0x41])
    #expect(try Self.decompress(skippable + raw + second, expected: 9) == Array("flt!!!!AA".utf8))
    // A compressed block of literals only (raw literals, no sequences).
    let literals: [UInt8] = [3 << 3] + Array("abc".utf8) + [0]
    let compressed = Self.frame(3, blocks: Self.block(last: true, type: 2, size: 5) + literals)
    #expect(try Self.decompress(compressed, expected: 3) == Array("abc".utf8))
  }

  /// Huffman-coded literals with a tree of weights written directly (four bits each), then a
  /// block reusing that tree: "abba", then "baab". 'a' and 'b' take a bit each (0 and 1),
  /// read from the stream's last bit down.
  @Test func huffmanLiteralsWithDirectWeights() throws {
    // 98 weights (symbols 0 to 97: 'a' weighs 1), the last symbol's ('b') implied.
    var weights = [UInt8](repeating: 0, count: 49)
    weights[48] = 0x01
    let tree: [UInt8] = [127 + 98] + weights
    // Type 2, one stream, 4 literals, 51 bytes of tree and stream.
    let first: [UInt8] = [0x42, 0xC0, 0x0C] + tree + [0b0001_0110, 0]
    // Type 3 (the tree before), 4 literals, 1 byte of stream.
    let second: [UInt8] = [0x43, 0x40, 0x00, 0b0001_1001, 0]
    let frame = Self.frame(
      8,
      blocks: Self.block(last: false, type: 2, size: first.count) + first
        + Self.block(last: true, type: 2, size: second.count) + second)
    #expect(try Self.decompress(frame, expected: 8) == Array("abbabaab".utf8))
    // A block that reuses a tree never given.
    let alone = Self.frame(4, blocks: Self.block(last: true, type: 2, size: second.count) + second)
    #expect(throws: Zstd.Failure.self) { try Self.decompress(alone, expected: 4) }
    // Weights 1, 2 and 2 (symbols 94, 96, 97: 1 + 2 + 2 = 5) leave 3 to the last symbol,
    // which is no power of two: no tree.
    var uneven = [UInt8](repeating: 0, count: 49)
    uneven[48] = 0x22
    uneven[47] = 0x10
    let bad: [UInt8] = [0x42, 0xC0, 0x0C] + [127 + 98] + uneven + [0b0001_0110, 0]
    #expect(throws: Zstd.Failure.self) {
      try Self.decompress(
        Self.frame(4, blocks: Self.block(last: true, type: 2, size: bad.count) + bad), expected: 4)
    }
  }

  @Test func refusesWhatItCannotRead() throws {
    let bad: [[UInt8]] = [
      [],  // nothing
      [0x28, 0xB5, 0x2F, 0xFE, 0x20, 0],  // a wrong magic number
      [0x28, 0xB5, 0x2F, 0xFD, 0x21, 1, 0, 0, 0, 0],  // a dictionary
      Self.frame(3, blocks: Self.block(last: true, type: 3, size: 0)),  // a reserved block type
      Self.frame(3, blocks: Self.block(last: true, type: 0, size: 5) + [1, 2, 3]),  // cut short
      Self.frame(2, blocks: Self.block(last: true, type: 1, size: 3) + [1]),  // says 2, holds 3
      // A literal "a" and a sequences section of made-up bits.
      Self.frame(
        4, blocks: Self.block(last: true, type: 2, size: 6) + [1 << 3, 0x61, 1, 0, 0x20, 1]),
      // A block larger than 128 KiB.
      Self.frame(3, blocks: Self.block(last: true, type: 1, size: (1 << 17) + 1) + [1]),
    ]
    for bytes in bad {
      #expect(throws: Zstd.Failure.self, "\(bytes)") { try Self.decompress(bytes, expected: 4) }
    }
    // A run-length block larger than what is expected stops before writing it.
    let big = Self.frame(0, blocks: Self.block(last: true, type: 1, size: 100_000) + [7])
    #expect(throws: Zstd.Failure.self) { try Self.decompress(big, expected: 10) }
  }
}
