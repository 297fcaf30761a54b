/// Turns source text into tokens. Never fails: text that is not a token becomes an
/// ``TokenKind/invalid`` token plus a diagnostic, and scanning goes on.
///
/// The lexer scans UTF-8 bytes, one table look-up per byte for the common ASCII cases.
/// Comments (`#` to the end of the line) and spaces are skipped. Line breaks become
/// ``TokenKind/newline`` tokens when `newlines` is on (scripts), and are plain spaces
/// otherwise (a single filter or query).
public struct Lexer {
  /// The tokens, always ending with ``TokenKind/endOfFile``, and the problems found.
  public struct Result: Sendable {
    /// The tokens, ending with an end-of-input token.
    public var tokens: [Token]
    /// What the lexer found wrong, in source order.
    public var diagnostics: [Diagnostic]
  }

  /// Scans all of `source`.
  public static func tokenize(_ source: SourceText, newlines: Bool = false) -> Result {
    var lexer = Lexer(bytes: source.utf8, newlines: newlines)
    lexer.run()
    return Result(tokens: lexer.tokens, diagnostics: lexer.diagnostics)
  }

  let bytes: [UInt8]
  let newlines: Bool
  // The static tables, read once per run rather than once per token.
  let table = CharacterClass.table
  let keywords = Keywords.packed
  let keywordLengths = Keywords.lengths
  var index = 0
  var tokens: [Token] = []
  var diagnostics: [Diagnostic] = []
  /// Token indices of the `(` not yet closed, to mark the ones that hold lists.
  var openParens: [Int] = []

  init(bytes: [UInt8], newlines: Bool) {
    self.bytes = bytes
    self.newlines = newlines
    // About one token per three bytes in dense filters; a little more costs less than a regrowth.
    tokens.reserveCapacity(bytes.count / 3 + 16)
  }

  /// The byte at `offset` from the current one, or 0 past the end.
  @inline(__always) func peek(_ offset: Int = 0) -> UInt8 {
    let i = index + offset
    return i < bytes.count ? bytes[i] : 0
  }

  mutating func run() {
    // A byte-order mark at the very start is not text.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    while index < bytes.count {
      let byte = bytes[index]
      let classes = table[Int(byte)]
      if classes.contains(.space) {
        index += 1
      } else if classes.contains(.identifierStart) {
        scanIdentifier()
      } else if classes.contains(.digit) {
        scanNumber()
      } else if byte >= 0x80 {
        scanNonASCII()
      } else {
        scanPunctuation(byte)
      }
    }
    tokens.append(Token(.endOfFile, .empty(at: bytes.count)))
  }

  mutating func emit(_ kind: TokenKind, from start: Int) {
    tokens.append(Token(kind, SourceRange(start: start, end: index)))
  }

  mutating func report(_ problem: LiteralDecoder.Problem) {
    diagnostics.append(
      Diagnostic(
        problem.code,
        at: SourceRange(start: problem.range.lowerBound, end: problem.range.upperBound),
        message: problem.message, help: problem.help))
  }

  // MARK: Names

  /// `[A-Za-z_][A-Za-z0-9_]*`, with non-ASCII letters allowed too.
  mutating func scanIdentifier() {
    let start = index
    skipIdentifierPart()
    let kind =
      Keywords.lookup(bytes, start..<index, packed: keywords, lengths: keywordLengths)
      ?? .identifier
    emit(kind, from: start)
  }

  /// Skips letters, digits, `_` and non-ASCII letters and marks.
  mutating func skipIdentifierPart() {
    while index < bytes.count {
      let byte = bytes[index]
      if table[Int(byte)].contains(.identifierPart) {
        index += 1
      } else if byte >= 0x80, let (scalar, length) = scalar(at: index),
        Lexer.isIdentifierPart(scalar)
      {
        index += length
      } else {
        return
      }
    }
  }

  static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    if properties.isAlphabetic { return true }
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation:
      return true
    default:
      return false
    }
  }

  /// The scalar whose UTF-8 encoding starts at `offset`, and its length.
  func scalar(at offset: Int) -> (Unicode.Scalar, Int)? {
    let length = LiteralDecoder.scalarLength(bytes, at: offset, end: bytes.count)
    guard length > 0 else { return nil }
    var decoder = UTF8()
    var iterator = bytes[offset..<offset + length].makeIterator()
    if case .scalarValue(let scalar) = decoder.decode(&iterator) { return (scalar, length) }
    return nil
  }

  /// A byte of 0x80 or above: a letter starting an identifier, a space we tolerate (such as a
  /// non-breaking space), or something we explain.
  mutating func scanNonASCII() {
    let start = index
    guard let (scalar, length) = scalar(at: index) else {
      index += 1
      emit(.invalid, from: start)
      diagnostics.append(
        .unexpectedCharacter("\u{FFFD}", at: SourceRange(start: start, end: index)))
      return
    }
    if scalar.properties.isWhitespace {
      if scalar == "\u{2028}" || scalar == "\u{2029}" || scalar == "\u{85}" {
        index += length
        if newlines { newline(from: start) }
      } else {
        index += length
      }
      return
    }
    if scalar.properties.isAlphabetic {
      skipIdentifierPart()
      emit(.identifier, from: start)
      return
    }
    if Lexer.typographicQuotes.contains(scalar) {
      scanTypographicString(from: start)
      return
    }
    index += length
    emit(.invalid, from: start)
    diagnostics.append(
      .unexpectedCharacter(String(scalar), at: SourceRange(start: start, end: index)))
  }

  static let typographicQuotes: Set<Unicode.Scalar> = [
    "\u{201C}", "\u{201D}", "\u{2018}", "\u{2019}", "\u{201E}", "\u{00AB}", "\u{00BB}",
  ]

  /// `“Space Black”`: reported, and skipped to the closing quote or the end of the line.
  mutating func scanTypographicString(from start: Int) {
    index += LiteralDecoder.scalarLength(bytes, at: index, end: bytes.count)
    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
      let length = LiteralDecoder.scalarLength(bytes, at: index, end: bytes.count)
      if let (scalar, _) = scalar(at: index), Lexer.typographicQuotes.contains(scalar) {
        index += length
        break
      }
      index += length
    }
    emit(.invalid, from: start)
    diagnostics.append(.typographicQuotes(at: SourceRange(start: start, end: index)))
  }

  mutating func newline(from start: Int) {
    // Consecutive line breaks make one token.
    if tokens.last?.kind == .newline {
      tokens[tokens.count - 1].range.end = index
    } else {
      emit(.newline, from: start)
    }
  }
}
