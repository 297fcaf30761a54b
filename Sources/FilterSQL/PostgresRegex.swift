import FilterDSL

/// flt's `matches` patterns as PostgreSQL regular expressions (AREs), for a *narrowing* test.
///
/// flt matches whole characters (a letter and the accents on it, `\r\n`) and its classes are
/// Unicode's (`\w` takes every letter); PostgreSQL matches code points, with classes that
/// depend on the database's locale. The two agree on text made only of printable ASCII
/// (space to `~`): there a character is one code point, `\d` is `[0-9]`, `\w` is
/// `[A-Za-z0-9_]`, `\s` is the space, and ranges compare the same. So the test written is
/// `text ~ '^(?:pattern)$' OR text ~ '[^ -~]'`: exact on such text, and true (left for flt to
/// decide) on any other. Every character of the pattern is written as a `\uXXXX` escape or a
/// letter or digit, so nothing of the user's text is read as PostgreSQL syntax.
enum PostgresRegex {
  /// The anchored ARE of `pattern`, or nil when it has no translation here: an invalid
  /// pattern, a character outside printable ASCII, a repetition count over PostgreSQL's 255.
  static func translate(_ pattern: String) -> String? {
    guard let tree = RegexNode.tree(of: pattern), let body = write(tree) else { return nil }
    return "^(?:" + body + ")$"
  }

  /// The ARE text that matches whatever printable ASCII text `node` matches; always a single
  /// unit that a quantifier may follow (groups are written `(?:...)`).
  private static func write(_ node: RegexNode) -> String? {
    switch node {
    case .empty: return "(?:)"
    case .character(let c): return character(c)
    case .any: return "."
    case .start: return "^"
    case .end: return "$"
    case .set(let set): return write(set)
    case .sequence(let nodes):
      var parts: [String] = []
      for node in nodes {
        guard let part = write(node) else { return nil }
        parts.append(part)
      }
      return "(?:" + parts.joined() + ")"
    case .alternation(let nodes):
      var parts: [String] = []
      for node in nodes {
        guard let part = write(node) else { return nil }
        parts.append(part)
      }
      return "(?:" + parts.joined(separator: "|") + ")"
    case .repeated(let node, let min, let max):
      guard min <= 255, (max ?? 0) <= 255, let inner = write(node) else { return nil }
      let bound =
        switch (min, max) {
        case (0, nil): "*"
        case (1, nil): "+"
        case (0, 1): "?"
        case (let min, nil): "{\(min),}"
        case (let min, let max?) where min == max: "{\(min)}"
        case (let min, let max?): "{\(min),\(max)}"
        }
      return "(?:" + inner + ")" + bound
    }
  }

  /// A printable ASCII character: letters and digits as they are, anything else as `\uXXXX`.
  private static func character(_ c: Character) -> String? {
    guard let ascii = c.asciiValue, ascii >= 0x20, ascii <= 0x7E else { return nil }
    if c.isLetter || c.isNumber { return String(c) }
    return escaped(ascii)
  }

  /// A printable ASCII character inside brackets: letters and digits as they are.
  private static func member(_ ascii: UInt8) -> String {
    character(Character(Unicode.Scalar(ascii))) ?? escaped(ascii)
  }

  private static func escaped(_ ascii: UInt8) -> String {
    let hex = String(ascii, radix: 16, uppercase: true)
    return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
  }

  /// A bracket expression with the class's members among printable ASCII.
  private static func write(_ set: RegexCharacterClass) -> String? {
    var members = ""
    for range in set.ranges {
      guard let low = range.lowerBound.asciiValue, let high = range.upperBound.asciiValue,
        low >= 0x20, high <= 0x7E
      else { return nil }
      members += low == high ? escaped(low) : escaped(low) + "-" + escaped(high)
    }
    // A class's members among printable ASCII, found by asking it (exact for every class),
    // written as runs: `0-9A-Z\u005Fa-z` for \w.
    let inClass = (UInt8(0x20)...0x7E).map { ascii in
      set.predicates.contains { $0.contains(Character(Unicode.Scalar(ascii))) }
    }
    var ascii = 0
    while ascii < inClass.count {
      guard inClass[ascii] else {
        ascii += 1
        continue
      }
      var last = ascii
      while last + 1 < inClass.count, inClass[last + 1] { last += 1 }
      let (low, high) = (UInt8(0x20 + ascii), UInt8(0x20 + last))
      members +=
        member(low) + (last - ascii >= 2 ? "-" + member(high) : last > ascii ? member(high) : "")
      ascii = last + 1
    }
    // An empty class matches nothing (negated: any character); leave it to flt.
    guard !members.isEmpty else { return nil }
    return "[" + (set.negated ? "^" : "") + members + "]"
  }
}
