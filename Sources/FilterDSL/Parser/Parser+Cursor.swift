/// The token-stream vocabulary: `current`, `next`, `advance`, `match`, and the checks the
/// grammar functions share (depth, node budget, reporting).
extension Parser {
  var current: Token { tokens[index] }
  var kind: TokenKind { tokens[index].kind }

  /// The token after the current one, skipping line breaks inside parentheses.
  var next: Token {
    var i = Swift.min(index + 1, tokens.count - 1)
    while bracketDepth > 0, tokens[i].kind == .newline, i < tokens.count - 1 { i += 1 }
    return tokens[i]
  }

  /// The last token consumed (the first token before anything is consumed).
  var previous: Token { tokens[Swift.max(lastConsumed, 0)] }

  /// Whether nothing but separators has been consumed in this statement.
  var atStatementStart: Bool {
    lastConsumed < 0 || previous.kind == .newline || previous.kind == .semicolon
  }

  /// Moves to the next token and returns the one left behind. Inside parentheses, line breaks
  /// are skipped.
  @discardableResult
  func advance() -> Token {
    let token = tokens[index]
    lastConsumed = index
    if token.kind != .endOfFile { index += 1 }
    if bracketDepth > 0 { skipNewlines() }
    return token
  }

  /// Consumes the current token if it is of `kind`.
  func match(_ kind: TokenKind) -> Bool {
    guard self.kind == kind else { return false }
    advance()
    return true
  }

  /// Skips line breaks: after an infix operator, a filter obviously goes on.
  func skipNewlines() {
    while tokens[index].kind == .newline { index += 1 }
  }

  /// Whether the current token is the first on its line.
  var isFirstOnLine: Bool { index > 0 && tokens[index - 1].kind == .newline }

  /// The source text of a token.
  func text(_ token: Token) -> String {
    String(decoding: bytes[token.range.start..<token.range.end], as: UTF8.self)
  }

  /// Whether `token` is the unquoted word `word` (given in lower case), in any case.
  func isWord(_ token: Token, _ word: StaticString) -> Bool {
    token.kind == .identifier && Keywords.spells(word, bytes, token.range.start..<token.range.end)
  }

  /// Whether the current token ends a statement.
  var atStatementEnd: Bool {
    kind == .newline || kind == .semicolon || kind == .endOfFile
  }

  // MARK: Limits

  /// Enters one level of nesting; past the depth limit, parsing stops with a diagnostic.
  /// The current token is the one that nests.
  func enter() throws(ParseAbort) {
    depth += 1
    if depth > limits.effectiveMaxDepth { throw tooDeep() }
  }

  @inline(never)
  private func tooDeep() -> ParseAbort {
    fail(.nestingTooDeep(limit: limits.effectiveMaxDepth, at: current.range), fatal: true)
  }

  /// Makes a node, counting it against the node budget.
  func node(_ kind: Expr.Kind, _ range: SourceRange) throws(ParseAbort) -> Expr {
    nodes += 1
    if nodes > limits.maxNodes { throw tooManyNodes(range) }
    return Expr(kind, range: range)
  }

  @inline(never)
  private func tooManyNodes(_ range: SourceRange) -> ParseAbort {
    fail(.tooManyNodes(limit: limits.maxNodes, at: range), fatal: true)
  }

  // MARK: Reporting

  /// Reports `diagnostic` and returns the abort to throw. `fatal` stops the whole parse.
  func fail(_ diagnostic: Diagnostic, fatal: Bool = false, resume: Int? = nil) -> ParseAbort {
    report(diagnostic)
    if fatal { self.fatal = true }
    return ParseAbort(resume: resume)
  }

  /// An abort for the current token when it is `.invalid` (already reported by the lexer), or
  /// reports `diagnostic` first.
  func failUnlessInvalid(_ diagnostic: Diagnostic, resume: Int? = nil) -> ParseAbort {
    if kind == .invalid { return ParseAbort(resume: nil) }
    return fail(diagnostic, resume: resume)
  }

  func report(_ diagnostic: Diagnostic) {
    if diagnostics.count < limits.maxDiagnostics {
      diagnostics.append(diagnostic)
    } else if !fatal {
      diagnostics.append(.tooManyErrors(limit: limits.maxDiagnostics, at: diagnostic.range))
      fatal = true
    }
  }

  /// Where to point when something is missing: at the current token, or just after the
  /// previous one when the input or line ended first.
  var expectedAt: SourceRange {
    guard index > 0, kind == .endOfFile || kind == .newline || isFirstOnLine else {
      return current.range
    }
    return .empty(at: previous.range.end)
  }

  /// How the current token is named in messages: its text, or what it is.
  var currentDescription: String { describe(current) }

  func describe(_ token: Token) -> String {
    switch token.kind {
    case .newline, .endOfFile: token.kind.summary ?? ""
    default: quoted(text(token))
    }
  }
}
