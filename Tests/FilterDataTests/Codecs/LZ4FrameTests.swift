import Foundation
import TestSupport
import Testing

@testable import FilterData

/// LZ4's frame format (Arrow's `LZ4_FRAME` buffers) as pyarrow's LZ4 (the reference library)
/// writes it (`Scripts/make-arrow-fixtures.py`; the inputs are the zstd fixtures'): every input
/// back, byte for byte; frames made by hand for stored blocks, checksums, the content's size,
/// skippable frames and frames one after another. Cut or changed bytes give an error or output
/// of the length expected, never a trap.
@Suite struct LZ4FrameTests {
  static func decompress(_ bytes: [UInt8], expected: Int) throws(LZ4.Failure) -> [UInt8] {
    let result: Result<[UInt8], LZ4.Failure> = bytes.withUnsafeBytes { raw in
      Result { () throws(LZ4.Failure) in try LZ4.decompressFrames(raw, expected: expected) }
    }
    return try result.get()
  }

  static func frame(_ name: String) throws -> [UInt8] {
    try ParquetEncodingTests.bytes("\(LZ4Tests.folder)/\(name).lz4frame")
  }

  @Test(arguments: ZstdTests.inputs)
  func readsWhatTheReferenceWrote(name: String) throws {
    let raw = try ParquetEncodingTests.bytes("\(LZ4Tests.inputs)/\(name).raw")
    let compressed = try Self.frame(name)
    #expect(try Self.decompress(compressed, expected: raw.count) == raw)
    #expect(throws: LZ4.Failure.self) { try Self.decompress(compressed, expected: raw.count + 1) }
    // Two frames one after another give both.
    #expect(try Self.decompress(compressed + compressed, expected: 2 * raw.count) == raw + raw)
  }

  /// Magic, flags (version 1, independent blocks, and what `flags` adds), block size, the
  /// content's size if flagged, a descriptor checksum (not checked), the blocks, an end mark.
  static func handMade(flags: UInt8, size: UInt64? = nil, blocks: [[UInt8]], end: [UInt8] = [])
    -> [UInt8]
  {
    var bytes: [UInt8] = [0x04, 0x22, 0x4D, 0x18, 0x60 | flags, 0x40]
    if let size { bytes += (0..<8).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } }
    bytes.append(0xAB)
    for block in blocks { bytes += block }
    return bytes + [0, 0, 0, 0] + end
  }

  @Test func handMadeFrames() throws {
    let text = Array("flt reads frames".utf8)
    // A stored block (its size's high bit set).
    let stored: [UInt8] = [UInt8(text.count), 0, 0, 0x80] + text
    #expect(try Self.decompress(Self.handMade(flags: 0, blocks: [stored]), expected: 16) == text)
    // With the content's size, block checksums and a content checksum (skipped).
    let checked = Self.handMade(
      flags: 0x08 | 0x10 | 0x04, size: 16, blocks: [stored + [1, 2, 3, 4]], end: [5, 6, 7, 8])
    #expect(try Self.decompress(checked, expected: 16) == text)
    // A compressed block that copies from the block before it (linked blocks): no literals,
    // a copy of 5 from 1 back (into the first block's "a"), then the literal "b".
    let (a, b) = (UInt8(ascii: "a"), UInt8(ascii: "b"))
    let first: [UInt8] = [1, 0, 0, 0x80, a]
    let reaching: [UInt8] = [5, 0, 0, 0, 0x01, 0x01, 0x00, 0x10, b]
    #expect(
      try Self.decompress(Self.handMade(flags: 0, blocks: [first, reaching]), expected: 7)
        == [a, a, a, a, a, a, b])
    // A skippable frame before it is passed over.
    let skippable: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 9, 9, 9]
    #expect(
      try Self.decompress(skippable + Self.handMade(flags: 0, blocks: [stored]), expected: 16)
        == text)
    // A frame that needs a dictionary, of another version, or not a frame: errors.
    for bad in [
      Self.handMade(flags: 0x01, blocks: [stored]), [0x04, 0x22, 0x4D, 0x18, 0xA0, 0x40, 0],
      Array("not lz4".utf8),
    ] {
      #expect(throws: LZ4.Failure.self) { try Self.decompress(bad, expected: 16) }
    }
  }

  @Test(arguments: ZstdTests.inputs)
  func cutOrChangedBytesNeverTrap(name: String) throws {
    let raw = try ParquetEncodingTests.bytes("\(LZ4Tests.inputs)/\(name).raw")
    let compressed = try Self.frame(name)
    for length in stride(from: 0, to: compressed.count, by: Swift.max(1, compressed.count / 50)) {
      if let out = try? Self.decompress(Array(compressed.prefix(length)), expected: raw.count) {
        #expect(out.count == raw.count)
      }
    }
    var rng = SplitMix64(seed: UInt64(name.utf8.count))
    for _ in 0..<100 {
      var bytes = compressed
      bytes[Int(rng.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
      if let out = try? Self.decompress(bytes, expected: raw.count) {
        #expect(out.count == raw.count)
      }
    }
  }
}
