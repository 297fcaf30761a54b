import Testing

@testable import FilterData

/// The delta encodings against the examples of Parquet's specification, written out byte by
/// byte; files with every encoding are read against their twins in `ParquetReaderTests`.
@Suite struct ParquetDeltaEncodingTests {
  /// DELTA_BINARY_PACKED's header: 128 values a block, 4 miniblocks, `count` values, and the
  /// first (zigzag).
  static func header(count: UInt8, first: UInt8) -> [UInt8] { [0x80, 0x01, 0x04, count, first] }

  static func deltas(_ bytes: [UInt8], count: Int) throws -> [Int64] {
    try bytes.withUnsafeBytes { raw in
      var position = 0
      return try ParquetDeltaEncodings.deltas(raw, &position, count: count)
    }
  }

  @Test func deltaBinaryPacked() throws {
    // 1, 2, 3, 4, 5: the first, then differences of 1 (the minimum), packed in 0 bits.
    #expect(
      try Self.deltas(Self.header(count: 5, first: 2) + [0x02, 0, 0, 0, 0], count: 5) == [
        1, 2, 3, 4, 5,
      ])
    // 7, 5, 3, 1, 2, 3, 4, 5: differences -2, -2, -2, 1, 1, 1, 1; the minimum -2, then
    // 0, 0, 0, 3, 3, 3, 3 in 2 bits each (a miniblock of 32 values: 8 bytes).
    let packed: [UInt8] = [0xC0, 0xFF] + [UInt8](repeating: 0, count: 6)
    #expect(
      try Self.deltas(Self.header(count: 8, first: 14) + [0x03, 2, 0, 0, 0] + packed, count: 8)
        == [7, 5, 3, 1, 2, 3, 4, 5])
    // Sums wrap, as the format says: the largest integer, then a difference of 1.
    let largest: [UInt8] = [
      0x80, 0x01, 0x04, 2, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
    ]
    #expect(try Self.deltas(largest + [0x02, 0, 0, 0, 0], count: 2) == [.max, .min])
  }

  @Test func byteArraysByLengthAndByPrefix() throws {
    // "Hello", "World", "Foobar", "ABCDEF": lengths 5, 5, 6, 6 (differences 0, 1, 0: a
    // minimum of 0, then 0, 1, 0 in 1 bit), then the bytes.
    let lengths = Self.header(count: 4, first: 10) + [0x00, 1, 0, 0, 0, 0b010, 0, 0, 0]
    let hello = lengths + Array("HelloWorldFoobarABCDEF".utf8)
    let arrays = try hello.withUnsafeBytes { raw in
      var position = 0
      return try ParquetDeltaEncodings.lengthPrefixed(raw, &position, count: 4)
    }
    #expect(
      arrays.map { String(decoding: $0, as: UTF8.self) } == ["Hello", "World", "Foobar", "ABCDEF"])
    // "axis", "axle", "babble", "babyhood": prefixes 0, 2, 0, 3 (differences 2, -2, 3: a
    // minimum of -2, then 4, 0, 5 in 3 bits), then the suffixes "axis", "le", "babble",
    // "yhood" by length (4, 2, 6, 5: differences -2, 4, -1; a minimum of -2, then 0, 6, 1).
    let prefixes =
      Self.header(count: 4, first: 0) + [0x03, 3, 0, 0, 0] + [0b0100_0100, 0b0000_0001]
      + [UInt8](repeating: 0, count: 10)
    let suffixLengths =
      Self.header(count: 4, first: 8) + [0x03, 3, 0, 0, 0] + [0b0111_0000, 0]
      + [UInt8](repeating: 0, count: 10)
    let shared = prefixes + suffixLengths + Array("axislebabbleyhood".utf8)
    let words = try shared.withUnsafeBytes { raw in
      var position = 0
      return try ParquetDeltaEncodings.sharedPrefixes(raw, &position, count: 4)
    }
    #expect(
      words.map { String(decoding: $0, as: UTF8.self) } == ["axis", "axle", "babble", "babyhood"])
  }

  @Test func hostileDeltasAreErrors() {
    let bad: [[UInt8]] = [
      [],  // nothing
      [0x80, 0x01, 0x04, 5],  // no first value
      [0x81, 0x01, 0x04, 5, 2, 2, 0, 0, 0, 0],  // a block of 129 values
      [0x80, 0x01, 0x03, 5, 2, 2, 0, 0, 0, 0],  // miniblocks of 42.67 values
      [0x80, 0x01, 0x04, 2, 2, 2, 0, 0, 0, 0],  // fewer values than asked for
      Self.header(count: 5, first: 2) + [0x02, 65, 0, 0, 0],  // a width of 65 bits
      Self.header(count: 5, first: 2) + [0x02, 8, 0, 0, 0, 1, 2],  // a miniblock cut short
      [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],  // a number too long
    ]
    for bytes in bad {
      #expect(throws: ParquetError.self, "\(bytes)") { try Self.deltas(bytes, count: 5) }
    }
  }
}
