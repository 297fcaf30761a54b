import FilterDSL
import FilterSQL
import TestSupport
import Testing

/// The statements the translator writes, what it leaves to flt, and that no text of the
/// user's ever becomes SQL.
@Suite struct SQLTranslatorTests {
  static let schema = Schema([
    .init("model", .string), .init("color", .string, optional: true), .init("price", .int),
    .init("rating", .double, optional: true), .init("inStock", .bool),
    .init("released", .date, optional: true), .init("tags", .list(.string), optional: true),
  ])
  static let table = SQLTable(name: "phones", schema: schema, rowOrder: "rowid")

  static func translate(
    _ text: String, _ dialect: SQLDialect, schema: Schema = schema, table: SQLTable = table,
    parameters: [String: Value] = [:]
  ) throws -> SQLTranslation {
    let source = SourceText(text)
    let query = try Parser.parseQuery(source).get()
    let types = parameters.mapValues { value -> ValueType in
      switch value {
      case .int: .int
      case .list: .list(.string)
      default: .string
      }
    }
    let bound = try Checker.check(query, schema: schema, parameters: types).get(source)
    return SQLTranslator(table: table, dialect: dialect).translate(bound, parameters: parameters)
  }

  @Test func aQueryInSQLite() throws {
    let sql = try Self.translate(
      #"color in (Starlight, "Space Black") and price >= 256 and model contains "Pro" order by price desc limit 5"#,
      .sqlite)
    #expect(
      sql.select.text
        == #"SELECT "model", "color", "price", "rating", "inStock", "released", "tags" FROM "phones" WHERE ("color" IN (?1, ?2)) AND ("price" >= ?3) AND (instr("model", ?4) > 0) ORDER BY "price" DESC NULLS LAST, "rowid""#
    )
    #expect(
      sql.select.parameters == [.text("Starlight"), .text("Space Black"), .int(256), .text("Pro")])
    // `contains` matches whole characters in flt: SQLite narrows, flt checks again, and so
    // pages.
    #expect(sql.residual?.description == #"model contains "Pro""#)
    #expect(sql.narrowed.count == 1 && sql.pushed.count == 2)
    #expect(sql.sortsInDatabase && !sql.pagesInDatabase)
    #expect(sql.remainder.limit != nil && sql.remainder.ordering.isEmpty)
    #expect(
      sql.count.text
        == #"SELECT count(*) FROM "phones" WHERE ("color" IN (?1, ?2)) AND ("price" >= ?3) AND (instr("model", ?4) > 0)"#
    )
  }

  /// A `like` with `[c]` or `[d]` only narrows, even on a constant subject (which notes no
  /// text to check for ASCII): it was taken as exact, and 15 rows came back where none match
  /// (found by the differential test once its globs had sets).
  @Test func aFoldedLikeOnAConstantOnlyNarrows() throws {
    for dialect in SQLDialect.allCases {
      let sql = try Self.translate(#""Space Black" like[d] "[a-c]*" and inStock"#, dialect)
      #expect(sql.narrowed.map(\.description) == [#""Space Black" like[d] "[a-c]*""#])
      #expect(sql.residual?.description == #""Space Black" like[d] "[a-c]*""#)
      let contains = try Self.translate(#""Space Black" contains[c] "black""#, dialect)
      #expect(contains.residual == nil, "\(dialect)")
    }
  }

  @Test func aQueryInPostgreSQL() throws {
    let sql = try Self.translate(
      "price < 1000 and not (rating is null) and color is not \"Gold\" order by released nulls first, model limit 10 offset 20",
      .postgresql)
    #expect(
      sql.select.text
        == #"SELECT "model", "color", "price", "rating", "inStock", "released", "tags" FROM "phones" WHERE ("price" < $1::bigint) AND (NOT ("rating" IS NULL)) AND ("color" IS DISTINCT FROM $2::text) ORDER BY "released" ASC NULLS FIRST, ("model" COLLATE "C") ASC NULLS LAST, "rowid" LIMIT $3::bigint OFFSET $4::bigint"#
    )
    #expect(sql.select.parameters == [.int(1000), .text("Gold"), .int(10), .int(20)])
    #expect(sql.residual == nil && sql.sortsInDatabase && sql.pagesInDatabase)
    #expect(sql.count.parameters == [.int(1000), .text("Gold")])
  }

  @Test func tablesKeepTheirOrder() {
    let table = SQLTable(
      name: "t", schema: Schema([.init("a", .int)]), rowOrder: SQLTable.rowOrderColumn)
    #expect(
      table.createStatement(.postgresql)
        == #"CREATE TABLE "t" ("a" bigint, "flt_row" bigint GENERATED ALWAYS AS IDENTITY)"#)
    #expect(table.insertStatement(.postgresql) == #"INSERT INTO "t" ("a") VALUES ($1::bigint)"#)
  }

  @Test func nestedFieldsAndLists() throws {
    let schema = Schema([
      .init("camera", .record(Schema([.init("megapixels", .int), .init("lens", .string)]))),
      .init("tags", .list(.string)),
    ])
    let table = SQLTable(name: "p", schema: schema)
    let text = #"camera.megapixels >= 48 and camera.lens is not null and tags contains "5G""#
    let sqlite = try Self.translate(text, .sqlite, schema: schema, table: table)
    #expect(sqlite.residual == nil)
    #expect(
      sqlite.select.text.hasSuffix(
        #"WHERE (json_extract("camera", ?1) >= ?2) AND (json_extract("camera", ?3) IS NOT NULL) AND (CASE WHEN "tags" IS NULL OR ?4 IS NULL THEN NULL WHEN EXISTS (SELECT 1 FROM json_each("tags") WHERE value = ?4) THEN 1 WHEN EXISTS (SELECT 1 FROM json_each("tags") WHERE value IS NULL) THEN NULL ELSE 0 END)"#
      ))
    #expect(
      sqlite.select.parameters == [
        .text(#"$."megapixels""#), .int(48), .text(#"$."lens""#), .text("5G"),
      ])
    let postgres = try Self.translate(text, .postgresql, schema: schema, table: table)
    // Numbers by a JSON path (postgres_fdw sends that to a shard; a value's text it keeps).
    #expect(
      postgres.select.text.contains(
        #"(jsonb_path_query_first("camera", $1::jsonpath, '{}'::jsonb, true))::bigint >= $2::bigint"#
      ))
    // The element's list is a jsonb parameter (postgres_fdw sends that to a shard).
    #expect(postgres.select.text.contains(#"WHEN "tags" @> $4::jsonb THEN TRUE"#))
    #expect(postgres.select.parameters.last == .text(#"["5G"]"#))
    #expect(
      postgres.select.parameters.first
        == .text(#"strict $."megapixels" ? (@.type() == "number" && @ == @.floor())"#))
    #expect(postgres.select.parameters[2] == .text(#"strict $."lens" ? (@.type() != "null")"#))
  }

  @Test func offsetWithoutLimit() throws {
    #expect(
      try Self.translate("price > 1 offset 3", .sqlite).select.text.hasSuffix(
        #""rowid" LIMIT ?2 OFFSET ?3"#))
    #expect(
      try Self.translate("price > 1 offset 3", .sqlite).select.parameters == [
        .int(1), .int(-1), .int(3),
      ])
    #expect(
      try Self.translate("price > 1 offset 3", .postgresql).select.text.hasSuffix(
        #""rowid" LIMIT ALL OFFSET $2::bigint"#))
    // A negative limit (a parameter's: written, it is an error) is no rows, as in flt.
    #expect(
      try Self.translate("true limit $n", .sqlite, parameters: ["n": .int(-4)]).select.parameters
        == [.int(0)])
  }

  @Test func whatStaysInFlt() throws {
    // Conversions (and, in PostgreSQL, a remainder of decimals): flt evaluates them on the
    // rows the rest of the filter leaves. Case folding, a regular expression and `lower`
    // narrow the rows in PostgreSQL and are checked again in flt.
    let sql = try Self.translate(
      #"model ==[c] "iphone" and rating % 2 < 1 and color matches "S.*" and text(price) == "x" and lower(model) == "x" and inStock"#,
      .postgresql)
    #expect(sql.pushed.map(\.description) == ["inStock"])
    #expect(
      sql.narrowed.map(\.description) == [
        #"model ==[c] "iphone""#, #"color matches "S.*""#, #"lower(model) == "x""#,
      ])
    #expect(
      sql.residual?.description
        == #"model ==[c] "iphone" and rating % 2 < 1 and color matches "S.*" and text(price) == "x" and lower(model) == "x""#
    )
    #expect(
      sql.select.text.contains(
        #"WHERE ((lower("model" COLLATE "C") = $1::text) OR ("model" ~ $2::text)) AND (("color" ~ $3::text) OR ("color" ~ $4::text)) AND ((lower("model" COLLATE "C") = $5::text) OR ("model" ~ $6::text)) AND "inStock" ORDER BY "rowid""#
      ))
    #expect(sql.sortsInDatabase)
    // An `or` runs in the database only when all of it does.
    let or = try Self.translate(#"price < 5 or text(price) == "x""#, .sqlite)
    #expect(or.pushed.isEmpty && or.residual != nil && !or.select.text.contains("WHERE"))
    // Nothing of a negated narrowing test can run there.
    let not = try Self.translate(#"not (model contains "x")"#, .postgresql)
    #expect(not.pushed.isEmpty && not.narrowed.isEmpty)
    // Sort keys that SQL cannot compute make flt sort, and page.
    let sorted = try Self.translate("price > 1 order by lower(model) limit 3", .sqlite)
    #expect(!sorted.sortsInDatabase && !sorted.pagesInDatabase && sorted.residual == nil)
    #expect(sorted.remainder.ordering.count == 1 && sorted.remainder.limit != nil)
    // A key written before one that cannot be leaves no parameter behind.
    let partly = try Self.translate("price > 1 order by price + 1, lower(model)", .sqlite)
    #expect(!partly.sortsInDatabase && partly.select.parameters == [.int(1)])
  }

  @Test func valuesThatReadNoFieldAreComputedOnce() throws {
    let source = SourceText(
      #"released > today() - 30d and model == upper($name) and price < int("1000") * 2"#)
    let bound = try Checker.check(
      try Parser.parseQuery(source).get(), schema: Self.schema, parameters: ["name": .string]
    ).get(source)
    let translator = SQLTranslator(table: Self.table, dialect: .postgresql)
    // 2022-10-01 at noon: today() - 30d is 2022-09-01.
    let now = Instant(seconds: 1_664_625_600)
    let sql = translator.translate(bound, parameters: ["name": .string("iphone")], now: now)
    #expect(sql.residual == nil)
    #expect(
      sql.select.parameters == [.text("2022-09-01"), .text("IPHONE"), .int(2000)])
    #expect(
      sql.select.text.hasSuffix(
        #"WHERE ("released" > $1::date) AND ("model" = $2::text) AND ("price" < $3::bigint) ORDER BY "rowid""#
      ))
    // Without the time, what reads the clock stays in flt.
    let later = translator.translate(bound, parameters: ["name": .string("iphone")])
    #expect(later.residual?.description == "released > today() - 30d")
    // A value that faults is left to flt, which counts the fault on each record.
    let faulty = try Self.translate(#"price > int("x")"#, .sqlite)
    #expect(faulty.residual != nil)
  }

  @Test func aValueOfAnotherKindThanItsTypeIsNotBound() throws {
    // A date and an hour make a date-time, though the tree types the sum as a date: bound to
    // a `date` placeholder it would lose its hour. (Found by the differential test, seed
    // 55043: `2022-01-11T01:00:00Z <= t` matched 2022-01-11 in PostgreSQL.)
    let sum = try Self.translate("released >= 2022-09-16 + 1h", .postgresql)
    #expect(sum.residual != nil)
    #expect(!sum.select.parameters.contains(.text("2022-09-16T01:00:00Z")))
  }

  @Test func decimalsInPostgreSQLWhereNoErrorCanArise() throws {
    // An integer times a double: no size could overflow, so exact.
    let price = try Self.translate("price * 1.1e0 < 1000", .postgresql)
    #expect(price.residual == nil)
    #expect(price.select.text.contains(#"("price" * $1::double precision)"#))
    // An integer times an exact decimal: `numeric`, NULL beyond flt's 38 digits; SQLite has
    // no decimals, so there flt computes it.
    let exact = try Self.translate("price * 1.1 < 1000", .postgresql)
    #expect(exact.residual == nil)
    #expect(exact.select.text.contains(#"(("price")::numeric * ($1::numeric)::numeric)"#))
    #expect(
      exact.select.text.contains(
        "abs(x) < 10::numeric ^ (38 - scale(x))".replacingOccurrences(
          of: "x", with: #"(("price")::numeric * ($1::numeric)::numeric)"#)))
    #expect(try Self.translate("price * 1.1 < 1000", .sqlite).residual != nil)
    // A decimal constant compared with a column of integers: the number that compares the
    // same (a double), or the integer it is.
    #expect(try Self.translate("price < 2.5", .sqlite).select.parameters == [.double(2.5)])
    #expect(try Self.translate("price < 2.00", .sqlite).select.parameters == [.int(2)])
    // A decimal column: computed where its size allows, and the rest left to flt.
    let rating = try Self.translate("rating * 2 < 9", .postgresql)
    #expect(rating.narrowed.count == 1 && rating.residual != nil)
    #expect(
      rating.select.text.contains(
        #"(NOT (abs("rating") <= 1e150 AND ("rating" = 0 OR abs("rating") >= 1e-150)))"#))
    // A constant too large to multiply safely: in flt.
    #expect(
      try Self.translate("rating * 1e300 > 1", .postgresql).select.text.contains("WHERE") == false)
    // Division by zero is null, as in flt.
    #expect(
      try Self.translate("price / 0.5 > 1", .postgresql).select.text.contains(
        #"("price"::double precision / NULLIF($1::double precision, 0))"#))
  }

  @Test func arithmeticIsNullWhereFltFaults() throws {
    // SQLite keeps an integer result only while it is one (overflow makes it a real);
    // PostgreSQL computes in numeric and keeps what fits in a bigint.
    let sqlite = try Self.translate("price * 2 < 900 and -price < 0", .sqlite)
    #expect(sqlite.residual == nil)
    // A short value used twice is written twice (a subquery would keep the test off a
    // shard); a long one is computed once, in a subquery: written twice, nesting would double
    // the statement at every level (the fuzzer found a 7 MB one).
    #expect(
      sqlite.select.text.contains(
        #"WHERE ((CASE WHEN typeof(("price" * ?1)) = 'integer' THEN ("price" * ?1) END) < ?2)"#
      ))
    // `/` divides exactly (of two integers, SQLite's `/` and PostgreSQL's truncate); `//`
    // is their integer division.
    let divided = try Self.translate("price / 2 > 449.5 and price // 2 == 449", .sqlite)
    #expect(divided.residual == nil)
    #expect(divided.select.text.contains(#"(CAST("price" AS REAL) / ?1)"#))
    #expect(divided.select.text.contains(#"typeof(("price" / ?3)) = 'integer'"#))
    #expect(
      try Self.translate("price / 2 > 449.5", .postgresql).select.text.contains(
        #"("price"::double precision / NULLIF($1::bigint, 0))"#))
    let postgres = try Self.translate("price // 0 < 900", .postgresql)
    #expect(postgres.residual == nil)
    #expect(
      postgres.select.text.contains(
        #"(CASE WHEN div("price"::numeric, NULLIF($1::bigint, 0)) BETWEEN -9223372036854775808 AND 9223372036854775807 THEN div("price"::numeric, NULLIF($1::bigint, 0))::bigint END)"#
      ))
    let nested = try Self.translate(
      String(repeating: "(", count: 5) + "price" + String(repeating: " * 3)", count: 5) + " > 0",
      .postgresql)
    #expect(nested.residual == nil && nested.select.text.contains("flt_once"))
    #expect(nested.select.text.utf8.count < 5 * 700, "\(nested.select.text.utf8.count) bytes")
    // A decimal remainder in SQLite is taken of integers: it stays in flt.
    #expect(try Self.translate("rating % 2 == 1", .sqlite).residual != nil)
    // Nesting grows the statement by a constant at each level, not twofold; past what
    // SQLite's parser takes, it stays in flt.
    let five = try Self.translate(
      String(repeating: "(", count: 5) + "price" + String(repeating: " + 1)", count: 5) + " > 0",
      .sqlite)
    #expect(five.residual == nil && five.select.text.utf8.count < 1_200)
    let deep = try Self.translate(
      String(repeating: "(", count: 20) + "price" + String(repeating: " + 1)", count: 20) + " > 0",
      .sqlite)
    #expect(deep.residual != nil)
  }

  /// A column's declared type: `numeric` and `decimal` are exact decimals in PostgreSQL;
  /// SQLite keeps such a column's values as reals, so there they are doubles.
  @Test func declaredTypes() {
    for declared in ["numeric", "NUMERIC(10, 2)", "decimal", "decimal(38,4)"] {
      #expect(SQLDialect.postgresql.fieldType(declared: declared) == .decimal, "\(declared)")
      #expect(SQLDialect.sqlite.fieldType(declared: declared) == .double, "\(declared)")
    }
    #expect(SQLDialect.postgresql.fieldType(declared: "double precision") == .double)
    #expect(SQLDialect.postgresql.fieldType(declared: "bigint") == .int)
  }

  @Test func dialectDifferences() throws {
    // SQLite compares integers with reals exactly; PostgreSQL would convert the integer to a
    // double, so there both become decimals that order as flt does.
    #expect(try Self.translate("price < 2.5", .sqlite).select.text.contains(#"("price" < ?1)"#))
    let mixed = try Self.translate("price < 2.5", .postgresql)
    #expect(mixed.residual == nil)
    #expect(
      mixed.select.text.contains(#"(("price")::numeric < (CASE WHEN $1::double precision = 'NaN'"#))
    // Booleans and dates.
    let sqlite = try Self.translate("inStock == true and released >= 2022-09-16", .sqlite)
    #expect(sqlite.select.parameters == [.int(1), .text("2022-09-16")])
    let postgres = try Self.translate("inStock == true and released >= 2022-09-16", .postgresql)
    #expect(postgres.select.parameters == [.text("true"), .text("2022-09-16")])
    #expect(postgres.select.text.contains(#"("released" >= $2::date)"#))
    #expect(
      SQLTable(name: "t", schema: Self.schema).createStatement(.postgresql)
        == #"CREATE TABLE "t" ("model" text, "color" text, "price" bigint, "rating" double precision, "inStock" boolean, "released" date, "tags" jsonb)"#
    )
    #expect(
      SQLTable(name: "t", schema: Self.schema).createStatement(.sqlite)
        == #"CREATE TABLE "t" ("model" TEXT, "color" TEXT, "price" INTEGER, "rating" REAL, "inStock" BOOLEAN, "released" DATE, "tags" JSON)"#
    )
  }

  @Test func membershipAndParameters() throws {
    let sql = try Self.translate(
      "color in $colors and price in 100...$top", .sqlite,
      parameters: ["colors": .list([.string("Gold"), .null]), "top": .int(900)])
    #expect(
      sql.select.text.contains(
        #"WHERE ("color" IN (?1, NULL)) AND ("price" >= ?2 AND "price" <= ?3)"#))
    #expect(sql.select.parameters == [.text("Gold"), .int(100), .int(900)])
    // `x in ()` is false for every record, null ones too.
    let empty = try Self.translate(
      "color in $colors", .postgresql, parameters: ["colors": .list([])])
    #expect(empty.select.text.contains("WHERE FALSE"))
  }

  @Test(arguments: [
    ("*Pro*", "%Pro%"), ("iPhone ?", "iPhone _%"), ("100%_\\\\", "100\\%\\_\\\\"),
    ("a[bc]d", "a_%d"), ("a[!]x]", "a_%"), ("a[b", "a[b"), ("x\\*", "x*"),
  ])
  func likePatterns(glob: String, like: String) throws {
    let sql = try Self.translate(
      "model like \"\(glob.replacingOccurrences("\\", "\\\\"))\"", .sqlite)
    #expect(sql.select.parameters == [.text(like)], "glob \(glob)")
    #expect(sql.narrowed.count == 1)
  }

  /// Random hostile texts as values and as field names: the statement's text is the one a
  /// harmless value or name gives (names only ever appear quoted), and the values travel
  /// only as parameters, unchanged.
  @Test func userTextNeverBecomesSQL() throws {
    var rng = SplitMix64(seed: 7)
    let pieces = [
      "'", "\"", "\\", ";", "--", "/*", "*/", "$1", "?1", "?", "%", "_", "\u{0}", "é", "\n",
      "DROP TABLE phones", " OR 1=1", ")", "(", "`", "]", "[", "NULL", "\u{202E}",
    ]
    func hostile() -> String { (0..<rng.int(1...6)).map { _ in rng.pick(pieces) }.joined() }
    for dialect in SQLDialect.allCases {
      for _ in 0..<300 {
        let value = hostile()
        let name = hostile()
        let schema = Schema([.init(name, .string, optional: true), .init("n", .int)])
        let table = SQLTable(name: name, schema: schema)
        let named = Schema([.init("f", .string, optional: true), .init("n", .int)])
        let plain = SQLTable(name: "f", schema: named)
        for template in [
          "%F == %V", "%F in (%V, %V) and n > 1", "%F contains %V", "%F startsWith %V",
          "%F endsWith %V", "%F like %V", "%F is not %V order by %F desc",
        ] {
          // The field and the text as flt's printer writes them: quoted, escaped.
          let text = template.replacingOccurrences(
            "%F", Expr(.field(FieldPath([Name(name)]))).description
          ).replacingOccurrences("%V", Value.string(value).description)
          let harmless = template.replacingOccurrences("%F", "f").replacingOccurrences(
            "%V", "\"v\"")
          let hostileSQL = try Self.translate(text, dialect, schema: schema, table: table)
          let plainSQL = try Self.translate(harmless, dialect, schema: named, table: plain)
          if dialect == .postgresql && value.contains("\u{0}") {
            // PostgreSQL's text cannot hold a NUL: the test stays in flt.
            #expect(hostileSQL.residual != nil)
            #expect(!hostileSQL.select.parameters.contains(.text(value)))
            continue
          }
          #expect(
            hostileSQL.select.text
              == plainSQL.select.text.replacingOccurrences(dialect.quote("f"), dialect.quote(name)),
            "\(dialect) \(text)")
          #expect(hostileSQL.select.parameters.count == plainSQL.select.parameters.count)
          for parameter in hostileSQL.select.parameters {
            if case .text(let t) = parameter, t != "v", !template.contains("like") {
              #expect(t == value)
            }
          }
        }
        // The quoted name reads back as the name (a NUL, which no name can hold, aside).
        let quoted = dialect.quote(name)
        #expect(quoted.first == "\"" && quoted.last == "\"")
        let inner = String(quoted.dropFirst().dropLast())
        #expect(
          inner.replacingOccurrences("\"\"", "\"") == name.replacingOccurrences("\u{0}", "\u{FFFD}")
        )
        #expect(!inner.replacingOccurrences("\"\"", "").contains("\""))
      }
    }
  }
}

extension String {
  /// This text with every occurrence of `target` replaced (without Foundation).
  func replacingOccurrences(_ target: String, _ replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = self[...]
    while let range = rest.range(of: target) {
      result += rest[..<range.lowerBound] + replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}

extension SQLTranslatorTests {
  /// SQLite's parser overflows its stack on expressions nested about 60 deep (the fuzzer
  /// found it); flt allows 100, so what is nested deeper than the translator writes stays in
  /// flt.
  @Test func deepNestingStaysInFlt() throws {
    let deep = String(repeating: "not ", count: 60) + "price > 1"
    let sql = try Self.translate(deep + " and color == Gold", .sqlite)
    #expect(sql.residual?.description == deep)
    #expect(sql.pushed.map(\.description) == [#"color == "Gold""#])
    let shallow = try Self.translate(String(repeating: "not ", count: 20) + "price > 1", .sqlite)
    #expect(shallow.residual == nil)
  }
}
