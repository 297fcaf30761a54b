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
    defer { lastConsumed = index - 1 }
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

  // statement = "load" string { "as" name | load_option }   (one "as" at most)
  //           | "use" name
  //           | "let" ( name | parameter ) "=" filter [ range_op operand ]
  //           | "count" [ filter ]
  //           | "facets" field_path { "," field_path } [ "where" filter ]
  //           | "stats" stats [ "where" filter ]
  //           | "explain" query
  //           | "show" ( "*" | field_path { "," field_path } )
  //           | "set" [ ( name | "null" ) unary ]
  //           | query ;
  func parseStatement() throws(ParseAbort) -> Stmt {
    let start = current
    let kind: Stmt.Kind
    switch statementKeyword(start) {
    case "load": kind = try parseLoad()
    case "use": kind = .use(try parseStatementName(after: advance()))
    case "let": kind = try parseLet()
    case "count":
      advance()
      kind = .count(atStatementEnd ? nil : try parseFilter())
    case "facets": kind = try parseFacets()
    case "stats":
      advance()
      kind = .stats(try parseStatsWithClauses())
    case "explain":
      advance()
      kind = .explain(try parseQuery())
    case "show": kind = try parseShow()
    case "set":
      let keyword = advance()
      if atStatementEnd {
        kind = .settings
      } else {
        // `null` is a keyword, and a setting's name too: set null "∅".
        let option =
          self.kind == .null ? name(advance()) : try parseStatementName(after: keyword)
        kind = .set(option, try parseSettingValue())
      }
    default:
      kind = .query(try parseQuery())
    }
    return Stmt(kind, range: start.range.union(previous.range))
  }

  // load        = "load" string { "as" name | load_option } ;   (one "as" at most)
  // load_option = name option_value { "," option_value } ;
  // option_value = string | word written without spaces (`zip=string`, `data.items`) ;
  private func parseLoad() throws(ParseAbort) -> Stmt.Kind {
    advance()
    guard kind == .string else {
      throw failUnlessInvalid(
        .expectedPath(
          found: currentDescription, at: expectedAt, bare: kind == .identifier || kind == .word))
    }
    let token = advance()
    var ignored: [LiteralDecoder.Problem] = []
    let text = LiteralDecoder.unquote(
      bytes, token.range.start..<token.range.end, problems: &ignored)
    var alias: Name? = nil
    if isWord(current, "as") { alias = try parseStatementName(after: advance()) }
    var options: [LoadOption] = []
    while !atStatementEnd {
      // `as NAME` may come after the options too (`load "shop.db" table orders as o`), once.
      if alias == nil, isWord(current, "as") {
        alias = try parseStatementName(after: advance())
        continue
      }
      guard kind == .identifier || kind == .null else {
        throw fail(
          .expectedToken(
            "an option (null, type, root, format, delimiter, header, spaces, table), as NAME, or the end of the statement",
            after: self.text(previous), found: currentDescription, at: expectedAt))
      }
      let name = Name(self.text(advance()).lowercased(), range: previous.range)
      var values = [try parseOptionValue(after: name)]
      while match(.comma) { values.append(try parseOptionValue(after: name)) }
      options.append(LoadOption(name, values))
    }
    return .load(Name(text, range: token.range), alias: alias, options: options)
  }

  /// A value of a `load` option: text in quotes, or tokens written together (`zip=string`).
  private func parseOptionValue(after option: Name) throws(ParseAbort) -> Name {
    if kind == .string {
      let token = advance()
      var ignored: [LiteralDecoder.Problem] = []
      let text = LiteralDecoder.unquote(
        bytes, token.range.start..<token.range.end, problems: &ignored)
      return Name(text, range: token.range)
    }
    guard !atStatementEnd, kind != .comma, kind != .invalid else {
      throw fail(
        .expectedToken(
          "a value", after: option.text, found: currentDescription, at: expectedAt))
    }
    let first = advance()
    var range = first.range
    while !atStatementEnd, kind != .comma, current.range.start == range.end {
      range = range.union(advance().range)
    }
    return Name(String(decoding: bytes[range.start..<range.end], as: UTF8.self), range: range)
  }

  // let = "let" ( name | parameter ) "=" filter [ range_op arithmetic ] ;
  private func parseLet() throws(ParseAbort) -> Stmt.Kind {
    let keyword = advance()
    let name: Name
    if kind == .parameter {
      let token = advance()
      name = Name(text(token).dropFirst().description, range: token.range)
    } else {
      name = try parseStatementName(after: keyword)
    }
    guard kind == .equal else {
      throw failUnlessInvalid(
        .expectedToken("'='", after: "let \(name.text)", found: currentDescription, at: expectedAt))
    }
    advance()
    skipNewlines()
    let value = try parseFilter()
    guard kind == .closedRange || kind == .halfOpenRange else { return .let(name, value) }
    let rangeKind: RangeKind = advance().kind == .closedRange ? .closed : .halfOpen
    skipNewlines()
    let upper = try parseArithmetic(value: false)
    return .let(name, try node(.range(value, upper, rangeKind), value.range.union(upper.range)))
  }

  // set_value = word | unary ;  (a keyword alone is a word: `set limit none`)
  private func parseSettingValue() throws(ParseAbort) -> Expr {
    let end = next.kind
    let literal = kind == .null || kind == .true || kind == .false
    guard kind.isKeyword, !literal, end == .newline || end == .semicolon || end == .endOfFile
    else {
      return try parseUnary(value: true)
    }
    let token = advance()
    return try node(.literal(.string(text(token))), token.range)
  }

  // facets = "facets" field_path { "," field_path } [ "where" filter ] ;
  private func parseFacets() throws(ParseAbort) -> Stmt.Kind {
    let fields = try parseFieldList(after: advance())
    guard isWord(current, "where") else { return .facets(fields, filter: nil) }
    advance()
    return .facets(fields, filter: try parseFilter())
  }

  // show = "show" ( "*" | field_path { "," field_path } ) ;
  private func parseShow() throws(ParseAbort) -> Stmt.Kind {
    let keyword = advance()
    guard kind == .star else { return .show(try parseFieldList(after: keyword)) }
    advance()
    return .show([])
  }

  /// The statement keyword `token` spells, if it is one.
  private func statementKeyword(_ token: Token) -> String? {
    guard token.kind == .identifier else { return nil }
    let word = text(token).lowercased()
    return Vocabulary.statements.contains(word) ? word : nil
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
