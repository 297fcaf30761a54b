import FilterDSL
import FilterDatabase
import FilterSQL
import Testing

/// Text tests SQL can only narrow (`matches` in PostgreSQL; `[c]` and `[d]` in both dialects):
/// exact on printable ASCII text, true on any other, so the records are flt's on every kind of
/// text: accents, a letter and its combining accent, `ß`, the Kelvin sign, line breaks, tabs,
/// empty text, null.
@Suite struct TextTestsInDatabaseTests {
  static let schema = Schema([.init("s", .string, optional: true)])
  static let texts: [String?] = [
    "a", "ab", "abc", "aab", "b", "c", "ac", "", " ", "a b", "A", "Ab", "AB", "x^y", "a.b", "a-b",
    "123", "12a", "_x", "é", "É", "e\u{301}", "éa", "a\nb", "a\tb", "\r\n", "aaa", "aaaa", "[a]",
    "\\", "%", "a_b", "~", "STRASSE", "straße", "Strasse", "\u{212A}", "k", "K", "İ", "i", "I",
    "Gold", "GOLD", "gold", "Göld", nil,
  ]
  static let patterns = [
    "a.*", "[ab]+", "\\w*", "é|e", "(a|b)*c?", "\\D+", "a{2,3}", "x\\^y", "^a$", "[^a-c]*",
    "\\s", "a b", ".", "\\.", "[-a]+", "a.b", "\\d+[a-z]?", "[A-Z][a-z]*", "_\\w", "\\[a\\]",
    "\\\\", "%", "a_b", "~", "(?:a)", "a|", "()", "\\S+", "\\W", "[\\d\\s]+", "a{0}",
  ]
  static let modified = [
    #"s ==[c] "gold""#, #"s ==[c] "straße""#, #"s ==[d] "gold""#, #"s ==[cd] "GOLD""#,
    #"s !=[c] "a""#, #"s ==[c] "k""#, #"s ==[c] "i""#, #"s in[c] ("a", "ab", "Gold")"#,
    #"s not in[c] ("a", "b")"#, #"s contains[c] "A""#, #"s startsWith[c] "st""#,
    #"s endsWith[cd] "SSE""#, #"s like[c] "a*""#, #"s like[c] "?B""#, #"s contains[d] "e""#,
    #"s ==[c] $p"#, #"s in[c] $list"#, #"s contains[c] "%""#, #"s like[c] "*_*""#,
  ]
  static let values: [String: Value] = [
    "p": .string("STRASSE"), "list": .list([.string("gold"), .string("AB")]),
  ]

  /// Every filter in memory and in the database: the same records.
  static func check(
    _ filters: [String], on connection: any SQLConnection, _ table: SQLTable
  ) throws -> Int {
    let records: [[Value]] = texts.map { [$0.map(Value.string) ?? .null] }
    let types: [String: ValueType] = ["p": .string, "list": .list(.string)]
    var narrowed = 0
    for filter in filters {
      let source = SourceText(filter)
      guard let parsed = try? Parser.parseQuery(source).get(),
        let bound = Checker.check(parsed, schema: schema, parameters: types).tree
      else { continue }
      let expected = CompiledQuery(bound, for: .dynamic(schema), parameters: types)
        .binding(values).run(records).records
      let query = DatabaseQuery(bound, on: table, in: connection, parameters: types)
      let translation = query.translation(values)
      if !translation.narrowed.isEmpty { narrowed += 1 }
      let actual = try query.records(values).records
      #expect(actual == expected, "\(filter)\n\(String(describing: translation.explanation))")
    }
    return narrowed
  }

  static func filters(_ withRegex: Bool) -> [String] {
    let regex = patterns.flatMap { pattern in
      ["matches", "not matches"].map { "s \($0) \(Expr(.literal(.string(pattern))))" }
    }
    return modified + (withRegex ? regex : [])
  }

  @Test func sqliteGivesFltsRecords() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    let table = SQLTable(name: "texts", schema: Self.schema, rowOrder: "rowid")
    try database.execute(table.createStatement(.sqlite))
    for text in Self.texts {
      try database.execute(table.insertStatement(.sqlite), [text.map(SQLValue.text) ?? .null])
    }
    let narrowed = try Self.check(Self.filters(false), on: database, table)
    #expect(narrowed == Self.modified.count)
  }

  @Test(.enabled(if: PostgresServer.available, "no PostgreSQL server"))
  func postgresGivesFltsRecords() throws {
    let connection = try PostgresServer.connect()
    let table = SQLTable(name: "texts", schema: Self.schema, rowOrder: SQLTable.rowOrderColumn)
    try connection.executeScript(
      "DROP TABLE IF EXISTS texts; " + table.createStatement(.postgresql))
    for text in Self.texts {
      try connection.forEachRow(
        SQLStatement(
          table.insertStatement(.postgresql), parameters: [text.map(SQLValue.text) ?? .null])
      ) { _ in true }
    }
    let narrowed = try Self.check(Self.filters(true), on: connection, table)
    // Most run there (patterns with `é` or `()` groups stay in flt).
    #expect(narrowed >= Self.modified.count + 40)
    try connection.executeScript("DROP TABLE texts")
  }
}
