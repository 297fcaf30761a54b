/// `and` / `or`. Their nodes are n-ary, so long chains stay flat.
public enum LogicalOperator: String, Hashable, Sendable, CaseIterable {
  /// True when every operand is.
  case and
  /// True when any operand is.
  case or
}

/// `+ - * / %`, and the bitwise operators on integers `& | ^ << >>`.
public enum ArithmeticOperator: String, Hashable, Sendable, CaseIterable {
  /// `+`
  case add = "+"
  /// `-`
  case subtract = "-"
  /// `*`
  case multiply = "*"
  /// `/`: true division, as DuckDB, Python and pandas divide: of two integers a double
  /// (`7 / 2` is `3.5`; a division by zero is a fault).
  case divide = "/"
  /// `//`: integer division: the quotient rounded toward zero, as SQL divides integers
  /// (`7 // 2` is `3`, `-7 // 2` is `-3`; Python's `//` rounds down). Of two integers an
  /// integer, else a double.
  case integerDivide = "//"
  /// `%`: the remainder, with the sign of the dividend.
  case remainder = "%"
  /// `&`: the bits set in both integers.
  case bitAnd = "&"
  /// `|`: the bits set in either integer.
  case bitOr = "|"
  /// `^`: the bits set in one integer but not the other.
  case bitXor = "^"
  /// `<<`: shifted left, as SQLite and Swift shift: bits shifted out are lost, a shift of 64
  /// or more gives 0, a negative shift shifts the other way.
  case shiftLeft = "<<"
  /// `>>`: shifted right, keeping the sign: a shift of 64 or more gives 0 (-1 for a negative
  /// number), a negative shift shifts the other way.
  case shiftRight = ">>"

  /// Whether this operator of two integers gives an integer: all but `/`.
  public var keepsIntegers: Bool { self != .divide }

  /// Whether this is one of the bitwise operators, defined on integers alone.
  public var isBitwise: Bool {
    switch self {
    case .add, .subtract, .multiply, .divide, .integerDivide, .remainder: false
    case .bitAnd, .bitOr, .bitXor, .shiftLeft, .shiftRight: true
    }
  }
}

/// `== != < <= > >=`. (`=` is written `==` and `<>` is written `!=` when printed.)
///
/// Each operator carries what every stage needs of it (its token): the lexer
/// and the parser read them from here, so a new operator is a compile error in each switch
/// that must handle it, never a silent default.
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
  /// `==` (also written `=`).
  case equal = "=="
  /// `!=` (also written `<>`).
  case notEqual = "!="
  /// `<`
  case less = "<"
  /// `<=`
  case lessOrEqual = "<="
  /// `>`
  case greater = ">"
  /// `>=`
  case greaterOrEqual = ">="

  /// The token the lexer makes of it.
  public var token: TokenKind {
    switch self {
    case .equal: .equal
    case .notEqual: .notEqual
    case .less: .less
    case .lessOrEqual: .lessEqual
    case .greater: .greater
    case .greaterOrEqual: .greaterEqual
    }
  }

  /// The operator a token of `kind` is, or nil.
  public init?(token kind: TokenKind) {
    guard case .comparison(let op) = kind.operatorToken else { return nil }
    self = op
  }
}

/// Operators on text: `contains`, `startsWith`, `endsWith`, `like` (glob), `matches` (regex).
///
/// Each carries what every stage needs of it (its keyword and token, whether it is also a
/// function): the lexer's keywords, the parser, the printer, completion,
/// the highlighter and help read them from here, and every stage that gives it a meaning
/// (the reference evaluator, the compiler, the cost model, the SQL writer) switches over it
/// without a default, so a new operator is a compile error wherever it must be handled.
public enum TextOperator: String, Hashable, Sendable, CaseIterable {
  /// The text holds the other anywhere.
  case contains
  /// The text begins with the other.
  case startsWith
  /// The text ends with the other.
  case endsWith
  /// The whole text matches a glob: `*` any run of characters, `?` one character.
  case like
  /// The whole text matches a regular expression.
  case matches

  /// The keyword, as the documentation spells it (matched without regard to case).
  public var spelling: String { rawValue }

  /// The token the lexer makes of its keyword.
  public var token: TokenKind {
    switch self {
    case .contains: .contains
    case .startsWith: .startsWith
    case .endsWith: .endsWith
    case .like: .like
    case .matches: .matches
    }
  }

  /// Whether it is also a function of two arguments: `startsWith(model, "iPhone")`.
  public var isFunction: Bool {
    switch self {
    case .contains, .startsWith, .endsWith: true
    case .like, .matches: false
    }
  }

  /// The operator a token of `kind` is, or nil.
  public init?(token kind: TokenKind) {
    guard case .text(let op) = kind.operatorToken else { return nil }
    self = op
  }
}

/// The operator a token is.
package enum OperatorToken: Hashable, Sendable {
  case comparison(ComparisonOperator)
  case text(TextOperator)
}

extension TokenKind {
  /// The operator this token is, if any. The switch lists every kind, so that a new kind of
  /// token says here whether it is an operator (and `OperatorVocabularyTests` holds this to
  /// each operator's ``TextOperator/token``): a new operator is a compile error here and
  /// there, never a silent default.
  package var operatorToken: OperatorToken? {
    switch self {
    case .equal: .comparison(.equal)
    case .notEqual: .comparison(.notEqual)
    case .less: .comparison(.less)
    case .lessEqual: .comparison(.lessOrEqual)
    case .greater: .comparison(.greater)
    case .greaterEqual: .comparison(.greaterOrEqual)
    case .contains: .text(.contains)
    case .startsWith: .text(.startsWith)
    case .endsWith: .text(.endsWith)
    case .like: .text(.like)
    case .matches: .text(.matches)
    case .identifier, .quotedIdentifier, .word, .parameter, .integer, .decimal, .string, .date,
      .dateTime, .time, .duration, .length, .and, .or, .not, .in, .between, .is, .null, .true,
      .false,
      .any,
      .all, .none, .exists, .leftParen, .rightParen, .comma, .dot, .semicolon, .leftBracket,
      .rightBracket, .closedRange, .halfOpenRange, .plus, .minus, .star, .slash, .slashSlash,
      .percent,
      .ampersand, .pipe, .caret, .shiftLeft, .shiftRight, .tilde, .bang, .ampAmp, .pipePipe,
      .modifier, .newline, .endOfFile, .invalid:
      nil
    }
  }

  /// The tokens of the comparisons, from the operators themselves.
  package static let comparisons = Set(ComparisonOperator.allCases.map(\.token))
  /// The tokens of the text operators, from the operators themselves.
  package static let textOperators = Set(TextOperator.allCases.map(\.token))
}

/// `any`, `all`, `none`, `one` over a list field.
public enum Quantifier: String, Hashable, Sendable, CaseIterable {
  /// At least one element passes.
  case any
  /// Every element passes (true for an empty list).
  case all
  /// No element passes.
  case none
  /// Exactly one element passes (CEL's `exists_one`): false once two do, unknown while an
  /// element's test is unknown and fewer than two pass.
  case one

  /// The truth of `one` from what its elements' tests gave: false when two or more are true,
  /// unknown when one is unknown (it could be either), else whether one is true. The
  /// evaluators stop at the second true test.
  static func exactlyOne(trues: Int, unknowns: Int) -> Truth {
    if trues >= 2 { return .false }
    if unknowns > 0 { return .unknown }
    return Truth(trues == 1)
  }
}

/// `...` (closed) or `..<` (half-open), as in Swift.
public enum RangeKind: String, Hashable, Sendable, CaseIterable {
  /// `a...b`: from `a` to `b`, both included.
  case closed = "..."
  /// `a..<b`: from `a` up to, not including, `b`.
  case halfOpen = "..<"
}

/// NSPredicate-style string modifiers: `[c]` ignores case, `[d]` ignores diacritics.
public struct StringOptions: OptionSet, Hashable, Sendable {
  /// The options as bits.
  public let rawValue: UInt8
  /// Options from their bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// `[c]`: compare without regard to case.
  public static let caseInsensitive = StringOptions(rawValue: 1)
  /// `[d]`: compare without regard to diacritics (`é` matches `e`).
  public static let diacriticInsensitive = StringOptions(rawValue: 2)

  /// The modifier as written after an operator: `""`, `"[c]"`, `"[d]"` or `"[cd]"`.
  public var spelling: String {
    switch (contains(.caseInsensitive), contains(.diacriticInsensitive)) {
    case (false, false): ""
    case (true, false): "[c]"
    case (false, true): "[d]"
    case (true, true): "[cd]"
    }
  }
}

/// Sort order of one `order by` key.
public enum SortDirection: String, Hashable, Sendable, CaseIterable {
  /// `asc`: smallest first (the default).
  case ascending = "asc"
  /// `desc`: largest first.
  case descending = "desc"
}

/// Where nulls go in a sort: `nulls first` or `nulls last`.
public enum NullsOrder: String, Hashable, Sendable, CaseIterable {
  /// Nulls before every value.
  case first
  /// Nulls after every value.
  case last
}
