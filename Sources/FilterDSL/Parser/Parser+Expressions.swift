/// Filters: logical operators, `not`, predicates and arithmetic.
///
/// The functions on the recursive path (`parseFilter`, `parseNot`, `parsePredicate`,
/// `parseArithmetic`, `parseUnary`, `parsePrimary`, `parseGroup`) are thin: each handles its
/// common case and hands everything else to a helper that is not inlined. A debug build gives
/// every temporary of a function its own stack slot, so this is what lets deep nesting fit a
/// 512 KiB thread.
extension Parser {
  // filter   = or_expr ;
  // or_expr  = and_expr { ( "or" | "||" ) and_expr } ;
  // and_expr = not_expr { ( "and" | "&&" ) not_expr } ;
  func parseFilter() throws(ParseAbort) -> Expr {
    let first = startsNegation ? try parseNegation() : try parsePredicate()
    guard continuesLogical() != nil else { return first }
    return try parseLogicalChain(first)
  }

  /// Both levels in one loop: `and` chains are collected into n-ary nodes that become the
  /// operands of one n-ary `or`, however long the chain.
  @inline(never)
  private func parseLogicalChain(_ first: Expr) throws(ParseAbort) -> Expr {
    try enter()
    defer { depth -= 1 }
    var disjuncts: [Expr] = []
    var conjuncts: [Expr] = []
    conjuncts.reserveCapacity(4)
    conjuncts.append(first)
    while let op = continuesLogical() {
      advance()
      skipNewlines()
      if op == .or {
        disjuncts.append(try chain(.and, conjuncts))
        conjuncts = []
        conjuncts.reserveCapacity(4)
      }
      conjuncts.append(startsNegation ? try parseNegation() : try parsePredicate())
    }
    disjuncts.append(try chain(.and, conjuncts))
    return try chain(.or, disjuncts)
  }

  private func chain(_ op: LogicalOperator, _ operands: [Expr]) throws(ParseAbort) -> Expr {
    guard operands.count > 1, let first = operands.first, let last = operands.last else {
      return operands[0]
    }
    return try node(.logical(op, operands), first.range.union(last.range))
  }

  /// The logical operator at the current token, if any. A line that starts with `and` or `or`
  /// continues the filter of the line before.
  private func continuesLogical() -> LogicalOperator? {
    var token = kind
    if token == .newline { token = tokens[Swift.min(index + 1, tokens.count - 1)].kind }
    let op: LogicalOperator
    switch token {
    case .and, .ampAmp: op = .and
    case .or, .pipePipe: op = .or
    default: return nil
    }
    if kind == .newline { index += 1 }
    return op
  }

  // not_expr = { "not" | "!" } predicate ;
  /// Whether a `not_expr` starts with `not`. (Its callers dispatch themselves rather than
  /// through a `parseNot` function: one frame less per level of nesting in a debug build.)
  var startsNegation: Bool { kind == .not || kind == .bang }

  /// A run of `not` is read in a loop, not by recursion.
  @inline(never)
  private func parseNegation() throws(ParseAbort) -> Expr {
    let first = index
    var count = 0
    while kind == .not || kind == .bang {
      try enter()
      count += 1
      advance()
    }
    defer { depth -= count }
    return try wrap(try parsePredicate(), operators: first..<first + count, negate: false)
  }

  // predicate = "exists" field_path
  //           | ( "any" | "all" | "none" ) primary condition
  //           | additive [ condition ] ;
  func parsePredicate() throws(ParseAbort) -> Expr {
    switch kind {
    case .exists: return try parseExists()
    case .any, .all, .none: return try parseQuantified()
    case .identifier where startsOne: return try parseQuantified()
    default: return try parseConditionTail(try parseArithmetic(value: false))
    }
  }

  /// Whether `one` starts a quantifier here (`one tags == x`, `one (1, 2) == x`): the word is
  /// not reserved, so a field may be called `one`; as a field it is followed by an operator, a
  /// clause word or nothing, never by a value, and `one(` without a space is a call.
  var startsOne: Bool {
    guard isWord(current, "one") else { return false }
    let following = next
    switch following.kind {
    case .identifier: return !Vocabulary.isReserved(text(following))
    case .leftParen: return following.range.start > current.range.end
    case .quotedIdentifier, .parameter, .integer, .decimal, .string, .date, .dateTime, .time,
      .duration, .length, .word, .true, .false, .null:
      return true
    default: return false
    }
  }

  /// The optional condition after a subject. A condition nests one level (its operand can
  /// hold parentheses).
  @inline(never)
  private func parseConditionTail(_ subject: Expr) throws(ParseAbort) -> Expr {
    guard Parser.startsCondition(kind) else { return subject }
    try enter()
    defer { depth -= 1 }
    guard let condition = try parseCondition() else { return subject }
    return try finishPredicate(.predicate(subject, condition), from: subject.range)
  }

  @inline(never)
  private func parseExists() throws(ParseAbort) -> Expr {
    let keyword = advance()
    let path = try parseFieldPath(after: keyword)
    return try node(.exists(path), keyword.range.union(path.range))
  }

  @inline(never)
  private func parseQuantified() throws(ParseAbort) -> Expr {
    try enter()
    defer { depth -= 1 }
    let keyword = advance()
    let quantifier: Quantifier =
      switch keyword.kind {
      case .any: .any
      case .all: .all
      case .none: .none
      default: .one
      }
    if startsScopedFilter {
      // `any children (age < 18 and name startsWith A)`: a filter on each element's fields.
      let path = try parseFieldPath(after: keyword, scoped: true)
      let subject = try node(.field(path), path.range)
      let filter = try parseParenthesizedFilter()
      return try finishPredicate(
        .quantified(
          quantifier, subject, Condition(.satisfies(filter), operatorRange: filter.range)),
        from: keyword.range)
    }
    // The subject may compute on the elements: `any scores % 2 == 1`.
    let subject = try parseArithmetic(value: false)
    guard let condition = try parseCondition() else {
      var call: String? = nil
      if case .call(let name, _) = subject.kind { call = name.text }
      throw failUnlessInvalid(
        .expectedCondition(
          quantifier: text(keyword), found: currentDescription, at: expectedAt, call: call))
    }
    return try finishPredicate(.quantified(quantifier, subject, condition), from: keyword.range)
  }

  /// Whether a field path, a space and `(` come next: a quantifier's list of records and the
  /// filter on its elements (`any children (age < 18)`). Without the space it is a call, as
  /// everywhere: `any lower(tags) == "5g"`.
  var startsScopedFilter: Bool {
    var i = index
    guard tokens[i].kind == .identifier || tokens[i].kind == .quotedIdentifier else {
      return false
    }
    while i + 2 < tokens.count, tokens[i + 1].kind == .dot {
      i += 2
    }
    return i + 1 < tokens.count && tokens[i + 1].kind == .leftParen
      && tokens[i + 1].range.start > tokens[i].range.end
  }

  /// Makes a predicate node, and rejects `a < b < c`.
  private func finishPredicate(_ kind: Expr.Kind, from start: SourceRange) throws(ParseAbort)
    -> Expr
  {
    let e = try node(kind, start.union(previous.range))
    switch self.kind {
    case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
      // `a == 1 & b == 2` reads as `a == (1 & b) == 2`: say what `&` is.
      if case .predicate(_, let condition) = kind,
        case .compare(_, let operand, _) = condition.kind,
        case .arithmetic(let op, _, _) = operand.kind, op == .bitAnd || op == .bitOr
      {
        throw fail(.chainedComparison(at: current.range, bitwise: op))
      }
      throw fail(.chainedComparison(at: current.range))
    default:
      return e
    }
  }

  // additive       = multiplicative { ( "+" | "-" ) multiplicative } ;
  // multiplicative = unary { ( "*" | "/" | "//" | "%" ) unary } ;
  func parseArithmetic(value: Bool) throws(ParseAbort) -> Expr {
    let first = isSign ? try parseNegative(value: value) : try parsePrimary(value: value)
    guard Precedence.arithmetic(kind) != nil else { return first }
    return try parseArithmeticChain(first, value: value)
  }

  /// Both levels in one loop, reducing by the precedence table; all operators associate to
  /// the left. Each operator adds a level to the tree, so each counts towards the depth limit.
  @inline(never)
  private func parseArithmeticChain(_ first: Expr, value: Bool) throws(ParseAbort) -> Expr {
    var operands = [first]
    var operators: [ArithmeticOperator] = []
    var steps = 0
    defer { depth -= steps }
    while let op = Precedence.arithmetic(kind) {
      while let top = operators.last, top.precedence >= op.precedence {
        try reduce(&operands, &operators)
      }
      operators.append(op)
      advance()
      skipNewlines()
      steps += 1
      try enter()
      operands.append(
        isSign ? try parseNegative(value: value) : try parsePrimary(value: value))
    }
    while !operators.isEmpty { try reduce(&operands, &operators) }
    return operands[0]
  }

  private func reduce(_ operands: inout [Expr], _ operators: inout [ArithmeticOperator])
    throws(ParseAbort)
  {
    guard let op = operators.popLast(), let right = operands.popLast(),
      let left = operands.popLast()
    else { return }
    operands.append(try node(.arithmetic(op, left, right), left.range.union(right.range)))
  }

  // unary = { "-" | "+" | "~" } primary ;
  /// Callers check for a prefix and call ``parseNegative(value:)`` or ``parsePrimary(value:)``
  /// themselves, one frame less per level of nesting.
  func parseUnary(value: Bool) throws(ParseAbort) -> Expr {
    isSign ? try parseNegative(value: value) : try parsePrimary(value: value)
  }

  /// Whether the current token is a prefix operator: `-`, `~`, or `+`, which changes nothing
  /// (`+5`).
  var isSign: Bool { kind == .minus || kind == .plus || kind == .tilde }

  /// A run of prefix operators, read in a loop: each minus negates, each `~` complements, a
  /// plus changes nothing. A minus right before a number or duration is part of the literal
  /// (`-3`, `-7d`), which is how `-9223372036854775808` can be written.
  @inline(never)
  private func parseNegative(value: Bool) throws(ParseAbort) -> Expr {
    var prefixes: [Int] = []
    var count = 0
    while isSign {
      try enter()
      count += 1
      if kind != .plus { prefixes.append(index) }
      advance()
    }
    defer { depth -= count }
    if kind == .integer || kind == .decimal || kind == .duration || kind == .length {
      let negative = previous.kind == .minus
      let literal = try parseNumber(minus: negative ? previous : nil)
      return try wrap(
        literal, operators: negative ? prefixes.dropLast() : prefixes[...], negate: true)
    }
    return try wrap(try parsePrimary(value: value), operators: prefixes[...], negate: true)
  }

  /// Wraps `operand` in prefix operators (`not`, or unary minus and `~`) whose tokens are at
  /// `operators`, innermost last: `not not a` is `not(not(a))`. `~a` is `a ^ -1`.
  private func wrap(_ operand: Expr, operators: some BidirectionalCollection<Int>, negate: Bool)
    throws(ParseAbort) -> Expr
  {
    var expr = operand
    for token in operators.reversed() {
      let range = tokens[token].range.union(expr.range)
      if tokens[token].kind == .tilde {
        let allBits = try node(.literal(.int(-1)), tokens[token].range)
        expr = try node(.arithmetic(.bitXor, expr, allBits), range)
      } else {
        expr = try node(negate ? .negate(expr) : .not(expr), range)
      }
    }
    return expr
  }
}
