/// A token: a kind and the bytes it covers. Its text is sliced from the source when needed.
public struct Token: Hashable, Sendable {
  /// The bytes it covers, quotes included.
  public var range: SourceRange
  /// What the token is.
  public var kind: TokenKind
  /// For `(`: the parentheses hold a list (a comma at their own level, or nothing at all).
  /// Lets the parser read `(a, b)` as a list and `(a)` as grouping without backtracking.
  var opensList = false

  /// A token of `kind` covering `range`.
  public init(_ kind: TokenKind, _ range: SourceRange) {
    self.range = range
    self.kind = kind
  }
}

/// The kinds of token.
public enum TokenKind: UInt8, Hashable, Sendable, CaseIterable {
  // Names
  /// `color`, `Starlight`: a field name, or a string in value position.
  case identifier
  /// A name in backquotes (\`screen size\`): always a field name.
  case quotedIdentifier
  /// `5G`, `256GB`: a word that starts with digits; a string in value position.
  case word
  /// `$budget`.
  case parameter

  // Literals
  /// `256`
  case integer
  /// `6.1`, `1e3`
  case decimal
  /// `"Space Black"`
  case string
  /// `2022-09-16`
  case date
  /// `2022-09-16T10:00:00Z`
  case dateTime
  /// `22:00`, `09:30:15.5`
  case time
  /// `7d`, `1h30m`
  case duration
  /// `5km`, `1.5km`: a distance, read as a number of metres.
  case length

  // Keywords (case-insensitive)
  /// A keyword of logic, membership or a literal: `and`, `or`, `not`, `in`, `between`, `is`,
  /// `null`, `true`, `false` (case-insensitive).
  case and, or, not, `in`, between, `is`, null, `true`, `false`
  /// A text operator: `like`, `matches`, `contains`, `startsWith`, `endsWith`.
  case like, matches, contains, startsWith, endsWith
  /// A quantifier over a list (`any`, `all`, `none`), or `exists`.
  case any, all, none, exists

  // Punctuation and operators
  /// `(`, `)`, `,`, `.`, `;`
  case leftParen, rightParen, comma, dot, semicolon
  /// `[` and `]` around an index: `tags[0]` (a modifier such as `[c]` is one token).
  case leftBracket, rightBracket
  /// `...`
  case closedRange
  /// `..<`
  case halfOpenRange
  /// `+`, `-`, `*`, `/`, `//`, `%`
  case plus, minus, star, slash, slashSlash, percent
  /// `&`, `|`, `^`, `<<`, `>>`: bitwise operators on integers.
  case ampersand, pipe, caret, shiftLeft, shiftRight
  /// `~`: the bitwise complement of an integer.
  case tilde
  /// `==` or `=`
  case equal
  /// `!=` or `<>`
  case notEqual
  /// `<`, `<=`, `>`, `>=`
  case less, lessEqual, greater, greaterEqual
  /// `!`
  case bang
  /// `&&`
  case ampAmp
  /// `||`
  case pipePipe
  /// `[c]`, `[d]`, `[cd]` after an operator.
  case modifier

  /// A line break outside parentheses, in scripts: ends a statement.
  case newline
  /// The end of the text; every token list ends with one.
  case endOfFile
  /// Text that is not a token; the lexer has already reported it.
  case invalid

  /// Whether this kind is a reserved keyword.
  public var isKeyword: Bool {
    rawValue >= TokenKind.and.rawValue && rawValue <= TokenKind.exists.rawValue
  }

  /// Whether this kind is a literal (including `true`, `false`, `null`).
  var isLiteral: Bool {
    switch self {
    case .integer, .decimal, .string, .date, .dateTime, .time, .duration, .length, .true, .false,
      .null:
      true
    default: false
    }
  }

  /// How the kind is named in messages, for kinds whose text does not say it.
  var summary: String? {
    switch self {
    case .identifier: "a name"
    case .quotedIdentifier: "a quoted name"
    case .word: "a word"
    case .parameter: "a parameter"
    case .integer, .decimal: "a number"
    case .string: "a string"
    case .date, .dateTime: "a date"
    case .time: "a time of day"
    case .duration: "a duration"
    case .length: "a distance"
    case .newline: "the end of the line"
    case .endOfFile: "the end of the input"
    default: nil
    }
  }
}
