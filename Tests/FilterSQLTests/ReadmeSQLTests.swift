import FilterDSL
import FilterSQL
import Testing

/// The README's embedding example for SQL, verbatim, so that it keeps compiling and stays true.
@Suite struct ReadmeSQLTests {
  @Test func translatingAUsersFilter() throws {
    let schema = Schema([
      .init("model", .string), .init("color", .string, optional: true), .init("price", .int),
    ])
    let table = SQLTable(name: "phones", schema: schema)
    let source = SourceText(#"color in (Starlight, "Space Black") and price < 1000"#)
    let query = try Parser.parseQuery(source).get()  // errors: line, column, caret
    let bound = try Checker.check(query, schema: schema).get(source)
    let sql = SQLTranslator(table: table, dialect: .postgresql).translate(bound)
    #expect(
      sql.select.text
        == #"SELECT "model", "color", "price" FROM "phones" WHERE ("color" IN ($1::text, $2::text)) AND ("price" < $3::bigint)"#
    )
    #expect(sql.select.parameters == [.text("Starlight"), .text("Space Black"), .int(1000)])
    #expect(sql.residual == nil)
  }
}
