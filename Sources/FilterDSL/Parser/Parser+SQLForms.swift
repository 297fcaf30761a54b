/// SQL's spellings of what flt writes as calls: `cast(x as integer)` is `int(x)`, and
/// `case when c then a else b end` is `if(c, a, if(...))`. The tree holds the calls, so every
/// stage after the parser knows them already (and the printer writes them as calls).
extension Parser {
  // cast = "cast" "(" filter "as" type_name ")" ;
  /// `cast(price as integer)`: the conversion function of the type named.
  @inline(never)
  func parseCast() throws(ParseAbort) -> Expr {
    let keyword = advance()
    let open = try openParenthesis()
    defer { depth -= 1 }
    let value = try parseFilter()
    guard isWord(current, "as") else {
      throw failUnlessInvalid(
        .expectedToken(
          "'as' and a type", after: "cast(...", found: currentDescription, at: expectedAt))
    }
    advance()
    guard kind == .identifier, let function = Parser.castFunctions[text(current).lowercased()]
    else { throw failUnlessInvalid(.castType(found: currentDescription, at: expectedAt)) }
    let type = advance()
    // PostgreSQL's two-word name.
    if function == "double" && isWord(current, "precision") { advance() }
    let close = try closeParenthesis(open, after: "type")
    let call = try node(
      .call(Name(function, range: type.range), [value]), keyword.range.union(close.range))
    try rejectPostfix()
    return call
  }

  /// SQL's spellings of counts, inside the parentheses of a call of `callee`: `count(*)` is
  /// `count()`, `count(distinct x)` is `distinct(x)`. Out of line: the call's parser recurses,
  /// and its frame must stay small (nesting is checked on a 512 KiB thread).
  @inline(never)
  func countSpelledAsSQL(_ callee: inout Name) {
    guard callee.text.lowercased() == "count" else { return }
    if kind == .star && next.kind == .rightParen {
      advance()
    } else if isWord(current, "distinct") && next.kind != .rightParen && next.kind != .comma
      && next.kind != .leftParen
    {
      advance()
      callee.text = "distinct"
    }
  }

  /// The type names `cast` takes (SQLite's and PostgreSQL's), and the function each is.
  static let castFunctions: [String: String] = [
    "int": "int", "integer": "int", "bigint": "int", "smallint": "int", "int8": "int",
    "int4": "int", "double": "double", "real": "double", "float": "double", "float8": "double",
    "text": "text", "string": "text", "varchar": "text", "bool": "bool", "boolean": "bool",
    "date": "date", "datetime": "datetime", "timestamp": "datetime", "timestamptz": "datetime",
    "time": "time",
    "decimal": "decimal", "numeric": "decimal",
  ]

  /// Whether a `case` expression starts here: `case when ...`, or `case x when ...` (a field
  /// named `case` is followed by an operator, a clause word or nothing, never by a value).
  var startsCase: Bool {
    guard isWord(current, "case") else { return false }
    let following = next
    switch following.kind {
    case .identifier:
      return isWord(following, "when") || !Vocabulary.isReserved(text(following))
    case .quotedIdentifier, .parameter, .integer, .decimal, .string, .date, .dateTime, .time,
      .duration, .length, .true, .false, .null, .word:
      return true
    default:
      return false
    }
  }

  // case = "case" [ arithmetic ] "when" filter "then" filter { "when" filter "then" filter }
  //        [ "else" filter ] "end" ;
  /// `case when c1 then a when c2 then b else d end` is `if(c1, a, if(c2, b, d))`; without
  /// `else`, the last is null. `case x when v then a ... end` tests `x == v` in turn (the values
  /// are in value position, as on the right of `==`). A condition that is not true (false or
  /// unknown) goes on to the next, as in SQL. Each `when` nests one level.
  @inline(never)
  func parseCase() throws(ParseAbort) -> Expr {
    let keyword = advance()
    try enter()
    var levels = 1
    defer { depth -= levels }
    let subject = isWord(current, "when") ? nil : try parseArithmetic(value: false)
    var arms: [(test: Expr, result: Expr, when: Token)] = []
    while isWord(current, "when") {
      let when = advance()
      try enter()
      levels += 1
      let test: Expr
      if let subject {
        let value = try parseArithmetic(value: true)
        test = try node(
          .predicate(subject, Condition(.compare(.equal, value, []), operatorRange: when.range)),
          when.range.union(value.range))
      } else {
        test = try parseFilter()
      }
      try expectWord("then", "'then' and a value", after: when)
      arms.append((test, try parseFilter(), when))
    }
    guard !arms.isEmpty else {
      throw failUnlessInvalid(
        .expectedToken(
          "'when' and a condition", after: text(previous), found: currentDescription,
          at: expectedAt))
    }
    var otherwise: Expr? = nil
    if isWord(current, "else") {
      advance()
      otherwise = try parseFilter()
    }
    try expectWord("end", "'end' to close 'case'", after: previous)
    let end = previous
    var expr: Expr
    if let otherwise {
      expr = otherwise
    } else {
      expr = try node(.literal(.null), end.range)
    }
    for arm in arms.reversed() {
      let start = arm.when.range.start == arms[0].when.range.start ? keyword : arm.when
      expr = try node(
        .call(Name("if", range: arm.when.range), [arm.test, arm.result, expr]),
        start.range.union(end.range))
    }
    return expr
  }

  /// Consumes the word `word`, or reports that `what` was expected after `token`.
  private func expectWord(_ word: StaticString, _ what: String, after token: Token)
    throws(ParseAbort)
  {
    guard isWord(current, word) else {
      throw failUnlessInvalid(
        .expectedToken(what, after: text(token), found: currentDescription, at: expectedAt))
    }
    advance()
  }
}
