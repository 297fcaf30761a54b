/// The test part of a predicate, after its subject.
///
/// These functions are on the recursive path (an operand can hold parentheses), so, like the
/// expression functions, they stay thin and build their diagnostics in separate functions.
extension Parser {
  // condition = compare_op [ modifier ] operand
  //           | [ "not" ] text_op [ modifier ] operand
  //           | [ "not" ] "in" [ modifier ] in_operand
  //           | [ "not" ] "between" [ modifier ] operand "and" operand
  //           | "is" [ "not" ] ( "null" | "empty" | operand ) ;
  /// Nil when the current token does not start a condition.
  func parseCondition() throws(ParseAbort) -> Condition? {
    switch kind {
    case .not:
      return try parseNegated()
    case .in, .between:
      return try parseTest(negated: false, start: index)
    case .is:
      return try parseNullCheck()
    case .modifier:
      throw misplacedModifier()
    default:
      // The operators' tokens come from the operators themselves.
      if ComparisonOperator(token: kind) != nil { return try parseComparison() }
      if TextOperator(token: kind) != nil { return try parseTest(negated: false, start: index) }
      return nil
    }
  }

  /// Whether a token of `kind` starts a condition.
  static func startsCondition(_ kind: TokenKind) -> Bool {
    switch kind {
    case .not, .in, .between, .is, .modifier: true
    default: ComparisonOperator(token: kind) != nil || TextOperator(token: kind) != nil
    }
  }

  /// Whether a token of `kind` can start an operand (after `is`, where `null` and `empty`
  /// are taken first).
  static func startsOperand(_ kind: TokenKind) -> Bool {
    switch kind {
    case .identifier, .quotedIdentifier, .word, .integer, .decimal, .duration, .length, .string,
      .date, .dateTime, .time, .true, .false, .parameter, .leftParen, .minus, .plus, .tilde:
      true
    default:
      // A text operator that is also a function: `startsWith(model, "iPhone")`.
      TextOperator(token: kind)?.isFunction == true
    }
  }

  @inline(never)
  private func misplacedModifier() -> ParseAbort {
    fail(.misplacedModifier(at: current.range))
  }

  @inline(never)
  private func parseComparison() throws(ParseAbort) -> Condition {
    let start = index
    let op = comparison(advance().kind)
    let options = parseModifier()
    let end = index
    let operand = try parseOperand()
    return Condition(.compare(op, operand, options), operatorRange: span(start, end))
  }

  @inline(never)
  private func parseNegated() throws(ParseAbort) -> Condition {
    guard next.kind == .in || next.kind == .between || TextOperator(token: next.kind) != nil
    else {
      throw conditionError(
        .expectedAfterNot(found: describe(next), at: next.range, not: current.range))
    }
    let start = index
    advance()
    return try parseTest(negated: true, start: start)
  }

  /// `in`, `between` and the text operators, after an optional `not` at token `start`.
  @inline(never)
  private func parseTest(negated: Bool, start: Int) throws(ParseAbort) -> Condition {
    let op = advance().kind
    let options = parseModifier()
    let range = span(start, index)
    if let text = TextOperator(token: op) {
      let kind = Condition.Kind.text(text, try parseOperand(), options, negated: negated)
      return Condition(kind, operatorRange: range)
    }
    if op == .in { return try parseMembership(options, negated: negated, range: range) }
    return try parseBetween(options, negated: negated, range: range)
  }

  @inline(never)
  private func parseMembership(_ options: StringOptions, negated: Bool, range: SourceRange)
    throws(ParseAbort) -> Condition
  {
    Condition(.member(try parseInOperand(), options, negated: negated), operatorRange: range)
  }

  @inline(never)
  private func parseBetween(_ options: StringOptions, negated: Bool, range: SourceRange)
    throws(ParseAbort) -> Condition
  {
    let lower = try parseOperand()
    guard kind == .and else { throw missingBetweenAnd(range) }
    advance()
    let upper = try parseOperand()
    return Condition(.between(lower, upper, options, negated: negated), operatorRange: range)
  }

  @inline(never)
  private func missingBetweenAnd(_ between: SourceRange) -> ParseAbort {
    failUnlessInvalid(
      .expectedBetweenAnd(found: currentDescription, at: expectedAt, between: between))
  }

  @inline(never)
  private func parseNullCheck() throws(ParseAbort) -> Condition {
    let start = index
    advance()
    let negated = match(.not)
    if kind == .null {
      advance()
      return Condition(.isNull(negated: negated), operatorRange: span(start, index))
    }
    // `empty` here is the test; a field called empty is written `empty` in backticks.
    if kind == .identifier, text(current).lowercased() == "empty" {
      advance()
      return Condition(.isEmpty(negated: negated), operatorRange: span(start, index))
    }
    guard Parser.startsOperand(kind) else {
      throw conditionError(.expectedNull(found: currentDescription, at: expectedAt))
    }
    let range = span(start, index)
    return Condition(.same(try parseOperand(), negated: negated), operatorRange: range)
  }

  // in_operand = list | operand [ ( "..." | "..<" ) operand ] ;
  /// After `in`, parentheses always make a list, even with one item: `color in (Red)`.
  func parseInOperand() throws(ParseAbort) -> Expr {
    skipNewlines()
    if kind == .leftParen {
      let list = try parseList()
      try rejectRange()
      return list
    }
    let lower = try parseArithmetic(value: true)
    guard kind == .closedRange || kind == .halfOpenRange else { return lower }
    let rangeKind: RangeKind = advance().kind == .closedRange ? .closed : .halfOpen
    skipNewlines()
    let upper = try parseArithmetic(value: true)
    try rejectRange()
    return try node(.range(lower, upper, rangeKind), lower.range.union(upper.range))
  }

  /// A value operand of an operator: an arithmetic expression in value position, where bare
  /// words are text. Line breaks after the operator are skipped.
  func parseOperand() throws(ParseAbort) -> Expr {
    skipNewlines()
    let operand = try parseArithmetic(value: true)
    try rejectRange()
    return operand
  }

  /// A range operator where no range may stand.
  private func rejectRange() throws(ParseAbort) {
    if kind == .closedRange || kind == .halfOpenRange {
      throw conditionError(.misplacedRange(at: current.range))
    }
  }

  @inline(never)
  private func conditionError(_ diagnostic: Diagnostic) -> ParseAbort {
    failUnlessInvalid(diagnostic)
  }

  // modifier = "[c]" | "[d]" | "[cd]" ;
  func parseModifier() -> StringOptions {
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

  /// From the start of token `first` to the end of the token before `end`.
  func span(_ first: Int, _ end: Int) -> SourceRange {
    tokens[first].range.union(tokens[Swift.max(first, end - 1)].range)
  }

  /// The comparison a token of a comparison's kind is (``parseCondition()`` checked it).
  private func comparison(_ kind: TokenKind) -> ComparisonOperator {
    ComparisonOperator(token: kind) ?? .equal
  }
}
