/// The lexer's fast look-up of reserved keywords (``Vocabulary/keywordTable``), matched without
/// regard to case. Everything else that looks like a word is an identifier; the statement and
/// clause words (`load`, `order`, `limit`...) are identifiers that the parser recognises by
/// position.
enum Keywords {
  /// Every reserved spelling, in lower case, and its kind.
  static let table: [(spelling: String, kind: TokenKind)] = Vocabulary.keywordTable.map {
    ($0.spelling.lowercased(), $0.kind)
  }

  /// A keyword's spelling packed into integers, lower case, for a look-up with no allocation or
  /// reference counting: bytes 0-7 in `low`, bytes 8-9 in `high`.
  struct Packed {
    var low: UInt64
    var high: UInt16
    var length: Int
    var kind: TokenKind
  }

  static let packed: [Packed] = table.map { spelling, kind in
    let (low, high) = pack(Array(spelling.utf8), 0..<spelling.utf8.count)
    return Packed(low: low, high: high, length: spelling.utf8.count, kind: kind)
  }

  /// The lengths keywords have, as a bit set.
  static let lengths: UInt64 = table.reduce(0) { $0 | 1 << UInt64($1.spelling.utf8.count) }

  /// The letters keywords start with, as a bit set over `a`...`z`.
  static let initials: UInt32 = table.reduce(0) { mask, entry in
    mask | 1 << UInt32((entry.spelling.utf8.first ?? 0) &- UInt8(ascii: "a"))
  }

  static func pack(_ bytes: [UInt8], _ range: Range<Int>) -> (UInt64, UInt16) {
    var low: UInt64 = 0
    var high: UInt16 = 0
    for (i, offset) in range.enumerated() {
      let byte = lowercase(bytes[offset])
      if i < 8 {
        low |= UInt64(byte) << UInt64(8 * i)
      } else {
        high |= UInt16(byte) << UInt16(8 * (i - 8))
      }
    }
    return (low, high)
  }

  /// The keyword spelled by `bytes[range]`, ignoring ASCII case, if any. `packed` and
  /// `lengths` are passed in so that the lexer reads the static tables once per run.
  static func lookup(_ bytes: [UInt8], _ range: Range<Int>, packed: [Packed], lengths: UInt64)
    -> TokenKind?
  {
    let length = range.count
    guard length < 64, lengths & (1 << UInt64(length)) != 0 else { return nil }
    let initial = lowercase(bytes[range.lowerBound]) &- UInt8(ascii: "a")
    guard initial < 26, initials & (1 << UInt32(initial)) != 0 else { return nil }
    let (low, high) = pack(bytes, range)
    for keyword in packed
    where keyword.low == low && keyword.high == high && keyword.length == length {
      return keyword.kind
    }
    return nil
  }

  static func lookup(_ bytes: [UInt8], _ range: Range<Int>) -> TokenKind? {
    lookup(bytes, range, packed: packed, lengths: lengths)
  }

  /// Whether `bytes[range]` spells `word` (given in lower case), ignoring ASCII case.
  static func spells(_ word: StaticString, _ bytes: [UInt8], _ range: Range<Int>) -> Bool {
    guard word.utf8CodeUnitCount == range.count else { return false }
    return word.withUTF8Buffer { spelling in
      for i in 0..<range.count where lowercase(bytes[range.lowerBound + i]) != spelling[i] {
        return false
      }
      return true
    }
  }

  @inline(__always) static func lowercase(_ byte: UInt8) -> UInt8 {
    byte >= 65 && byte <= 90 ? byte | 0x20 : byte
  }
}
