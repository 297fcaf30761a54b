/// Primaries: literals, names, calls, parameters, lists and parenthesized filters.
extension Parser {
  // primary = literal | field_path | call | parameter | list | "(" filter ")" ;
  /// In value position (`value` is true: right of an operator, list items, bounds), a bare
  /// word is text: `color == Midnight`. Elsewhere it names a field.
  ///
  /// This function and the others on the recursive path keep their frames small (the leaf
  /// cases live in their own functions), so that deep nesting fits a 512 KiB stack even in a
  /// debug build.
  func parsePrimary(value: Bool) throws(ParseAbort) -> Expr {
    let primary = try parsePrimaryBase(value: value)
    return kind == .leftBracket ? try parseIndexes(primary) : primary
  }

  // index = primary "[" arithmetic "]" { "[" arithmetic "]" } ;
  /// `tags[0]`, `tags[-1]`, `matrix[1][2]`: the same as `at(tags, 0)`, the function that reads
  /// the element at a position (null when there is none).
  @inline(never)
  private func parseIndexes(_ base: Expr) throws(ParseAbort) -> Expr {
    var expr = base
    var levels = 0
    defer { depth -= levels }
    while kind == .leftBracket {
      try enter()
      levels += 1
      advance()
      let position = try parseArithmetic(value: false)
      guard kind == .rightBracket else {
        if kind == .invalid { throw ParseAbort() }
        throw fail(
          .expectedToken(
            "']' to close the index", after: text(previous),
            found: currentDescription, at: expectedAt))
      }
      let close = advance()
      expr = try node(
        .call(Name("at", range: close.range), [expr, position]), expr.range.union(close.range))
    }
    return expr
  }

  private func parsePrimaryBase(value: Bool) throws(ParseAbort) -> Expr {
    switch kind {
    case .leftParen:
      return current.opensList ? try parseList() : try parseGroup()
    case .identifier, .quotedIdentifier:
      if next.kind == .leftParen { return try parseCall() }
      return try parseNamed(value: value)
    default:
      // Some text operators are functions too: startsWith(model, "iPhone").
      if let op = TextOperator(token: kind), op.isFunction, next.kind == .leftParen {
        return try parseCall()
      }
      return try parseLeaf(value: value)
    }
  }

  /// A field path, a bare word in value position, or a `case` expression.
  @inline(never)
  private func parseNamed(value: Bool) throws(ParseAbort) -> Expr {
    if startsCase { return try parseCase() }
    if value && kind == .identifier { return try parseBareWord() }
    let path = try parseFieldPath(after: nil)
    return try node(.field(path), path.range)
  }

  /// Literals, parameters, and what cannot start a primary.
  @inline(never)
  private func parseLeaf(value: Bool) throws(ParseAbort) -> Expr {
    let token = current
    switch token.kind {
    case .integer, .decimal, .duration, .length:
      return try parseNumber(minus: nil)
    case .string:
      advance()
      var ignored: [LiteralDecoder.Problem] = []
      let text = LiteralDecoder.unquote(
        bytes, token.range.start..<token.range.end, problems: &ignored)
      return try node(.literal(.string(text)), token.range)
    case .date, .dateTime:
      advance()
      guard case .success(let literal) = DateLiteral.scan(bytes, at: token.range.start).value else {
        throw ParseAbort()  // the lexer made these tokens only from valid dates
      }
      return try node(.literal(literal), token.range)
    case .time:
      advance()
      guard case .success(let literal) = DateLiteral.scanTime(bytes, at: token.range.start).value
      else {
        throw ParseAbort()  // the lexer made these tokens only from valid times
      }
      return try node(.literal(literal), token.range)
    case .true, .false:
      advance()
      return try node(.literal(.bool(token.kind == .true)), token.range)
    case .null:
      advance()
      return try node(.literal(.null), token.range)
    case .word:
      guard value else { throw fail(.wordAsField(text(token), at: token.range)) }
      return try parseBareWord()
    case .parameter:
      advance()
      let name = Name(text(token).dropFirst().description, range: token.range)
      return try node(.parameter(name), token.range)
    case .invalid:
      throw ParseAbort()
    case .leftBracket:
      throw fail(.squareBracket(at: token.range))
    default:
      throw fail(expectedExpression(value: value))
    }
  }

  /// A word in value position, read as text.
  private func parseBareWord() throws(ParseAbort) -> Expr {
    let token = advance()
    lastBareWord = lastConsumed
    if kind == .dot {
      throw fail(.dotAfterBareWord(text(token), at: current.range))
    }
    return try node(.literal(.string(text(token))), token.range)
  }

  /// What to say when no primary starts at the current token.
  private func expectedExpression(value: Bool) -> Diagnostic {
    let token = current
    if token.kind.isKeyword {
      return .keywordAsValue(text(token), value: value, at: token.range)
    }
    let what: String
    switch previous.kind {
    case _ where value: what = "a value"
    case _ where atStatementStart: what = "a filter"
    case .and, .or, .ampAmp, .pipePipe, .not, .bang, .leftParen: what = "a filter"
    default: what = "a field or value"
    }
    return .expectedExpression(
      what, after: atStatementStart ? nil : text(previous), found: currentDescription,
      at: expectedAt)
  }

  /// An integer, decimal or duration literal, negated when `minus` is given.
  func parseNumber(minus: Token?) throws(ParseAbort) -> Expr {
    let token = advance()
    let range = minus.map { $0.range.union(token.range) } ?? token.range
    let digits = token.range.start..<token.range.end
    switch token.kind {
    case .integer:
      let magnitude = LiteralDecoder.integer(bytes, digits) ?? UInt64.max
      let value: Int64
      if minus != nil, magnitude <= UInt64(Int64.max) + 1 {
        value = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
      } else if minus == nil, magnitude <= UInt64(Int64.max) {
        value = Int64(magnitude)
      } else {
        throw fail(.integerTooLarge(text(token), at: token.range))
      }
      return try node(.literal(.int(value)), range)
    case .decimal:
      // Written with a point alone: exact, as SQL reads `6.1`; with an exponent (or beyond
      // 38 digits), a double.
      if let exact = LiteralDecoder.exactDecimal(bytes, digits) {
        return try node(.literal(.decimal(minus == nil ? exact : exact.negated)), range)
      }
      let number = LiteralDecoder.decimal(bytes, digits) ?? 0
      return try node(.literal(.double(minus == nil ? number : -number)), range)
    case .length:
      // `1.5km` is the decimal 1500.0 (exact); with an exponent, a double.
      if digits.count > 2,
        let exact = LiteralDecoder.exactDecimal(bytes, digits.lowerBound..<digits.upperBound - 2)?
          .multiplying(by: ExactDecimal(1000))
      {
        return try node(.literal(.decimal(minus == nil ? exact : exact.negated)), range)
      }
      let metres = LiteralDecoder.kilometres(bytes, digits) ?? 0
      return try node(.literal(.double(minus == nil ? metres : -metres)), range)
    default:
      guard case .duration(let span) = LiteralDecoder.duration(bytes, digits) else {
        throw ParseAbort()
      }
      // 0 - n cannot overflow: durations are at most Int64.max nanoseconds.
      let nanoseconds = minus == nil ? span.nanoseconds : 0 - span.nanoseconds
      return try node(.literal(.duration(TimeSpan(nanoseconds: nanoseconds))), range)
    }
  }

  // field_path = name { "." name } ;
  // name       = identifier | quoted_identifier ;   (after ".", keywords are names too)
  /// `after` is the keyword the path follows (`exists`), for the message when there is none.
  /// A `(` may follow only a quantifier's list (`any children (age < 18)`).
  func parseFieldPath(after keyword: Token?, scoped: Bool = false) throws(ParseAbort)
    -> FieldPath
  {
    guard kind == .identifier || kind == .quotedIdentifier else {
      throw failUnlessInvalid(
        .expectedFieldName(
          after: keyword.map { text($0) }, found: currentDescription, at: expectedAt))
    }
    var components = [name(advance())]
    while kind == .dot {
      let dot = advance()
      guard kind == .identifier || kind == .quotedIdentifier || kind.isKeyword else {
        throw failUnlessInvalid(
          .expectedFieldName(after: text(dot), found: currentDescription, at: expectedAt))
      }
      components.append(name(advance()))
    }
    if kind == .leftParen && !isFirstOnLine && !scoped {
      throw fail(.invalidCall(at: current.range))
    }
    return FieldPath(components)
  }

  /// The name a token spells: quotes and escapes removed from quoted names.
  func name(_ token: Token) -> Name {
    if token.kind == .quotedIdentifier {
      var ignored: [LiteralDecoder.Problem] = []
      let text = LiteralDecoder.unquote(
        bytes, token.range.start..<token.range.end, problems: &ignored)
      return Name(text, range: token.range)
    }
    return Name(text(token), range: token.range)
  }

  // call = ( name | "contains" | "startsWith" | "endsWith" ) "(" [ filter { "," filter } [ "," ] ] ")" ;
  private func parseCall() throws(ParseAbort) -> Expr {
    if isWord(current, "cast") { return try parseCast() }
    let nameToken = advance()
    let open = try openParenthesis()
    defer { depth -= 1 }
    var callee = name(nameToken)
    countSpelledAsSQL(&callee)
    var arguments: [Expr] = []
    while kind != .rightParen {
      if kind == .endOfFile { throw unclosed(open) }
      arguments.append(try parseFilter())
      if isWord(current, "where") { try parseFiltered(&arguments[arguments.count - 1]) }
      guard match(.comma) else { break }
    }
    let close = try closeParenthesis(open, after: arguments.isEmpty ? nil : "argument")
    // An operator's function is called by its spelling (`beginsWith(...)` is `startsWith`).
    if let op = TextOperator(token: nameToken.kind) { callee.text = op.spelling }
    let call = try node(.call(callee, arguments), nameToken.range.union(close.range))
    try rejectPostfix()
    return call
  }

  // list = "(" [ operand { "," operand } [ "," ] ] ")" ;
  func parseList() throws(ParseAbort) -> Expr {
    let open = try openParenthesis()
    defer { depth -= 1 }
    var items: [Expr] = []
    while kind != .rightParen {
      if kind == .endOfFile { throw unclosed(open) }
      items.append(try parseArithmetic(value: true))
      if items.count > limits.maxListItems {
        throw fail(.listTooLong(limit: limits.maxListItems, at: open.range), fatal: true)
      }
      guard match(.comma) else { break }
    }
    let close = try closeParenthesis(open, after: items.isEmpty ? nil : "list item")
    let list = try node(.list(items), open.range.union(close.range))
    try rejectPostfix()
    return list
  }

  // group = "(" filter ")" ;
  private func parseGroup() throws(ParseAbort) -> Expr {
    let open = try openParenthesis()
    defer { depth -= 1 }
    var inner = try parseFilter()
    if isWord(current, "where") { try parseFiltered(&inner) }
    _ = try closeParenthesis(open, after: nil)
    try rejectPostfix()
    return inner
  }

  // filtered = arithmetic "where" filter ;   (in parentheses: a call's or its own)
  /// `children where age > 12`: `list` becomes the list's records for which the filter
  /// holds. (In place, and out of line: the callers are on the recursive path.)
  @inline(never)
  private func parseFiltered(_ list: inout Expr) throws(ParseAbort) {
    advance()
    try enter()
    defer { depth -= 1 }
    let filter = try parseFilter()
    list = try node(.filtered(list, filter), list.range.union(filter.range))
  }

  /// `(` filter `)`.
  func parseParenthesizedFilter() throws(ParseAbort) -> Expr {
    let open = try openParenthesis()
    defer { depth -= 1 }
    let inner = try parseFilter()
    _ = try closeParenthesis(open, after: nil)
    return inner
  }

  /// Consumes a `(`, entering one level of nesting (the caller leaves it) and the region where
  /// line breaks are spaces. Returns the `(` for diagnostics.
  func openParenthesis() throws(ParseAbort) -> Token {
    let open = current
    try enter()
    bracketDepth += 1
    advance()
    return open
  }

  /// Consumes the `)` that closes `open`, or reports what is wrong. `item` names what the
  /// parentheses hold, for "expected ',' or ')' after list item".
  func closeParenthesis(_ open: Token, after item: String?) throws(ParseAbort) -> Token {
    guard kind == .rightParen else {
      if kind == .invalid { throw ParseAbort() }
      if kind == .endOfFile || isFirstOnLine { throw unclosed(open) }
      throw fail(
        .expectedClosing(
          after: item, found: currentDescription, at: expectedAt, open: open.range,
          unquoted: unquotedPhrase()))
    }
    bracketDepth -= 1
    return advance()
  }

  /// The `(` at `open` is never closed. If the statement ran on into a new line, the next
  /// statement starts there.
  private func unclosed(_ open: Token) -> ParseAbort {
    let resume = isFirstOnLine ? index : nil
    let expectedAt = SourceRange.empty(at: previous.range.end)
    return fail(.unclosedParenthesis(at: open.range, expected: expectedAt), resume: resume)
  }

  /// `(a)(b)`, `"x".y`: only function names can be called, only fields have fields.
  func rejectPostfix() throws(ParseAbort) {
    if kind == .dot || (kind == .leftParen && !isFirstOnLine) { throw postfixError() }
  }

  @inline(never)
  private func postfixError() -> ParseAbort {
    fail(kind == .dot ? .invalidFieldStep(at: current.range) : .invalidCall(at: current.range))
  }
}
