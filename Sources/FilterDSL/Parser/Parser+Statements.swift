/// Scripts, statements and query clauses.
extension Parser {
  // script    = { separator } [ statement { separator { separator } statement } ] { separator } ;
  // separator = newline | ";" ;
  func parseStatements() -> Script {
    var statements: [Stmt] = []
    while !fatal {
      while kind == .newline || kind == .semicolon { advance() }
      if kind == .endOfFile { break }
      let start = index
      do {
        let statement = try parseStatement()
        try expectEnd()
        statements.append(statement)
      } catch {
        recover(from: error, statementStart: start)
      }
    }
    return Script(statements)
  }

  /// Skips the rest of a broken statement: to the next line break or `;`, or to where the
  /// abort says the next statement starts. Always moves forward.
  private func recover(from abort: ParseAbort, statementStart: Int) {
    depth = 0
    bracketDepth = 0
    if let resume = abort.resume, resume > statementStart {
      index = resume
      return
    }
    while kind != .newline && kind != .semicolon && kind != .endOfFile { index += 1 }
    if index == statementStart && kind != .endOfFile { index += 1 }
  }

  /// The statement or input must end here; otherwise say what is left over.
  func expectEnd() throws(ParseAbort) {
    if kind == .endOfFile || (script && atStatementEnd) { return }
    throw trailingTokens()
  }

  // statement = "load" string [ "as" name ]
  //           | "use" name
  //           | "let" ( name | parameter ) "=" filter [ range_op operand ]
  //           | "count" [ filter ]
  //           | "facets" field_path { "," field_path } [ "where" filter ]
  //           | "explain" query
  //           | "show" ( "*" | field_path { "," field_path } )
  //           | "set" name unary
  //           | query ;
  func parseStatement() throws(ParseAbort) -> Stmt {
    let start = current
    let kind: Stmt.Kind
    switch statementKeyword(start) {
    case "load":
      advance()
      guard self.kind == .string else {
        throw failUnlessInvalid(
          .expectedPath(
            found: currentDescription, at: expectedAt,
            bare: self.kind == .identifier || self.kind == .word))
      }
      let path = name(advance())
      var ignored: [LiteralDecoder.Problem] = []
      let decoded = Name(
        LiteralDecoder.unquote(bytes, path.range.start..<path.range.end, problems: &ignored),
        range: path.range)
      var alias: Name? = nil
      if isWord(current, "as") {
        let asToken = advance()
        alias = try parseStatementName(after: asToken)
      }
      kind = .load(decoded, alias: alias)
    case "use":
      let keyword = advance()
      kind = .use(try parseStatementName(after: keyword))
    case "let":
      let keyword = advance()
      let name: Name
      if self.kind == .parameter {
        let token = advance()
        name = Name(text(token).dropFirst().description, range: token.range)
      } else {
        name = try parseStatementName(after: keyword)
      }
      guard self.kind == .equal else {
        throw failUnlessInvalid(
          .expectedToken(
            "'='", after: "let \(name.text)", found: currentDescription, at: expectedAt))
      }
      advance()
      skipNewlines()
      var value = try parseFilter()
      if self.kind == .closedRange || self.kind == .halfOpenRange {
        let op = advance()
        skipNewlines()
        let upper = try parseArithmetic(value: false)
        value = try node(
          .range(value, upper, op.kind == .closedRange ? .closed : .halfOpen),
          value.range.union(upper.range))
      }
      kind = .let(name, value)
    case "count":
      advance()
      kind = .count(atStatementEnd ? nil : try parseFilter())
    case "facets":
      let keyword = advance()
      let fields = try parseFieldList(after: keyword)
      var filter: Expr? = nil
      if isWord(current, "where") {
        advance()
        filter = try parseFilter()
      }
      kind = .facets(fields, filter: filter)
    case "explain":
      advance()
      kind = .explain(try parseQuery())
    case "show":
      let keyword = advance()
      if self.kind == .star {
        advance()
        kind = .show([])
      } else {
        kind = .show(try parseFieldList(after: keyword))
      }
    case "set":
      let keyword = advance()
      let option = try parseStatementName(after: keyword)
      kind = .set(option, try parseUnary(value: true))
    default:
      kind = .query(try parseQuery())
    }
    return Stmt(kind, range: start.range.union(previous.range))
  }

  /// The statement keyword `token` spells, if it is one.
  private func statementKeyword(_ token: Token) -> String? {
    guard token.kind == .identifier else { return nil }
    for word: StaticString in ["load", "use", "let", "count", "facets", "explain", "show", "set"]
    where isWord(token, word) {
      return word.description
    }
    return nil
  }

  /// A name after a statement keyword: `use phones`, `let big`, `set format`.
  private func parseStatementName(after keyword: Token) throws(ParseAbort) -> Name {
    guard kind == .identifier || kind == .quotedIdentifier else {
      throw failUnlessInvalid(
        .expectedToken("a name", after: text(keyword), found: currentDescription, at: expectedAt))
    }
    return name(advance())
  }

  private func parseFieldList(after keyword: Token) throws(ParseAbort) -> [FieldPath] {
    var fields = [try parseFieldPath(after: keyword)]
    while kind == .comma {
      let comma = advance()
      skipNewlines()
      fields.append(try parseFieldPath(after: comma))
    }
    return fields
  }
}
