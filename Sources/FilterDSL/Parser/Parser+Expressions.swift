/// Filters: logical operators, `not`, predicates and arithmetic.
extension Parser {
  // filter = or_expr ;
  mutating func parseFilter() throws(ParseAbort) -> Expr {
    try parseLogical(.or)
  }

  // or_expr  = and_expr { ( "or" | "||" ) and_expr } ;
  // and_expr = not_expr { ( "and" | "&&" ) not_expr } ;
  /// Chains are collected into one n-ary node, iteratively: `a and b and c` is one node with
  /// three operands, however long the chain.
  mutating func parseLogical(_ op: LogicalOperator) throws(ParseAbort) -> Expr {
    let first = op == .or ? try parseLogical(.and) : try parseNot()
    guard continuesWith(op) else { return first }
    var operands = [first]
    while continuesWith(op) {
      advance()
      skipNewlines()
      operands.append(op == .or ? try parseLogical(.and) : try parseNot())
    }
    let range = first.range.union(operands[operands.count - 1].range)
    return try node(.logical(op, operands), range)
  }

  /// Whether the next token is `op`; a line that starts with `and` or `or` continues the
  /// filter of the line before.
  private mutating func continuesWith(_ op: LogicalOperator) -> Bool {
    if op.isSpelled(by: kind) { return true }
    if kind == .newline, op.isSpelled(by: tokens[Swift.min(index + 1, tokens.count - 1)].kind) {
      index += 1
      return true
    }
    return false
  }

  // not_expr = { "not" | "!" } predicate ;
  mutating func parseNot() throws(ParseAbort) -> Expr {
    guard kind == .not || kind == .bang else { return try parsePredicate() }
    var operators: [Token] = []
    while kind == .not || kind == .bang {
      try enter(current)
      operators.append(advance())
    }
    defer { depth -= operators.count }
    var expr = try parsePredicate()
    for op in operators.reversed() {
      expr = try node(.not(expr), op.range.union(expr.range))
    }
    return expr
  }

  // predicate = "exists" field_path
  //           | ( "any" | "all" | "none" ) postfix condition
  //           | additive [ condition ] ;
  mutating func parsePredicate() throws(ParseAbort) -> Expr {
    switch kind {
    case .exists:
      let keyword = advance()
      let path = try parseFieldPath(after: keyword)
      return try node(.exists(path), keyword.range.union(path.range))
    case .any, .all, .none:
      let keyword = advance()
      let quantifier: Quantifier = keyword.kind == .any ? .any : keyword.kind == .all ? .all : .none
      let subject = try parsePrimary(value: false)
      guard let condition = try parseCondition() else {
        throw failUnlessInvalid(.expectedCondition(quantifier: text(keyword), found: currentDescription, at: current.range))
      }
      let e = try node(.quantified(quantifier, subject, condition), keyword.range.union(previous.range))
      try rejectChainedComparison()
      return e
    default:
      let subject = try parseArithmetic(.additive, value: false)
      guard let condition = try parseCondition() else { return subject }
      let e = try node(.predicate(subject, condition), subject.range.union(previous.range))
      try rejectChainedComparison()
      return e
    }
  }

  private mutating func rejectChainedComparison() throws(ParseAbort) {
    switch kind {
    case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
      throw fail(.chainedComparison(at: current.range))
    default:
      return
    }
  }

  // additive       = multiplicative { ( "+" | "-" ) multiplicative } ;
  // multiplicative = unary { ( "*" | "/" | "%" ) unary } ;
  /// One loop per level of the precedence table. Each operator adds a level to the tree (they
  /// associate to the left), so each counts towards the depth limit.
  mutating func parseArithmetic(_ level: Precedence, value: Bool) throws(ParseAbort) -> Expr {
    var left =
      level == .additive
      ? try parseArithmetic(.multiplicative, value: value) : try parseUnary(value: value)
    var steps = 0
    defer { depth -= steps }
    while let op = Precedence.arithmetic(kind), op.precedence == level {
      let token = advance()
      skipNewlines()
      steps += 1
      try enter(token)
      let right =
        level == .additive
        ? try parseArithmetic(.multiplicative, value: value) : try parseUnary(value: value)
      left = try node(.arithmetic(op, left, right), left.range.union(right.range))
    }
    return left
  }

  // unary = { "-" } primary ;
  /// A minus right before a number or duration is part of the literal (`-3`, `-7d`), which is
  /// how `-9223372036854775808` can be written.
  mutating func parseUnary(value: Bool) throws(ParseAbort) -> Expr {
    guard kind == .minus else { return try parsePrimary(value: value) }
    var minuses: [Token] = []
    while kind == .minus {
      try enter(current)
      minuses.append(advance())
    }
    defer { depth -= minuses.count }
    var wrapped = minuses[...]
    var expr: Expr
    if let last = wrapped.last, kind == .integer || kind == .decimal || kind == .duration {
      expr = try parseNumber(minus: last)
      wrapped = wrapped.dropLast()
    } else {
      expr = try parsePrimary(value: value)
    }
    for minus in wrapped.reversed() {
      expr = try node(.negate(expr), minus.range.union(expr.range))
    }
    return expr
  }

  /// A value operand of an operator: an arithmetic expression in value position, where bare
  /// words are text. Line breaks after the operator are skipped.
  mutating func parseOperand(after op: Token) throws(ParseAbort) -> Expr {
    skipNewlines()
    let operand = try parseArithmetic(.additive, value: true)
    if kind == .closedRange || kind == .halfOpenRange {
      throw fail(.misplacedRange(at: current.range))
    }
    return operand
  }
}
