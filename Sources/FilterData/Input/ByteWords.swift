/// Tests on eight bytes of input at a time, read as one word (lowest address in the lowest
/// byte): each flags the bytes that pass it with their high bit, exactly (no borrow crosses
/// from one byte to the next, so a byte is flagged if and only if it passes). The JSON and
/// CSV scanners pass over the bytes that do not matter to them a word at a time.
enum ByteWords {
  /// The high bit of each byte of `word` equal to `byte`, and no other bit.
  @inline(__always) static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    zero(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)))
  }

  /// The high bit of each zero byte of `word`.
  @inline(__always) static func zero(_ word: UInt64) -> UInt64 {
    ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word)
      & 0x8080_8080_8080_8080
  }

  /// The high bit of each byte of `word` less than `limit` (at most 128).
  @inline(__always) static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
    ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x0101_0101_0101_0101 &* UInt64(128 &- limit)) | word)
      & 0x8080_8080_8080_8080
  }

  /// The bytes of `word` before byte `count` (0 to 8), the others zero.
  @inline(__always) static func prefix(_ word: UInt64, _ count: Int) -> UInt64 {
    count >= 8 ? word : word & ((1 << UInt64(8 &* count)) &- 1)
  }
}
