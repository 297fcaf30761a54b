/// Queries: a filter and its clauses; and what to say about tokens left over.
extension Parser {
  // query  = [ filter ] { clause } ;
  // clause = "order" "by" sort_key { "," sort_key }
  //        | "limit" operand
  //        | "offset" operand ;
  /// The clause words are not reserved: `limit > 5` at the start of a query is a filter on a
  /// field named `limit`, while `limit 5` is a clause.
  func parseQuery() throws(ParseAbort) -> Query {
    var query = Query(filter: nil)
    if !atClause(queryStart: true) && !atStatementEnd {
      query.filter = try parseFilter()
    }
    try parseClauses(&query)
    return query
  }

  /// The clauses after a query's filter (or after `stats`), each at most once.
  func parseClauses(_ query: inout Query) throws(ParseAbort) {
    while atClause(
      queryStart: query.filter == nil && query.ordering.isEmpty && query.limit == nil
        && query.offset == nil)
    {
      let word = advance()
      if isWord(word, "order") {
        if !query.ordering.isEmpty { throw fail(.duplicateClause("order by", at: word.range)) }
        guard isWord(current, "by") else {
          throw failUnlessInvalid(
            .expectedToken("'by'", after: "order", found: currentDescription, at: expectedAt))
        }
        advance()
        query.ordering = try parseSortKeys()
      } else if isWord(word, "limit") {
        if query.limit != nil { throw fail(.duplicateClause("limit", at: word.range)) }
        query.limit = try parseOperand()
      } else {
        if query.offset != nil { throw fail(.duplicateClause("offset", at: word.range)) }
        query.offset = try parseOperand()
      }
    }
  }

  /// Whether a clause starts here. At the start of a query, `limit`/`offset` must be followed
  /// by something that can only be their operand.
  private func atClause(queryStart: Bool) -> Bool {
    let token = current
    if isWord(token, "order") { return isWord(next, "by") || !queryStart }
    guard isWord(token, "limit") || isWord(token, "offset") else { return false }
    if !queryStart { return true }
    switch next.kind {
    case .integer, .parameter, .minus: return true
    default: return false
    }
  }

  // sort_key = additive [ "asc" | "desc" ] [ "nulls" ( "first" | "last" ) ] ;
  private func parseSortKeys() throws(ParseAbort) -> [SortKey] {
    var keys: [SortKey] = []
    repeat {
      skipNewlines()
      let key = try parseArithmetic(value: false)
      var sortKey = SortKey(key)
      if isWord(current, "asc") {
        advance()
      } else if isWord(current, "desc") {
        advance()
        sortKey.direction = .descending
      }
      if isWord(current, "nulls") {
        let nulls = advance()
        if isWord(current, "first") {
          sortKey.nulls = .first
        } else if isWord(current, "last") {
          sortKey.nulls = .last
        } else {
          throw failUnlessInvalid(
            .expectedToken(
              "'first' or 'last'", after: text(nulls), found: currentDescription, at: expectedAt))
        }
        advance()
      }
      keys.append(sortKey)
    } while match(.comma)
    return keys
  }

  /// Clauses other query languages spell differently (`sort by`, `group by`), with what flt
  /// writes instead.
  static let otherLanguages: [String: String] = [
    "sort": "did you mean 'order by'? flt sorts with: order by price desc",
    "sorted": "did you mean 'order by'? flt sorts with: order by price desc",
    "group": "to count or sum for each value of a field, write: stats count(), sum(price) by color",
  ]

  /// SQL's words where flt has others (or none): the help says flt's.
  static let sqlWords: [String: String] = [
    "ilike": "for a match that ignores case, write like[c]: name like[c] \"iphone*\"",
    "having":
      "stats have no 'having': filter the records with where (count() by color where price > 100), or sort the groups and keep the first: order by count() desc limit 10",
    "regexp": "write matches: name matches \"^i\"",
    "rlike": "write matches: name matches \"^i\"",
  ]

  /// When the current token continues a bare word just read as a value (`Space Black`,
  /// `iPhone 14 Pro`): that word and every word or number after it on the line, which the
  /// user most likely meant as one text.
  func unquotedPhrase() -> String? {
    let wordLike: Set<TokenKind> = [.identifier, .word, .integer, .decimal]
    guard lastBareWord == lastConsumed, wordLike.contains(kind),
      !Parser.startsCondition(next.kind)
    else { return nil }
    var words = [text(previous)]
    var i = index
    while i < tokens.count, wordLike.contains(tokens[i].kind),
      !Parser.startsCondition(tokens[Swift.min(i + 1, tokens.count - 1)].kind)
    {
      words.append(text(tokens[i]))
      i += 1
    }
    return words.joined(separator: " ")
  }

  /// A diagnostic for a token left after a complete filter or statement, with the likely
  /// reason: text with spaces not quoted, a misspelled operator, a missing `and`/`or`.
  func trailingTokens() -> ParseAbort {
    let token = current
    switch token.kind {
    case .invalid:
      return ParseAbort()
    case .rightParen:
      return fail(.unmatchedParenthesis(at: token.range))
    case .semicolon where !script:
      return fail(
        .unexpectedToken(
          currentDescription, at: token.range,
          help: "a filter is a single statement; ';' separates the statements of a script"))
    default:
      break
    }
    let found = currentDescription
    if token.kind == .identifier, let clause = Parser.otherLanguages[text(token).lowercased()],
      isWord(next, "by")
    {
      return fail(.unexpectedToken(found, at: token.range, help: clause))
    }
    if token.kind == .identifier, let help = Parser.sqlWords[text(token).lowercased()] {
      return fail(.unexpectedToken(found, at: token.range, help: help))
    }
    // SQL's `where` before a filter: the filter stands alone.
    if index > 0, isWord(tokens[index - 1], "where"),
      index == 1 || [.newline, .semicolon].contains(tokens[index - 2].kind)
    {
      return fail(
        .unexpectedToken(
          found, at: token.range,
          help: "a filter needs no 'where' before it: leave it out (price > 100)"))
    }
    if let phrase = unquotedPhrase() {
      return fail(.unexpectedToken(found, at: token.range, help: Diagnostic.quoteHint(phrase)))
    }
    if token.kind == .identifier,
      let suggestion = Suggestion.closest(to: text(token), among: Vocabulary.operators)
    {
      return fail(.unexpectedToken(found, at: token.range, help: "did you mean '\(suggestion)'?"))
    }
    switch token.kind {
    case .identifier, .quotedIdentifier, .not, .bang, .leftParen, .exists, .any, .all, .none:
      return fail(
        .unexpectedToken(
          found, at: token.range, help: "did you forget 'and' or 'or' before \(found)?"))
    default:
      return fail(.unexpectedToken(found, at: token.range, help: nil))
    }
  }
}
