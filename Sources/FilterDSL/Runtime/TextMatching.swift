/// The text operators: `contains`, `startsWith`, `endsWith`, `like`, `matches`.
enum TextMatching {
  /// `subject op operand`. `charge` is given the operation's cost (see ``EvaluationLimits``)
  /// before the work is done; when it says false the answer is unknown and nothing is done.
  static func test(
    _ op: TextOperator, _ subject: Value, _ operand: Value, _ options: StringOptions,
    charge: (Int) -> Bool = { _ in true }
  ) -> Truth {
    if op == .contains, case .list(let elements) = subject {
      // `tags contains 5G`: membership.
      guard !operand.isNull, charge(Cost.sum(elements.count, 1)) else { return .unknown }
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
    var regex: RegexProgram?
    if op == .matches {
      // Compiled first: its size is part of the cost.
      regex = try? RegexProgram(
        options.isEmpty ? pattern : TextFolding.foldPattern(pattern, options))
      guard regex != nil else { return .unknown }
    }
    let cost = Cost.text(
      op, textBytes: text.utf8.count, patternBytes: pattern.utf8.count,
      patternSize: regex?.size ?? 0, folds: !options.isEmpty)
    guard charge(cost) else { return .unknown }
    if !options.isEmpty {
      text = TextFolding.fold(text, options)
      if op != .matches { pattern = TextFolding.fold(pattern, options) }
    }
    switch op {
    case .contains: return Truth(pattern.isEmpty || text.contains(pattern))
    case .startsWith: return Truth(text.hasPrefix(pattern))
    case .endsWith: return Truth(text.hasSuffix(pattern))
    case .like: return Truth(Glob(pattern).matches(text))
    case .matches:
      return regex.map { Truth($0.matches(text)) } ?? .unknown
    }
  }
}

/// `like` patterns: `*` matches any run of characters, `?` one character, `[abc]` one of
/// those, `[a-z]` one in the range, `[!0-9]` (or `[^0-9]`) one not in it, and `\` escapes the
/// next character. A `]` right after `[` or `[!` is in the set; a `[` never closed is itself.
///
/// Matching takes time linear in the text for each star-free run of the pattern (a
/// *segment*), whatever the pattern: the first segment must match at the start, the last at
/// the end, and each one between is found at its leftmost place after the one before (which
/// is always a right choice when only `*` separates them), by a bit-parallel search
/// (Shift-And) that reads each character of the text once, a machine word per 64 pieces of
/// the segment. (The backtracking matcher it replaces took 15 s for an 8,000-character
/// pattern on a 200 KB text.)
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
      case .set(let ranges, let negated):
        return ranges.contains { RegexCharacterClass.range($0, contains: c) } != negated
      }
    }
  }

  /// The pattern's pieces between its stars: one segment when it has none.
  let segments: [GlobSegment]

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
    var segments: [[Piece]] = [[]]
    for piece in pieces {
      if case .star = piece {
        segments.append([])
      } else {
        segments[segments.count - 1].append(piece)
      }
    }
    self.segments = segments.map(GlobSegment.init)
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
    guard let first = segments.first, let last = segments.last else { return true }
    if segments.count == 1 {
      return text.count == first.pieces.count && first.matches(text, at: 0)
    }
    // The first segment at the start, the last at the end, not overlapping.
    guard first.pieces.count + last.pieces.count <= text.count, first.matches(text, at: 0),
      last.matches(text, at: text.count - last.pieces.count)
    else { return false }
    var position = first.pieces.count
    let end = text.count - last.pieces.count
    for segment in segments.dropFirst().dropLast() {
      guard let after = segment.firstEnd(in: text, from: position, upTo: end) else {
        return false
      }
      position = after
    }
    return true
  }
}

/// A star-free run of a glob's pieces, with what its bit-parallel search needs: for each
/// character, the pieces it matches as bits (bit `j` of word `j / 64` for piece `j`).
struct GlobSegment: Sendable {
  let pieces: [Glob.Piece]
  /// The number of 64-bit words a set of pieces takes.
  let words: Int
  /// The pieces each literal character is, as bits.
  let literal: [Character: [UInt64]]
  /// The pieces any character matches (`?`), as bits.
  let any: [UInt64]
  /// The indices of the `[...]` pieces, tested per character.
  let sets: [Int]

  init(_ pieces: [Glob.Piece]) {
    self.pieces = pieces
    let words = Swift.max(1, (pieces.count + 63) / 64)
    self.words = words
    var literal: [Character: [UInt64]] = [:]
    var any = [UInt64](repeating: 0, count: words)
    var sets: [Int] = []
    for (j, piece) in pieces.enumerated() {
      let bit = UInt64(1) << UInt64(j % 64)
      switch piece {
      case .character(let c):
        literal[c, default: [UInt64](repeating: 0, count: words)][j / 64] |= bit
      case .one: any[j / 64] |= bit
      case .set: sets.append(j)
      case .star: break
      }
    }
    self.literal = literal
    self.any = any
    self.sets = sets
  }

  /// Whether the segment matches `text` starting at `start` (which leaves room for it).
  func matches(_ text: [Character], at start: Int) -> Bool {
    guard start >= 0, start + pieces.count <= text.count else { return false }
    for (j, piece) in pieces.enumerated() where !piece.matches(text[start + j]) { return false }
    return true
  }

  /// The index just after the leftmost match that starts at or after `start` and ends at or
  /// before `end`, if any.
  func firstEnd(in text: [Character], from start: Int, upTo end: Int) -> Int? {
    let m = pieces.count
    if m == 0 { return start }
    var state = [UInt64](repeating: 0, count: words)
    var masks: [Character: [UInt64]] = [:]
    let lastWord = (m - 1) / 64
    let lastBit = UInt64(1) << UInt64((m - 1) % 64)
    var t = start
    while t < end {
      let c = text[t]
      let mask = masks[c] ?? mask(for: c, caching: &masks)
      // state = ((state << 1) | 1) & mask, across words.
      var carry: UInt64 = 1
      for w in 0..<words {
        let shifted = (state[w] << 1) | carry
        carry = state[w] >> 63
        state[w] = shifted & mask[w]
      }
      t += 1
      if state[lastWord] & lastBit != 0 { return t }
    }
    return nil
  }

  /// The pieces `c` matches, as bits, remembered in `cache`.
  private func mask(for c: Character, caching cache: inout [Character: [UInt64]]) -> [UInt64] {
    var mask = literal[c] ?? [UInt64](repeating: 0, count: words)
    for w in 0..<words { mask[w] |= any[w] }
    for j in sets where pieces[j].matches(c) { mask[j / 64] |= UInt64(1) << UInt64(j % 64) }
    cache[c] = mask
    return mask
  }
}
