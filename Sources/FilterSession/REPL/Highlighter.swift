import FilterDSL

/// The syntax colouring of the line being typed at the REPL: each character's kind, from the
/// lexer's tokens, so the colours follow the language exactly. Pure: tests feed it lines.
package struct Highlighter: Sendable {
  /// What a character is part of.
  package enum Kind: UInt8, Sendable {
    case plain
    /// `and`, `in`, `like`, and the statement words (`load`, `count`, `order by`, ...).
    case keyword
    /// A field of the current data, or a name `let` defined.
    case field
    /// A string in quotes, or a bare word in value position (`color == Starlight`).
    case text
    /// Numbers, dates, times, durations, `true`, `false`, `null`.
    case literal
    /// `$budget`, and modifiers such as `[c]`.
    case parameter
    /// What the lexer could not read, or the part of the line the live check found wrong.
    case error
  }

  /// The names that colour as fields: the current data's top-level fields and the names
  /// `let` defined.
  package var names: Set<String>

  package init(names: Set<String>) { self.names = names }

  /// Words that start a statement, coloured as keywords when they come first.
  static let statementWords: Set<String> = [
    "load", "let", "set", "use", "show", "count", "facets", "stats", "explain",
  ]
  /// Words that are keywords inside a statement unless a field has the name.
  static let clauseWords: Set<String> = [
    "order", "by", "asc", "desc", "limit", "offset", "where", "as", "table", "nulls", "first",
    "last", "format", "root", "type", "delimiter", "header", "spaces", "case", "when", "then",
    "else", "end",
  ]
  /// Tokens after which a bare word is a value, not a field.
  static let valueOperators: Set<TokenKind> = Set([.in, .between, .modifier])
    .union(TokenKind.comparisons).union(TokenKind.textOperators)

  /// The kind of each character of `line`; the characters in the UTF-8 byte range `error`
  /// (from a diagnostic) are errors.
  package func kinds(of line: String, error: Range<Int>? = nil) -> [Kind] {
    kinds(of: Array(line), error: error)
  }

  /// The kind of each of `characters` (as the line editor holds them: a combining mark typed
  /// after a space is a character of its own there, though it joins the space in a string).
  package func kinds(of characters: [Character], error: Range<Int>? = nil) -> [Kind] {
    let line = String(characters)
    let lexed = Lexer.tokenize(SourceText(line))
    var byteKinds = [Kind](repeating: .plain, count: line.utf8.count)
    func mark(_ range: SourceRange, _ kind: Kind) {
      let end = Swift.min(range.end, byteKinds.count)
      guard range.start < end else { return }
      for i in range.start..<end { byteKinds[i] = kind }
    }
    let bytes = Array(line.utf8)
    // After a value operator, a word is a value; inside parentheses opened there, every word.
    var valueNext = false
    var valueLists: [Bool] = []
    var first = true
    var betweenOpen = false
    for token in lexed.tokens where token.kind != .endOfFile {
      let inValueList = valueLists.last ?? false
      switch token.kind {
      case .identifier, .word:
        let end = Swift.min(token.range.end, bytes.count)
        let word = String(decoding: bytes[token.range.start..<end], as: UTF8.self)
        if valueNext || inValueList || token.kind == .word {
          mark(token.range, .text)
        } else if first && Highlighter.statementWords.contains(word.lowercased()) {
          mark(token.range, .keyword)
        } else if names.contains(word) {
          mark(token.range, .field)
        } else if Highlighter.clauseWords.contains(word.lowercased()) {
          mark(token.range, .keyword)
        }
      case .quotedIdentifier: mark(token.range, .field)
      case .string: mark(token.range, .text)
      case .integer, .decimal, .date, .dateTime, .time, .duration, .length, .true, .false,
        .null:
        mark(token.range, .literal)
      case .parameter, .modifier: mark(token.range, .parameter)
      case .invalid: mark(token.range, .error)
      case .leftParen: valueLists.append(valueNext || inValueList)
      case .rightParen: _ = valueLists.popLast()
      default:
        if token.kind.isKeyword { mark(token.range, .keyword) }
      }
      // `between 1 and 5`: the word after that `and` is a value too.
      if token.kind == .between { betweenOpen = true }
      valueNext =
        Highlighter.valueOperators.contains(token.kind) || (token.kind == .and && betweenOpen)
      if token.kind == .and { betweenOpen = false }
      first = false
    }
    for diagnostic in lexed.diagnostics where diagnostic.isError { mark(diagnostic.range, .error) }
    if let error {
      let range = SourceRange(
        start: error.lowerBound, end: Swift.max(error.upperBound, error.lowerBound + 1))
      mark(range, .error)
    }
    // One kind per character: that of its first byte.
    var kinds: [Kind] = []
    var offset = 0
    for character in characters {
      kinds.append(offset < byteKinds.count ? byteKinds[offset] : .plain)
      offset += character.utf8.count
    }
    return kinds
  }

  /// `characters` with ANSI colours for their `kinds` (as many), reset at the end.
  package static func render(_ characters: ArraySlice<Character>, _ kinds: ArraySlice<Kind>)
    -> String
  {
    var text = ""
    var current = Kind.plain
    for (character, kind) in zip(characters, kinds) {
      if kind != current {
        text += "\u{1B}[0m" + Highlighter.escape(kind)
        current = kind
      }
      text.append(character)
    }
    return current == .plain ? text : text + "\u{1B}[0m"
  }

  /// The escape that starts `kind`'s colour.
  static func escape(_ kind: Kind) -> String {
    switch kind {
    case .plain: ""
    case .keyword: "\u{1B}[1;34m"
    case .field: "\u{1B}[36m"
    case .text: "\u{1B}[32m"
    case .literal: "\u{1B}[33m"
    case .parameter: "\u{1B}[35m"
    case .error: "\u{1B}[4;31m"
    }
  }
}
