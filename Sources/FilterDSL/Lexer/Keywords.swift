/// Reserved keywords, matched without regard to case. Everything else that looks like a word
/// is an identifier; the statement and clause words (`load`, `order`, `limit`...) are
/// identifiers that the parser recognises by position.
enum Keywords {
  /// Every reserved spelling and its kind. `nil` is an alias of `null`, `beginsWith` of
  /// `startsWith` (NSPredicate's spelling).
  static let table: [(spelling: String, kind: TokenKind)] = [
    ("and", .and), ("or", .or), ("not", .not), ("in", .in), ("between", .between),
    ("is", .is), ("null", .null), ("nil", .null), ("true", .true), ("false", .false),
    ("like", .like), ("matches", .matches), ("contains", .contains),
    ("startswith", .startsWith), ("beginswith", .startsWith), ("endswith", .endsWith),
    ("any", .any), ("all", .all), ("none", .none), ("exists", .exists),
  ]

  /// Words the parser gives a meaning by position; the printer quotes fields with these names.
  static let contextual: Set<String> = [
    "load", "as", "use", "let", "count", "facets", "where", "explain", "show", "set",
    "order", "by", "asc", "desc", "nulls", "first", "last", "limit", "offset",
  ]

  /// The table bucketed by length, spellings as lower-case bytes.
  private static let buckets: [[([UInt8], TokenKind)]] = {
    var buckets = [[([UInt8], TokenKind)]](repeating: [], count: 11)
    for (spelling, kind) in table { buckets[spelling.utf8.count].append((Array(spelling.utf8), kind)) }
    return buckets
  }()

  /// The keyword spelled by `bytes[range]`, ignoring ASCII case, if any.
  static func lookup(_ bytes: [UInt8], _ range: Range<Int>) -> TokenKind? {
    let count = range.count
    guard count < buckets.count else { return nil }
    for (spelling, kind) in buckets[count] {
      var equal = true
      for i in 0..<count where lowercase(bytes[range.lowerBound + i]) != spelling[i] {
        equal = false
        break
      }
      if equal { return kind }
    }
    return nil
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

  /// Whether `text` would be read as a keyword, or has a meaning by position.
  static func isReserved(_ text: String) -> Bool {
    let lower = text.lowercased()
    return table.contains { $0.spelling == lower } || contextual.contains(lower)
  }

  @inline(__always) static func lowercase(_ byte: UInt8) -> UInt8 {
    byte >= 65 && byte <= 90 ? byte | 0x20 : byte
  }
}
