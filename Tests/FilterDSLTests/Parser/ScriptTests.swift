import Testing

@testable import FilterDSL

/// Scripts: statements, separators, continuation lines and recovery.
@Suite struct ScriptTests {
  static func dump(_ text: String) -> String {
    let result = Parser.parseScript(SourceText(text, name: "t.flt"))
    let errors = result.diagnostics.map {
      "\($0.code)@\(SourceText(text).location(of: $0.range.start))"
    }
    return ((result.value?.debugDescription).map { [$0] } ?? []).joined()
      + (errors.isEmpty ? "" : "\n! " + errors.joined(separator: " "))
  }

  @Test(arguments: [
    ("stmt-1.1", #"load "phones.json""#, #"(load "phones.json")"#),
    ("stmt-1.2", #"load 'data/phones.csv' as phones"#, #"(load "data/phones.csv" as phones)"#),
    ("stmt-1.3", "use phones", "(use phones)"),
    ("stmt-1.4", "let big = diskSpace >= 256", "(let big (>= diskSpace 256))"),
    ("stmt-1.5", "let budget = 1000", "(let budget 1000)"),
    ("stmt-1.6", "let $budget = 1000", "(let budget 1000)"),
    (
      "stmt-1.7", #"let colors = (Starlight, "Space Black")"#,
      #"(let colors (list "Starlight" "Space Black"))"#
    ),
    ("stmt-1.8", "let sizes = 256...1024", "(let sizes (... 256 1024))"),
    ("stmt-1.9", "count", "(count)"),
    ("stmt-1.10", "count diskSpace >= 256", "(count (>= diskSpace 256))"),
    ("stmt-1.11", "facets color, diskSpace", "(facets color diskSpace)"),
    ("stmt-1.12", "facets color where price < 1000", "(facets color where (< price 1000))"),
    (
      "stmt-1.13", "explain color == Gold order by price",
      #"(explain (query (== color "Gold") (order-by (asc price))))"#
    ),
    ("stmt-1.14", "show model, price, camera.megapixels", "(show model price camera.megapixels)"),
    ("stmt-1.15", "show *", "(show *)"),
    ("stmt-1.16", "set format json", #"(set format "json")"#),
    ("stmt-1.17", "set limit 20", "(set limit 20)"),
    ("stmt-1.21", "set", "(set)"),
    ("stmt-1.22", "set; set limit 1", "(set)\n(set limit 1)"),
    ("stmt-1.18", "big and color == Gold", #"(query (and big (== color "Gold")))"#),
    ("stmt-1.19", "LOAD \"x\" AS y; USE y", "(load \"x\" as y)\n(use y)"),
    ("stmt-1.20", "`count` > 3", "(query (> `count` 3))"),
    // Separators, blank lines, comments.
    ("stmt-2.1", "a; b\n\nc # comment\n;;\n", "(query a)\n(query b)\n(query c)"),
    ("stmt-2.2", "# only a comment\n", ""),
    ("stmt-2.3", "", ""),
    // A statement goes on while a parenthesis is open, after an operator, and on a line that starts with and/or.
    (
      "stmt-3.1", "color in (\n  Red,\n  Gold\n)\ncount",
      #"(query (in color (list "Red" "Gold")))"# + "\n(count)"
    ),
    ("stmt-3.2", "a and\n  b", "(query (and a b))"),
    ("stmt-3.3", "a\n  and b\n  or c", "(query (or (and a b) c))"),
    ("stmt-3.4", "a ==\n 1", "(query (== a 1))"),
    ("stmt-3.5", "a\nb", "(query a)\n(query b)"),
    ("stmt-3.6", "x order by\n a,\n b", "(query x (order-by (asc a) (asc b)))"),
  ])
  func statements(id: String, source: String, expected: String) {
    #expect(ScriptTests.dump(source) == expected, "\(id)")
  }

  @Test(arguments: [
    ("stmt-e1", "load phones.json", 207),
    ("stmt-e2", "use", 207),
    ("stmt-e3", "let = 3", 207),
    ("stmt-e4", "let x 3", 207),
    ("stmt-e5", "facets", 206),
    ("stmt-e6", "facets color where", 201),
    ("stmt-e7", "show", 206),
    ("stmt-e8", "set format", 201),
    ("stmt-e9", "explain", 0),
    ("stmt-e10", "count > 3", 201),
    ("stmt-e11", "let x = a limit 3", 202),
  ])
  func statementErrors(id: String, source: String, code: Int) {
    let result = Parser.parseScript(SourceText(source))
    if code == 0 {
      // `explain` with nothing after it explains the whole data set: not an error.
      #expect(!result.hasErrors, "\(id)")
    } else {
      #expect(result.diagnostics.map(\.code) == [DiagnosticCode(code)], "\(id)")
      #expect(result.value?.statements.isEmpty == true, "\(id)")
    }
  }

  /// One diagnostic per broken statement, the good statements kept, no cascades.
  @Test func recoversAtStatementBoundaries() {
    let text = """
      color == Gold
      price > > 3
      model contains "Pro" and (a or b
      count diskSpace >= 256
      x == "unterminated
      y == 1; z ===; w == 2
      """
    let result = Parser.parseScript(SourceText(text, name: "t.flt"))
    let lines = result.diagnostics.map { SourceText(text).location(of: $0.range.start).line }
    #expect(
      result.diagnostics.map(\.code) == [
        .expectedExpression, .unclosedParenthesis, .unterminatedString, .misspelledOperator,
        .expectedExpression,
      ])
    #expect(lines == [2, 3, 5, 6, 6])
    #expect(
      result.value?.statements.map(\.debugDescription) == [
        #"(query (== color "Gold"))"#, "(count (>= diskSpace 256))", "(query (== y 1))",
        "(query (== w 2))",
      ])
  }

  @Test func unclosedParenthesisResumesOnTheNextLine() {
    let result = Parser.parseScript(SourceText("color in (Red, Gold\ncount price > 3"))
    #expect(result.diagnostics.map(\.code) == [.unclosedParenthesis])
    #expect(result.diagnostics.first?.range == SourceRange(start: 9, end: 10))
    #expect(result.value?.statements.map(\.debugDescription) == ["(count (> price 3))"])
  }

  @Test func errorsAreCapped() {
    let text = String(repeating: "a ==\n", count: 500)
    let result = Parser.parseScript(SourceText(text))
    #expect(result.diagnostics.count == ParserLimits.default.maxDiagnostics + 1)
    #expect(result.diagnostics.last?.code == .tooManyErrors)
  }
}
