import Testing

@testable import FilterDSL

/// Token tables: `(id, source, expected tokens)`.
@Suite struct LexerTests {
  @Test(arguments: [
    ("lex-1.1", "color == Midnight", "identifier(color) equal identifier(Midnight)"),
    ("lex-1.2", "a = 1", "identifier(a) equal integer(1)"),
    ("lex-1.3", "a != 1 <> 2", "identifier(a) notEqual integer(1) notEqual integer(2)"),
    ("lex-1.4", "< <= > >=", "less lessEqual greater greaterEqual"),
    ("lex-1.5", "&& || ! not", "ampAmp pipePipe bang not"),
    ("lex-1.6", "+ - * / %", "plus minus star slash percent"),
    ("lex-1.7", "( , ) ; .", "leftParen comma rightParen semicolon dot"),
    (
      "lex-1.8", "a[0] [c] [x",
      "identifier(a) leftBracket integer(0) rightBracket modifier([c]) leftBracket identifier(x)"
    ),
    (
      "lex-1.8", "1...5 0..<9",
      "integer(1) closedRange integer(5) integer(0) halfOpenRange integer(9)"
    ),
    ("lex-1.9", "1.5...2.5", "decimal(1.5) closedRange decimal(2.5)"),
    (
      "lex-1.10", "a & b | c ^ ~d << 2 >> 1 && e || f",
      "identifier(a) ampersand identifier(b) pipe identifier(c) caret tilde identifier(d) shiftLeft integer(2) shiftRight integer(1) ampAmp identifier(e) pipePipe identifier(f)"
    ),
    (
      "lex-1.11", "a<<=b>>=c<=d",
      "identifier(a) shiftLeft equal identifier(b) shiftRight equal identifier(c) lessEqual identifier(d)"
    ),
    (
      "lex-2.1", "AND Or nOt IN Between IS NULL nil TRUE false",
      "and or not in between is null null true false"
    ),
    (
      "lex-2.2", "LIKE matches CONTAINS startsWith ENDSWITH beginswith",
      "like matches contains startsWith endsWith startsWith"
    ),
    ("lex-2.3", "any ALL None exists", "any all none exists"),
    (
      "lex-2.4", "order by limit offset load",
      "identifier(order) identifier(by) identifier(limit) identifier(offset) identifier(load)"
    ),
    ("lex-2.5", "andy oracle inner", "identifier(andy) identifier(oracle) identifier(inner)"),
    ("lex-3.1", "256 -3 1_000", "integer(256) minus integer(3) integer(1_000)"),
    ("lex-3.2", "6.1 1e3 1E-3 2.5e+10", "decimal(6.1) decimal(1e3) decimal(1E-3) decimal(2.5e+10)"),
    ("lex-3.3", "0xFF 0b1010 0o17", "integer(0xFF) integer(0b1010) integer(0o17)"),
    ("lex-3.4", "9223372036854775808", "integer(9223372036854775808)"),
    ("lex-3.5", "5G 256GB 1st 3D", "word(5G) word(256GB) word(1st) word(3D)"),
    (
      "lex-3.6", "7d 12h 30m 45s 500ms 1h30m 2w 10us 5ns",
      "duration(7d) duration(12h) duration(30m) duration(45s) duration(500ms) duration(1h30m) duration(2w) duration(10us) duration(5ns)"
    ),
    ("lex-3.7", "2022-09-16", "date(2022-09-16)"),
    ("lex-3.7b", "5km 1.5km 2e3km 5kmh", "length(5km) length(1.5km) length(2e3km) word(5kmh)"),
    (
      "lex-3.8", "2022-09-16T10:00:00Z 2022-09-16t10:00",
      "dateTime(2022-09-16T10:00:00Z) dateTime(2022-09-16t10:00)"
    ),
    ("lex-3.9", "2022-09-16T10:00:00.123+02:00", "dateTime(2022-09-16T10:00:00.123+02:00)"),
    ("lex-3.10", "2022-09-16T10:00-7d", "dateTime(2022-09-16T10:00) minus duration(7d)"),
    ("lex-3.11", "2022 - 9 - 16", "integer(2022) minus integer(9) minus integer(16)"),
    ("lex-3.12", "12345-6", "integer(12345) minus integer(6)"),
    ("lex-4.1", #""Space Black" 'it''s'"#, #"string("Space Black") string('it') string('s')"#),
    ("lex-4.2", #""a\"b\\c\n\t\u{1F600}""#, #"string("a\"b\\c\n\t\u{1F600}")"#),
    (
      "lex-4.3", "`screen size` `a\\`b`",
      "quotedIdentifier(`screen size`) quotedIdentifier(`a\\`b`)"
    ),
    ("lex-4.4", "$budget $x_1", "parameter($budget) parameter($x_1)"),
    (
      "lex-4.5", "contains[c] ==[cd] in[D] like[dc]",
      "contains modifier([c]) equal modifier([cd]) in modifier([D]) like modifier([dc])"
    ),
    ("lex-5.1", "Größe == naïve", "identifier(Größe) equal identifier(naïve)"),
    ("lex-5.2", "日本 == 東京", "identifier(日本) equal identifier(東京)"),
    ("lex-5.3", "a\u{00A0}b", "identifier(a) identifier(b)"),
    ("lex-5.4", "\u{FEFF}a", "identifier(a)"),
    ("lex-6.1", "a # comment == b\nc", "identifier(a) identifier(c)"),
    ("lex-6.2", "a\r\n\t b", "identifier(a) identifier(b)"),
  ])
  func tokens(id: String, source: String, expected: String) {
    #expect(Parse.tokens(source) == expected, "\(id)")
    #expect(Lexer.tokenize(SourceText(source)).diagnostics.isEmpty, "\(id) has diagnostics")
  }

  @Test func newlinesInScriptsCollapse() {
    #expect(
      Parse.tokens("a\n\n\nb # c\n\nd", newlines: true)
        == "identifier(a) newline identifier(b) newline identifier(d)")
    #expect(Parse.tokens("a\nb") == "identifier(a) identifier(b)")
  }

  @Test func tokensCarryByteRanges() {
    let source = SourceText("é == \"ü\"")
    let tokens = Lexer.tokenize(source).tokens
    #expect(
      tokens.map(\.range) == [
        SourceRange(start: 0, end: 2), SourceRange(start: 3, end: 5),
        SourceRange(start: 6, end: 10),
        SourceRange(start: 10, end: 10),
      ])
  }

  @Test func parenthesesKnowWhetherTheyHoldALists() {
    let tokens = Lexer.tokenize(SourceText("(a) (a, b) () ((a), b) f(a, b) ( ) (\n)")).tokens.filter
    {
      $0.kind == .leftParen
    }
    #expect(tokens.map(\.opensList) == [false, true, true, true, false, true, true, true])
  }

  /// `(id, source, expected code, expected message)`: bad input is a diagnostic and an
  /// invalid token (or a corrected one), never a crash.
  @Test(arguments: [
    ("lex-e1", "a @ b", 101, "unexpected character '@'"),
    ("lex-e2", "a == \"abc", 102, "unterminated string"),
    ("lex-e3", "`abc", 102, "unterminated quoted name"),
    ("lex-e4", #""a\qb""#, 103, #"unknown escape sequence '\q'"#),
    ("lex-e5", #""\u{D800}""#, 103, #"invalid unicode escape '\u{D800}'"#),
    ("lex-e6", #""\u{110000}""#, 103, #"invalid unicode escape '\u{110000}'"#),
    (
      "lex-e7", "99999999999999999999", 104,
      "integer '99999999999999999999' does not fit in 64 bits"
    ),
    ("lex-e8", "1e400", 105, "number is out of range"),
    ("lex-e9", ".5", 105, "a number cannot start with '.'"),
    ("lex-e10", "0xZZ", 105, "malformed number '0xZZ'"),
    ("lex-e11", "1.5x", 105, "malformed number '1.5x'"),
    ("lex-e12", "2022-13-01", 106, "month 13 does not exist"),
    ("lex-e13", "2023-02-29", 106, "29 is not a day of February 2023"),
    ("lex-e14", "2022-9-16", 106, "malformed date"),
    ("lex-e15", "2022-09-16T25:00", 106, "time 25:00:00 does not exist"),
    ("lex-e16", "2022-09-16x", 106, "malformed date"),
    ("lex-e17", "1.5h", 107, "durations take whole numbers, not '1.5h'"),
    ("lex-e18", "1h30", 107, "missing unit after '30' in duration"),
    ("lex-e19", "99999999999d", 107, "duration is too long"),
    ("lex-e20", "a => 3", 108, "'=>' is not an operator"),
    ("lex-e21", "a =< 3", 108, "'=<' is not an operator"),
    ("lex-e22", "a === 3", 108, "'===' is not an operator"),
    ("lex-e24", "a .. b", 108, "'..' is not an operator"),
    ("lex-e25", "$ + 1", 109, "'$' must be followed by a parameter name"),
    ("lex-e26", "``", 109, "empty field name"),
    ("lex-e28", "a == “Space Black”", 101, "text in typographic quotes"),
    ("lex-e29", "a == \u{1B}[31m", 101, #"unexpected character '\u{1B}'"#),
    ("lex-e30", "0000-01-01T00:00:00+01:00", 106, "date-time is outside the years 0000 to 9999"),
    ("lex-e31", "20222-01-01", 106, "year 20222 is out of range: dates have years 0000 to 9999"),
    (
      "lex-e32", "20222-01-01T00:00:00Z", 106,
      "year 20222 is out of range: dates have years 0000 to 9999"
    ),
    ("lex-e33", "t > 9:30", 106, "the hour takes two digits: write 09:30"),
    ("lex-e34", "t > 25:00", 106, "time 25:00:00 does not exist"),
    ("lex-e35", "t > 24:00:01", 106, "time 24:00:01 does not exist"),
    ("lex-e36", "t > 22:0", 106, "malformed hours and minutes in time of day"),
    ("lex-e37", "t > 22:00:5", 106, "malformed seconds in time of day"),
    ("lex-e38", "t > 22:00x", 106, "malformed time of day"),
  ])
  func errors(id: String, source: String, code: Int, message: String) {
    let diagnostics = Lexer.tokenize(SourceText(source)).diagnostics
    #expect(diagnostics.first?.code == DiagnosticCode(code), "\(id)")
    #expect(diagnostics.first?.message == message, "\(id)")
  }

  @Test func unterminatedStringPointsAtTheOpeningQuote() {
    let diagnostics = Lexer.tokenize(
      SourceText("name == 'abc\nprice > 3", name: "x"), newlines: true
    ).diagnostics
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.range == SourceRange(start: 8, end: 9))
  }

  @Test func theLanguageOwnsOnlyItsCodes() {
    #expect(DiagnosticCode.language.allSatisfy { (100..<400).contains($0.number) })
  }
}
