import FilterDSL

/// Finding a short value's spelling in one step: a load reads the 16 bytes at the cursor into
/// two words, tests on the words find where the value ends, and the words are its spelling,
/// ready for a coded column's memo (``ShortSpelling``). Most values of a file of records are
/// short (`"Space Black"`, `1024`, `"2022-09-26"`, `true`), and most are spelled as some
/// value before them was: their code is then found with no pass over their bytes but this.
///
/// The value is not checked here: a memo holds only spellings of values read whole before,
/// so bytes found in it are a value spelled so (a string ends at its first quote, and a
/// number, `true` or `false` where what may follow a value begins: bytes not spelled so are
/// not in any memo, and are read in full, errors and all).
extension JSONScanner {
  /// The spelling of the value at the cursor and where it ends, when it is a string without
  /// escapes or control characters of at most 16 bytes with its quotes, or anything else but
  /// an object or a list ended, within 16 bytes, by a comma, `}`, `]`, a space or a line end;
  /// nil otherwise, and within 16 bytes of ``end``.
  @inline(__always)
  func shortSpelling() -> (spelling: ShortSpelling, end: Int)? {
    guard index + 16 <= end else { return nil }
    let raw = UnsafeRawBufferPointer(bytes)
    let low = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
    let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
    let length: Int
    switch UInt8(truncatingIfNeeded: low) {
    case 0x22:
      // The first quote after the opening one; nil if a backslash or a control character
      // comes first.
      let quoteLow = Self.bytesEqual(low, 0x22) & ~0x80
      let quoteHigh = Self.bytesEqual(high, 0x22)
      let specialLow = Self.bytesEqual(low, 0x5C) | Self.bytesBelow(low, 0x20)
      let specialHigh = Self.bytesEqual(high, 0x5C) | Self.bytesBelow(high, 0x20)
      guard let quote = Self.first(quoteLow, quoteHigh),
        Self.first(specialLow, specialHigh).map({ $0 > quote }) ?? true
      else { return nil }
      length = quote + 1
    case 0x7B, 0x5B:
      return nil
    default:
      let endsLow =
        Self.bytesEqual(low, 0x2C) | Self.bytesEqual(low, 0x7D) | Self.bytesEqual(low, 0x5D)
        | Self.bytesBelow(low, 0x21)
      let endsHigh =
        Self.bytesEqual(high, 0x2C) | Self.bytesEqual(high, 0x7D) | Self.bytesEqual(high, 0x5D)
        | Self.bytesBelow(high, 0x21)
      guard let stop = Self.first(endsLow, endsHigh), stop > 0 else { return nil }
      length = stop
    }
    let spelling = ShortSpelling(
      low: length >= 8 ? low : low & ((1 << UInt64(8 * length)) - 1),
      high: length <= 8 ? 0 : length == 16 ? high : high & ((1 << UInt64(8 * (length - 8))) - 1),
      length: UInt32(length))
    return (spelling, index + length)
  }

  /// The high bit of each byte of `word` equal to `byte`, and no other bit (exact in every
  /// byte: no borrow crosses from one byte to the next).
  @inline(__always) static func bytesEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    bytesZero(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)))
  }

  /// The high bit of each zero byte of `word`, exactly.
  @inline(__always) static func bytesZero(_ word: UInt64) -> UInt64 {
    ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word)
      & 0x8080_8080_8080_8080
  }

  /// The high bit of each byte of `word` less than `limit` (at most 128), exactly.
  @inline(__always) static func bytesBelow(_ word: UInt64, _ limit: UInt8) -> UInt64 {
    ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x0101_0101_0101_0101 &* UInt64(128 &- limit)) | word)
      & 0x8080_8080_8080_8080
  }

  /// The position, from 0 to 15, of the first byte flagged in the two words' flags.
  @inline(__always) static func first(_ low: UInt64, _ high: UInt64) -> Int? {
    if low != 0 { return low.trailingZeroBitCount >> 3 }
    if high != 0 { return 8 + high.trailingZeroBitCount >> 3 }
    return nil
  }
}
