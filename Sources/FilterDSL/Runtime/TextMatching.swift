/// The text operators: `contains`, `startsWith`, `endsWith`, `like`, `matches`.
enum TextMatching {
  static func test(_ op: TextOperator, _ subject: Value, _ operand: Value, _ options: StringOptions)
    -> Truth
  {
    if op == .contains, case .list(let elements) = subject {
      // `tags contains 5G`: membership.
      guard !operand.isNull else { return .unknown }
      return elements.contains { element in
        if case .string(let a) = element, case .string(let b) = operand, !options.isEmpty {
          return TextFolding.fold(a, options) == TextFolding.fold(b, options)
        }
        return ValueOrder.compare(element, operand) == 0
      } ? .true : (elements.contains(where: \.isNull) ? .unknown : .false)
    }
    guard case .string(var text) = subject, case .string(var pattern) = operand else {
      return .unknown
    }
    if !options.isEmpty {
      text = TextFolding.fold(text, options)
      pattern =
        op == .matches
        ? TextFolding.foldPattern(pattern, options) : TextFolding.fold(pattern, options)
    }
    switch op {
    case .contains: return Truth(pattern.isEmpty || text.contains(pattern))
    case .startsWith: return Truth(text.hasPrefix(pattern))
    case .endsWith: return Truth(text.hasSuffix(pattern))
    case .like: return Truth(Glob(pattern).matches(text))
    case .matches:
      guard let regex = try? RegexProgram(pattern) else { return .unknown }
      return Truth(regex.matches(text))
    }
  }
}

/// `like` patterns: `*` matches any run of characters, `?` one character, `[abc]` one of
/// those, `[a-z]` one in the range, `[!0-9]` (or `[^0-9]`) one not in it, and `\` escapes the
/// next character. A `]` right after `[` or `[!` is in the set; a `[` never closed is itself.
/// Matching is linear in the text for each star (no exponential backtracking).
struct Glob: Sendable {
  enum Piece: Sendable {
    case character(Character)
    case one
    case star
    case set([ClosedRange<Character>], negated: Bool)

    func matches(_ c: Character) -> Bool {
      switch self {
      case .character(let expected): return c == expected
      case .one: return true
      case .star: return false
      case .set(let ranges, let negated): return ranges.contains { $0.contains(c) } != negated
      }
    }
  }

  let pieces: [Piece]

  init(_ pattern: String) {
    let characters = Array(pattern)
    var pieces: [Piece] = []
    var i = 0
    while i < characters.count {
      let c = characters[i]
      switch c {
      case "*":
        pieces.append(.star)
      case "?":
        pieces.append(.one)
      case "\\" where i + 1 < characters.count:
        i += 1
        pieces.append(.character(characters[i]))
      case "[":
        if let (set, end) = Glob.set(characters, from: i) {
          pieces.append(set)
          i = end
        } else {
          pieces.append(.character("["))
        }
      default:
        pieces.append(.character(c))
      }
      i += 1
    }
    self.pieces = pieces
  }

  /// The set that opens at `characters[start]` (a `[`) and the index of its `]`, or nil when
  /// it is never closed.
  private static func set(_ characters: [Character], from start: Int) -> (Piece, Int)? {
    var i = start + 1
    var negated = false
    if i < characters.count, characters[i] == "!" || characters[i] == "^" {
      negated = true
      i += 1
    }
    var ranges: [ClosedRange<Character>] = []
    var first = true
    while i < characters.count {
      let c = characters[i]
      if c == "]" && !first { return (.set(ranges, negated: negated), i) }
      first = false
      if i + 2 < characters.count, characters[i + 1] == "-", characters[i + 2] != "]" {
        let high = characters[i + 2]
        // A range written backwards (`[z-a]`) matches nothing, as in shells.
        if c <= high { ranges.append(c...high) }
        i += 3
      } else {
        ranges.append(c...c)
        i += 1
      }
    }
    return nil
  }

  func matches(_ text: String) -> Bool {
    let text = Array(text)
    var t = 0
    var p = 0
    var starPattern = -1
    var starText = 0
    while t < text.count {
      if p < pieces.count {
        if case .star = pieces[p] {
          starPattern = p
          starText = t
          p += 1
          continue
        }
        if pieces[p].matches(text[t]) {
          p += 1
          t += 1
          continue
        }
      }
      guard starPattern >= 0 else { return false }
      // Let the last star take one more character, and try again after it.
      p = starPattern + 1
      starText += 1
      t = starText
    }
    while p < pieces.count, case .star = pieces[p] { p += 1 }
    return p == pieces.count
  }
}
