/// Binding strength of operators, loosest first. The one table that both the parser and the
/// printer use; `grammar/README.md` mirrors it (a test checks that they agree).
///
/// | level | operators |
/// |---|---|
/// | or | `or` `\|\|` |
/// | and | `and` `&&` |
/// | not | `not` `!` |
/// | comparison | `== != < <= > >=`, `in`, `between`, `contains`..., `is null` |
/// | bitwise | `& \| ^ << >>` |
/// | additive | `+ -` |
/// | multiplicative | `* / %` |
/// | prefix | unary `-`, `~` |
/// | postfix | `.` field step, `(...)` call |
public enum Precedence: Int, Comparable, Sendable, CaseIterable {
  /// `or`, `||`.
  case or = 1
  /// `and`, `&&`.
  case and
  /// `not`, `!`.
  case not
  /// Comparisons and the other tests of a value.
  case comparison
  /// `&`, `|`, `^`, `<<`, `>>`, all at one level, as in SQLite.
  case bitwise
  /// `+`, `-`.
  case additive
  /// `*`, `/`, `%`.
  case multiplicative
  /// Unary `-` and `~`.
  case prefix
  /// A field step (`.`) or a call.
  case postfix

  /// Lower binds looser.
  public static func < (a: Precedence, b: Precedence) -> Bool { a.rawValue < b.rawValue }

  /// The arithmetic operator a token spells, if any.
  static func arithmetic(_ kind: TokenKind) -> ArithmeticOperator? {
    switch kind {
    case .plus: .add
    case .minus: .subtract
    case .star: .multiply
    case .slash: .divide
    case .slashSlash: .integerDivide
    case .percent: .remainder
    case .ampersand: .bitAnd
    case .pipe: .bitOr
    case .caret: .bitXor
    case .shiftLeft: .shiftLeft
    case .shiftRight: .shiftRight
    default: nil
    }
  }
}

extension ArithmeticOperator {
  /// `+ -` are additive, `* / // %` multiplicative, `& | ^ << >>` bitwise (looser than both, as
  /// in SQL); all associate to the left.
  public var precedence: Precedence {
    switch self {
    case .add, .subtract: .additive
    case .multiply, .divide, .integerDivide, .remainder: .multiplicative
    case .bitAnd, .bitOr, .bitXor, .shiftLeft, .shiftRight: .bitwise
    }
  }
}

extension LogicalOperator {
  /// The operator's precedence: `and` binds tighter than `or`.
  public var precedence: Precedence { self == .and ? .and : .or }

  /// The token kinds that spell this operator.
  func isSpelled(by kind: TokenKind) -> Bool {
    switch self {
    case .and: kind == .and || kind == .ampAmp
    case .or: kind == .or || kind == .pipePipe
    }
  }
}
