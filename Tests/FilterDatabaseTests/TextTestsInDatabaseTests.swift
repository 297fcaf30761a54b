import FilterDSL
import FilterDatabase
import FilterSQL
import Testing

/// Text tests SQL can only narrow (`matches` in PostgreSQL; `[c]` and `[d]` in both dialects):
/// exact on printable ASCII text, true on any other, so the records are flt's on every kind of
/// text: accents, a letter and its combining accent, `ß`, the Kelvin sign, line breaks, tabs,
/// empty text, null. And text ordered by code points in both, though the tests' PostgreSQL
/// database sorts by a language's rules.
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

  /// Text ordered by code points, whatever the database's collation.
  static let ordered = [
    #"s < "b""#, #"s between "A" and "b""#, #"true order by s"#, #"s >= "É" order by s desc"#,
    #"s > "a" and s < "B""#, #"s in "B"..."a""#,
  ]

  static var agreement: DatabaseAgreement { agreement(texts) }

  /// The texts in Unicode's composed form (NFC), which SQL orders as flt does (flt compares
  /// `e` + U+0301 as `é`, the Kelvin sign as `K`).
  static let composed = texts.filter { $0 != "e\u{301}" && $0 != "\u{212A}" }

  static func agreement(_ texts: [String?]) -> DatabaseAgreement {
    var agreement = DatabaseAgreement(
      schema: schema, records: texts.map { [$0.map(Value.string) ?? .null] })
    agreement.types = ["p": .string, "list": .list(.string)]
    agreement.values = values
    return agreement
  }

  static func filters(_ withRegex: Bool) -> [String] {
    let regex = patterns.flatMap { pattern in
      ["matches", "not matches"].map { "s \($0) \(Expr(.literal(.string(pattern))))" }
    }
    return modified + (withRegex ? regex : [])
  }

  @Test func sqliteGivesFltsRecords() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    let table = try Self.agreement.load("texts", into: database, .sqlite)
    let (_, narrowed) = try Self.agreement.check(Self.filters(false), on: database, table)
    #expect(narrowed == Self.modified.count)
    let composed = Self.agreement(Self.composed)
    let (whole, _) = try composed.check(
      Self.ordered, on: database, try composed.load("composed", into: database, .sqlite))
    #expect(whole == Self.ordered.count)
  }

  @Test(.enabled(if: PostgresServer.available, "no PostgreSQL server"))
  func postgresGivesFltsRecords() throws {
    let connection = try PostgresServer.connect()
    let table = try Self.agreement.load("texts", into: connection, .postgresql)
    let (_, narrowed) = try Self.agreement.check(Self.filters(true), on: connection, table)
    // Most run there (patterns with `é` or `()` groups stay in flt).
    #expect(narrowed >= Self.modified.count + 40)
    let composed = Self.agreement(Self.composed)
    let (whole, _) = try composed.check(
      Self.ordered, on: connection, try composed.load("composed", into: connection, .postgresql))
    #expect(whole == Self.ordered.count)
    try connection.executeScript("DROP TABLE texts; DROP TABLE composed")
  }
}
