/// The test part of a predicate, after its subject.
extension Parser {
  // condition = compare_op [ modifier ] operand
  //           | [ "not" ] text_op [ modifier ] operand
  //           | [ "not" ] "in" [ modifier ] in_operand
  //           | [ "not" ] "between" [ modifier ] operand "and" operand
  //           | "is" [ "not" ] "null" ;
  /// Nil when the current token does not start a condition.
  mutating func parseCondition() throws(ParseAbort) -> Condition? {
    let start = current
    switch kind {
    case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
      let op = advance()
      let options = parseModifier()
      let operand = try parseOperand(after: op)
      return Condition(.compare(comparison(op.kind), operand, options), operatorRange: start.range.union(previousOperatorEnd(op)))
    case .not:
      guard Parser.negatable(next.kind) else {
        throw fail(.expectedAfterNot(found: describe(next), at: next.range, not: current.range))
      }
      advance()
      return try parseNegatable(negated: true, start: start)
    case .in, .between, .contains, .startsWith, .endsWith, .like, .matches:
      return try parseNegatable(negated: false, start: start)
    case .is:
      advance()
      let negated = match(.not)
      guard kind == .null else {
        throw failUnlessInvalid(.expectedNull(found: currentDescription, at: current.range))
      }
      let null = advance()
      return Condition(.isNull(negated: negated), operatorRange: start.range.union(null.range))
    case .modifier:
      throw fail(.misplacedModifier(at: current.range))
    default:
      return nil
    }
  }

  static func negatable(_ kind: TokenKind) -> Bool {
    switch kind {
    case .in, .between, .contains, .startsWith, .endsWith, .like, .matches: true
    default: false
    }
  }

  /// `in`, `between` and the text operators, after an optional `not`.
  private mutating func parseNegatable(negated: Bool, start: Token) throws(ParseAbort) -> Condition {
    let op = advance()
    let options = parseModifier()
    let operatorRange = start.range.union(previousOperatorEnd(op))
    switch op.kind {
    case .in:
      let operand = try parseInOperand(after: op)
      return Condition(.member(operand, options, negated: negated), operatorRange: operatorRange)
    case .between:
      let lower = try parseOperand(after: op)
      guard kind == .and else {
        throw failUnlessInvalid(.expectedBetweenAnd(found: currentDescription, at: current.range, between: op.range))
      }
      let and = advance()
      let upper = try parseOperand(after: and)
      return Condition(.between(lower, upper, options, negated: negated), operatorRange: operatorRange)
    default:
      let operand = try parseOperand(after: op)
      return Condition(.text(textOperator(op.kind), operand, options, negated: negated), operatorRange: operatorRange)
    }
  }

  // in_operand = list | operand [ ( "..." | "..<" ) operand ] ;
  /// After `in`, parentheses always make a list, even with one item: `color in (Red)`.
  mutating func parseInOperand(after op: Token) throws(ParseAbort) -> Expr {
    skipNewlines()
    if kind == .leftParen {
      let list = try parseList()
      if kind == .closedRange || kind == .halfOpenRange { throw fail(.misplacedRange(at: current.range)) }
      return list
    }
    let lower = try parseArithmetic(.additive, value: true)
    guard kind == .closedRange || kind == .halfOpenRange else { return lower }
    let rangeOp = advance()
    skipNewlines()
    let upper = try parseArithmetic(.additive, value: true)
    if kind == .closedRange || kind == .halfOpenRange { throw fail(.misplacedRange(at: current.range)) }
    let rangeKind: RangeKind = rangeOp.kind == .closedRange ? .closed : .halfOpen
    return try node(.range(lower, upper, rangeKind), lower.range.union(upper.range))
  }

  // modifier = "[c]" | "[d]" | "[cd]" ;
  mutating func parseModifier() -> StringOptions {
    guard kind == .modifier else { return [] }
    let token = advance()
    var options: StringOptions = []
    for byte in bytes[token.range.start..<token.range.end] {
      switch Keywords.lowercase(byte) {
      case UInt8(ascii: "c"): options.insert(.caseInsensitive)
      case UInt8(ascii: "d"): options.insert(.diacriticInsensitive)
      default: break
      }
    }
    return options
  }

  /// The end of an operator, including a modifier just read.
  private func previousOperatorEnd(_ op: Token) -> SourceRange {
    previous.kind == .modifier ? previous.range : op.range
  }

  private func comparison(_ kind: TokenKind) -> ComparisonOperator {
    switch kind {
    case .notEqual: .notEqual
    case .less: .less
    case .lessEqual: .lessOrEqual
    case .greater: .greater
    case .greaterEqual: .greaterOrEqual
    default: .equal
    }
  }

  private func textOperator(_ kind: TokenKind) -> TextOperator {
    switch kind {
    case .startsWith: .startsWith
    case .endsWith: .endsWith
    case .like: .like
    case .matches: .matches
    default: .contains
    }
  }
}
