/// The recursive-descent parser: filters, queries and scripts.
///
/// One function per grammar rule; each carries its production as a comment, and
/// `grammar/filter.ebnf` collects them. `and`/`or` chains are parsed iteratively into n-ary
/// nodes, runs of `not` and unary minus in loops, and every recursive entry counts towards
/// ``ParserLimits/maxDepth``, so no input can overflow the stack.
///
/// Errors abort the statement they occur in (panic mode); the parser then skips to the next
/// line or `;` and goes on, so a script gets one diagnostic per broken statement and no
/// cascades.
public final class Parser {
  /// Parses a single filter, such as `color in (Starlight, "Space Black") and diskSpace >= 256`.
  /// Line breaks are spaces.
  public static func parseFilter(_ source: SourceText, limits: ParserLimits = .default)
    -> ParseResult<Expr>
  {
    run(source, limits: limits, script: false) { parser throws(ParseAbort) in
      let filter = try parser.parseFilter()
      try parser.expectEnd()
      return filter
    }
  }

  /// Parses a query: a filter and `order by` / `limit` / `offset` clauses.
  public static func parseQuery(_ source: SourceText, limits: ParserLimits = .default)
    -> ParseResult<Query>
  {
    run(source, limits: limits, script: false) { parser throws(ParseAbort) in
      let query = try parser.parseQuery()
      try parser.expectEnd()
      return query
    }
  }

  /// Parses output columns as `--select` lists them: `model, price - discount as net,
  /// camera.megapixels`. Each is a field or an expression over fields, in field position
  /// (bare words are fields), optionally named with `as NAME`.
  public static func parseSelection(_ source: SourceText, limits: ParserLimits = .default)
    -> ParseResult<[SelectItem]>
  {
    run(source, limits: limits, script: false) { parser throws(ParseAbort) in
      let items = try parser.parseSelectItems()
      try parser.expectEnd()
      return items
    }
  }

  /// Parses a script: statements separated by line breaks or `;`. Every statement that parses
  /// is kept, and every broken one reported.
  public static func parseScript(_ source: SourceText, limits: ParserLimits = .default)
    -> ParseResult<Script>
  {
    run(source, limits: limits, script: true) { parser throws(ParseAbort) in
      parser.parseStatements()
    }
  }

  /// Parses a value as it is written on the right of an operator: `7d`, `-3`, `2022-09-16`,
  /// `(Starlight, "Space Black")`, `Gold` (a bare word is text there), `1000 * 2`, or a range
  /// `1...5`. What `--param` values are read with.
  public static func parseValue(_ source: SourceText, limits: ParserLimits = .default)
    -> ParseResult<Expr>
  {
    // value = arithmetic [ range_op arithmetic ] ;  (words are text)
    run(source, limits: limits, script: false) { parser throws(ParseAbort) in
      let value = try parser.parseArithmetic(value: true)
      guard parser.kind == .closedRange || parser.kind == .halfOpenRange else {
        try parser.expectEnd()
        return value
      }
      let rangeKind: RangeKind = parser.advance().kind == .closedRange ? .closed : .halfOpen
      let upper = try parser.parseArithmetic(value: true)
      try parser.expectEnd()
      return try parser.node(.range(value, upper, rangeKind), value.range.union(upper.range))
    }
  }

  /// Parses filter text; diagnostics name the source `<filter>`.
  public static func parseFilter(_ text: String, limits: ParserLimits = .default)
    -> ParseResult<Expr>
  {
    parseFilter(SourceText(text), limits: limits)
  }

  /// Parses query text; diagnostics name the source `<query>`.
  public static func parseQuery(_ text: String, limits: ParserLimits = .default)
    -> ParseResult<Query>
  {
    parseQuery(SourceText(text, name: "<query>"), limits: limits)
  }

  static func run<T>(
    _ source: SourceText, limits: ParserLimits, script: Bool,
    _ body: (Parser) throws(ParseAbort) -> T
  ) -> ParseResult<T> {
    guard source.utf8.count <= limits.effectiveMaxSourceBytes else {
      let diagnostic = Diagnostic.sourceTooLong(
        source.utf8.count, limit: limits.effectiveMaxSourceBytes)
      return ParseResult(value: nil, diagnostics: [diagnostic], source: source)
    }
    let lexed = Lexer.tokenize(source, newlines: script)
    let parser = Parser(bytes: source.utf8, tokens: lexed.tokens, limits: limits, script: script)
    parser.diagnostics = Array(lexed.diagnostics.prefix(limits.maxDiagnostics))
    var value: T? = nil
    do {
      value = try body(parser)
    } catch {
      value = nil
    }
    let diagnostics = parser.diagnostics.sortedByPosition()
    if !script && diagnostics.hasErrors { value = nil }
    return ParseResult(value: value, diagnostics: diagnostics, source: source)
  }

  // MARK: State

  let bytes: [UInt8]
  /// Always ends with `.endOfFile`; `index` never moves past it.
  let tokens: [Token]
  let limits: ParserLimits
  /// Scripts have statements separated by line breaks and `;`.
  let script: Bool
  var index = 0
  /// The index of the last token consumed by `advance()`, -1 before the first.
  var lastConsumed = -1
  var diagnostics: [Diagnostic] = []
  /// Current nesting, checked against the depth limit on every recursive entry.
  var depth = 0
  /// Nodes made so far, checked against the node budget.
  var nodes = 0
  /// Open parentheses: inside them, line breaks are spaces.
  var bracketDepth = 0
  /// The token index of the last bare word read as a string, for "quote text with spaces".
  var lastBareWord = -1
  /// Set when a limit is hit or too many errors were reported: parsing stops altogether.
  var fatal = false

  init(bytes: [UInt8], tokens: [Token], limits: ParserLimits, script: Bool) {
    self.bytes = bytes
    self.tokens = tokens
    self.limits = limits
    self.script = script
  }
}

/// Thrown to abandon the statement being parsed, after its diagnostic has been reported.
struct ParseAbort: Error {
  /// Where to start the next statement, when it is known better than "after the next line
  /// break" (an unclosed `(` whose statement ended at a new line).
  var resume: Int?
}
