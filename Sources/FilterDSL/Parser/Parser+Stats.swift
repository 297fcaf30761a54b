/// `stats`: its aggregates and `by` keys, as a statement and as `flt --stats` reads them.
extension Parser {
  /// Parses what `flt --stats` reads: aggregates and keys, `mean(price), max(price) by color`,
  /// optionally with `where FILTER` (see ``StatsQuery``). Items are in field position (bare
  /// words are fields).
  public static func parseStats(_ source: SourceText, limits: ParserLimits = .default)
    -> ParseResult<StatsQuery>
  {
    run(source, limits: limits, script: false) { parser throws(ParseAbort) in
      let stats = try parser.parseStatsWithClauses()
      try parser.expectEnd()
      return stats
    }
  }

  /// Stats, then `where FILTER`, then `order by`, `limit` and `offset` over the rows.
  func parseStatsWithClauses() throws(ParseAbort) -> StatsQuery {
    var stats = try parseStats()
    if isWord(current, "where") {
      advance()
      stats.filter = try parseFilter()
    }
    var clauses = Query(filter: nil)
    try parseClauses(&clauses)
    (stats.ordering, stats.limit, stats.offset) = (clauses.ordering, clauses.limit, clauses.offset)
    return stats
  }

  // stats = select_item { "," select_item } [ "by" select_item { "," select_item } ] ;
  func parseStats() throws(ParseAbort) -> StatsQuery {
    let items = try parseSelectItems()
    guard isWord(current, "by") else { return StatsQuery(items) }
    advance()
    skipNewlines()
    return StatsQuery(items, by: try parseSelectItems())
  }

  // selection   = select_item { "," select_item } ;
  // select_item = arithmetic [ "as" name ] ;
  func parseSelectItems() throws(ParseAbort) -> [SelectItem] {
    var items: [SelectItem] = []
    repeat {
      skipNewlines()
      var item = SelectItem(try parseArithmetic(value: false))
      if isWord(current, "as") {
        let word = advance()
        guard kind == .identifier || kind == .quotedIdentifier else {
          throw failUnlessInvalid(
            .expectedToken(
              "a name", after: text(word), found: currentDescription, at: expectedAt))
        }
        item.alias = name(advance())
      }
      items.append(item)
    } while match(.comma)
    return items
  }
}
