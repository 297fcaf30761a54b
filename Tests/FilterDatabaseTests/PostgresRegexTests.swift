import FilterDSL
import FilterDatabase
import FilterSQL
import Testing

/// `matches` in PostgreSQL: a narrowing test (exact on printable ASCII text, true on any
/// other), so the records are flt's on every kind of text: accents, a letter and its
/// combining accent, line breaks, tabs, empty text, null.
@Suite(.enabled(if: PostgresServer.available, "no PostgreSQL server"))
struct PostgresRegexTests {
  static let schema = Schema([.init("s", .string, optional: true)])
  static let texts: [String?] = [
    "a", "ab", "abc", "aab", "b", "c", "ac", "", " ", "a b", "A", "Ab", "x^y", "a.b", "a-b",
    "123", "12a", "_x", "é", "e\u{301}", "éa", "a\nb", "a\tb", "\r\n", "aaa", "aaaa", "[a]",
    "\\", "%", "a_b", "~", nil,
  ]
  static let patterns = [
    "a.*", "[ab]+", "\\w*", "é|e", "(a|b)*c?", "\\D+", "a{2,3}", "x\\^y", "^a$", "[^a-c]*",
    "\\s", "a b", ".", "\\.", "[-a]+", "a.b", "\\d+[a-z]?", "[A-Z][a-z]*", "_\\w", "\\[a\\]",
    "\\\\", "%", "a_b", "~", "(?:a)", "a|", "()", "\\S+", "\\W", "[\\d\\s]+", "a{0}",
  ]

  @Test func matchesGivesFltsRecordsOnEveryText() throws {
    let connection = try PostgresServer.connect()
    let table = SQLTable(
      name: "regex_texts", schema: Self.schema, rowOrder: SQLTable.rowOrderColumn)
    try connection.executeScript(
      "DROP TABLE IF EXISTS regex_texts; " + table.createStatement(.postgresql))
    for text in Self.texts {
      try connection.forEachRow(
        SQLStatement(
          table.insertStatement(.postgresql), parameters: [text.map(SQLValue.text) ?? .null])
      ) { _ in true }
    }
    let records: [[Value]] = Self.texts.map { [$0.map(Value.string) ?? .null] }
    var narrowed = 0
    for pattern in Self.patterns {
      for negated in [false, true] {
        let filter = "s \(negated ? "not matches" : "matches") \(Expr(.literal(.string(pattern))))"
        let source = SourceText(filter)
        guard let parsed = try? Parser.parseQuery(source).get(),
          let bound = Checker.check(parsed, schema: Self.schema).tree
        else { continue }
        let expected = CompiledQuery(bound, for: .dynamic(Self.schema)).run(records).records
        let query = DatabaseQuery(bound, on: table, in: connection)
        let translation = query.translation([:])
        if !translation.narrowed.isEmpty { narrowed += 1 }
        let actual = try query.records([:]).records
        #expect(actual == expected, "\(filter)\n\(String(describing: translation.explanation))")
      }
    }
    // Most patterns run in PostgreSQL (those with `é` or `()` groups stay in flt).
    #expect(narrowed >= 40)
    try connection.executeScript("DROP TABLE regex_texts")
  }
}
