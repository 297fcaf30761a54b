import FilterDSL
import Testing

@testable import FilterSQL

/// flt patterns as PostgreSQL regular expressions: anchored, every character escaped or a
/// letter or digit, classes as printable ASCII sees them; nothing when there is no
/// translation.
@Suite struct PostgresRegexTranslationTests {
  @Test func patternsBecomeAnchoredAREs() {
    #expect(PostgresRegex.translate("a.*") == "^(?:(?:a(?:.)*))$")
    #expect(PostgresRegex.translate("[ab]+") == "^(?:(?:[\\u0061\\u0062])+)$")
    #expect(PostgresRegex.translate("\\w*") == "^(?:(?:[0-9A-Z\\u005Fa-z])*)$")
    // POSIX classes: their members among printable ASCII, in runs.
    #expect(PostgresRegex.translate("[[:alpha:] ]") == "^(?:[\\u0020A-Za-z])$")
    #expect(
      PostgresRegex.translate("[[:punct:]]")
        == "^(?:[\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E])$")
    #expect(PostgresRegex.translate("[[:xdigit:]]") == "^(?:[0-9A-Fa-f])$")
    #expect(PostgresRegex.translate("\\D") == "^(?:[^0-9])$")
    #expect(PostgresRegex.translate("a{2,3}|b{4}") == "^(?:(?:(?:a){2,3}|(?:b){4}))$")
    // Punctuation, quotes and backslashes are escapes, never syntax.
    #expect(PostgresRegex.translate("'; DROP") == "^(?:(?:\\u0027\\u003B\\u0020DROP))$")
    #expect(PostgresRegex.translate("a-z") == "^(?:(?:a\\u002Dz))$")
  }

  @Test func whatHasNoTranslationStaysInFlt() {
    #expect(PostgresRegex.translate("é") == nil)
    #expect(PostgresRegex.translate("a\\n") == nil)
    #expect(PostgresRegex.translate("a{300}") == nil)
    #expect(PostgresRegex.translate("(") == nil)
    #expect(PostgresRegex.translate("[à-é]") == nil)
  }

  @Test func theTestIsANarrowingOneInPostgreSQLOnly() throws {
    let schema = Schema([.init("s", .string, optional: true), .init("n", .int)])
    let table = SQLTable(name: "t", schema: schema)
    let source = SourceText(#"s matches "a.*" and n > 1"#)
    let bound = try Checker.check(try Parser.parseQuery(source).get(), schema: schema).get(source)
    let postgres = SQLTranslator(table: table, dialect: .postgresql).translate(bound)
    #expect(postgres.narrowed.count == 1 && postgres.pushed.count == 1)
    #expect(postgres.select.text.contains(#"WHERE (("s" ~ $1::text) OR ("s" ~ $2::text)) AND"#))
    #expect(postgres.select.parameters.prefix(2) == [.text("^(?:(?:a(?:.)*))$"), .text("[^ -~]")])
    #expect(postgres.residual?.description == #"s matches "a.*""#)
    let sqlite = SQLTranslator(table: table, dialect: .sqlite).translate(bound)
    #expect(sqlite.narrowed.isEmpty && sqlite.residual?.description == #"s matches "a.*""#)
  }
}

/// What `[c]` and `[d]` do to printable ASCII, which the SQL of folded tests relies on:
/// `[c]` lowers `A` to `Z` and nothing else, `[d]` changes nothing.
@Suite struct FoldingOfPrintableASCIITests {
  @Test func caseFoldingIsLoweringAndDiacriticsAreNone() {
    for byte in UInt8(0x20)...UInt8(0x7E) {
      let c = String(UnicodeScalar(byte))
      let lowered = (0x41...0x5A).contains(byte) ? String(UnicodeScalar(byte + 0x20)) : c
      #expect(TextFolding.fold(c, .caseInsensitive) == lowered, "\(c)")
      #expect(TextFolding.fold(c, .diacriticInsensitive) == c, "\(c)")
      #expect(TextFolding.fold(c, [.caseInsensitive, .diacriticInsensitive]) == lowered, "\(c)")
    }
  }
}
