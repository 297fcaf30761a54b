import FilterDSL

/// Finding a value's spelling fast, for a coded column's memo: a short value's in one step (a
/// load reads the 16 bytes at the cursor into two words, tests on the words find where the
/// value ends, and the words are its spelling, ready for the memo: ``ShortSpelling``), and an
/// object's or a list's by its brackets and quotes alone. Most values of a file of records
/// are short (`"Space Black"`, `1024`, `"2022-09-26"`, `true`) or small (`["5G", "eSIM"]`,
/// `{"megapixels": 12}`), and most are spelled as some value before them was: their code is
/// then found with no pass over their bytes but this.
///
/// The value is not checked here: a memo holds only spellings of values read whole before,
/// so bytes found in it are a value spelled so (a string ends at its first quote; a number,
/// `true` or `false` where what may follow a value begins; an object or a list at the bracket
/// that closes it, whatever is between: bytes not spelled so are not in any memo, and are
/// read in full, errors and all).
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
      let quoteLow = ByteWords.equal(low, 0x22) & ~0x80
      let quoteHigh = ByteWords.equal(high, 0x22)
      let specialLow = ByteWords.equal(low, 0x5C) | ByteWords.below(low, 0x20)
      let specialHigh = ByteWords.equal(high, 0x5C) | ByteWords.below(high, 0x20)
      guard let quote = Self.first(quoteLow, quoteHigh),
        Self.first(specialLow, specialHigh).map({ $0 > quote }) ?? true
      else { return nil }
      length = quote + 1
    case 0x7B, 0x5B:
      return nil
    default:
      let endsLow =
        ByteWords.equal(low, 0x2C) | ByteWords.equal(low, 0x7D) | ByteWords.equal(low, 0x5D)
        | ByteWords.below(low, 0x21)
      let endsHigh =
        ByteWords.equal(high, 0x2C) | ByteWords.equal(high, 0x7D) | ByteWords.equal(high, 0x5D)
        | ByteWords.below(high, 0x21)
      guard let stop = Self.first(endsLow, endsHigh), stop > 0 else { return nil }
      length = stop
    }
    let spelling = ShortSpelling(
      low: length >= 8 ? low : low & ((1 << UInt64(8 * length)) - 1),
      high: length <= 8 ? 0 : length == 16 ? high : high & ((1 << UInt64(8 * (length - 8))) - 1),
      length: UInt32(length))
    return (spelling, index + length)
  }

  /// Just past the end of the object or list at the cursor, found by its brackets and the
  /// quotes of its strings alone (so right for any valid one), when it ends on this line
  /// within ``containerSpellingLimit`` bytes; nil otherwise (the cursor at anything else, a
  /// line end first: lines are counted by a full scan).
  @inline(__always) func containerEnd() -> Int? {
    // (The scan takes the three fields it reads, not the scanner: a method of the scanner
    // called in its hot loop got a copy of it, retaining its arrays.)
    Self.containerEnd(in: bytes, from: index, to: end)
  }

  /// ``containerEnd()`` of the scanner whose cursor is at `index` in `bytes`, which it reads
  /// up to `end`.
  static func containerEnd(in bytes: UnsafeBufferPointer<UInt8>, from index: Int, to end: Int)
    -> Int?
  {
    guard index >= 0, index < end, end <= bytes.count, bytes[index] == 0x7B || bytes[index] == 0x5B
    else { return nil }
    let stop = Swift.min(end, index &+ JSONScanner.containerSpellingLimit)
    var depth = 0
    var cursor = index
    while cursor < stop {
      switch bytes[cursor] {
      case 0x22:
        // To the string's closing quote, passing escaped bytes.
        cursor &+= 1
        while cursor < stop, bytes[cursor] != 0x22 {
          if bytes[cursor] == 0x5C {
            guard cursor &+ 1 < stop, bytes[cursor &+ 1] != 0x0A else { return nil }
            cursor &+= 2
          } else {
            if bytes[cursor] == 0x0A { return nil }
            cursor &+= 1
          }
        }
        guard cursor < stop else { return nil }
      case 0x7B, 0x5B:
        depth &+= 1
        guard depth <= JSONScanner.maxDepth else { return nil }
      case 0x7D, 0x5D:
        depth &-= 1
        if depth == 0 { return cursor &+ 1 }
      case 0x0A:
        return nil
      default:
        break
      }
      cursor &+= 1
    }
    return nil
  }

  /// The longest object or list whose spelling ``containerEnd()`` finds.
  static let containerSpellingLimit = 4096

  /// The position, from 0 to 15, of the first byte flagged in the two words' flags.
  @inline(__always) static func first(_ low: UInt64, _ high: UInt64) -> Int? {
    if low != 0 { return low.trailingZeroBitCount >> 3 }
    if high != 0 { return 8 + high.trailingZeroBitCount >> 3 }
    return nil
  }
}
