import FilterDSL
import FilterSQL
import TestSupport
import Testing

// The code of the FilterSQL article (Sources/FilterSQL/FilterSQL.docc), verbatim, so that it
// keeps compiling and stays true.

@Suite struct DocumentationTests {
  @Test func translatingToSQL() throws {
    let schema = Schema([
      .init("model", .string), .init("color", .string, optional: true), .init("price", .int),
    ])
    let table = SQLTable(name: "phones", schema: schema)

    let source = SourceText(#"color in (Starlight, "Space Black") and price < 1000"#)
    let query = try Parser.parseQuery(source).get()
    let bound = try Checker.check(query, schema: schema).get(source)
    let sql = SQLTranslator(table: table, dialect: .postgresql).translate(bound)
    print(sql.select.text)
    // SELECT "model", "color", "price" FROM "phones"
    //   WHERE ("color" IN ($1::text, $2::text)) AND ("price" < $3::bigint)
    print(sql.select.parameters)  // ['Starlight', 'Space Black', 1000]
    print(sql.residual as Any)  // nil: PostgreSQL answers the whole filter
    #expect(
      sql.select.text
        == #"SELECT "model", "color", "price" FROM "phones" WHERE ("color" IN ($1::text, $2::text)) AND ("price" < $3::bigint)"#
    )
    #expect(sql.select.parameters == [.text("Starlight"), .text("Space Black"), .int(1000)])
    #expect("\(sql.select.parameters)" == "['Starlight', 'Space Black', 1000]")
    #expect(sql.residual == nil)

    let folded = SourceText(#"price < 1000 and lower(model) == "iphone 14""#)
    let partly = try Checker.check(try Parser.parseQuery(folded).get(), schema: schema)
      .get(folded)
    let split = SQLTranslator(table: table, dialect: .sqlite).translate(partly)
    print(split.explanation)
    // in sqlite: SELECT "model", "color", "price" FROM "phones" WHERE ("price" < ?1)
    //   AND ((lower("model") = ?2) OR ("model" GLOB ?3))  -- 1000, 'iphone 14', '*[^ -~]*'
    // narrowed there, checked again in flt: lower(model) == "iphone 14"
    // in flt: lower(model) == "iphone 14"
    #expect(split.residual?.description == #"lower(model) == "iphone 14""#)
    #expect(
      split.explanation
        == #"""
        in sqlite: SELECT "model", "color", "price" FROM "phones" WHERE ("price" < ?1) AND ((lower("model") = ?2) OR ("model" GLOB ?3))  -- 1000, 'iphone 14', '*[^ -~]*'
        narrowed there, checked again in flt: lower(model) == "iphone 14"
        in flt: lower(model) == "iphone 14"
        """#)
  }

  @Test func yourOwnColumnsAndFunctions() throws {
    let peopleSchema = Schema([
      .init("first", .string), .init("last", .string), .init("fullName", .string),
      .init("x", .int),
    ])
    let people = SQLTable(
      name: "people", schema: peopleSchema,
      expressions: ["fullName": #""first" || ' ' || "last""#],
      functions: [SQLFunction("distance", sql: "abs({1} - {2})")])
    let distance = FunctionDefinition(
      name: "distance", arity: 2...2, resultType: { _ in .success(.int) },
      evaluate: { _, _ in .success(.null) })
    let source = SourceText(#"fullName == "Ada Lovelace" and distance(x, 3) < 5"#)
    let bound = try Checker.check(
      try Parser.parseQuery(source).get(), schema: peopleSchema,
      functions: FunctionRegistry.builtins.adding(distance)
    ).get(source)
    let sql = SQLTranslator(table: people, dialect: .postgresql).translate(bound)
    #expect(sql.residual == nil)
    #expect(
      sql.select.text.hasSuffix(
        #"WHERE (("first" || ' ' || "last") = $1::text) AND (abs(("x") - ($2::bigint)) < $3::bigint)"#
      ))
  }

  /// Every line of code in the article is a line of this file (spaces aside).
  @Test func articlesQuoteOnlyThisFile() throws {
    let code = try ArticleCode.lines(of: "Sources/FilterSQL/FilterSQL.docc", missingFrom: #filePath)
    #expect(code.missing == [])
    #expect(code.quoted > 10)
  }
}
