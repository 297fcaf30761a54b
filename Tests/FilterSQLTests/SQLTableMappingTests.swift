import FilterDSL
import FilterSQL
import Testing

/// An embedder's own mapping: fields computed by SQL expressions instead of columns, and SQL
/// spellings for the embedder's functions.
@Suite struct SQLTableMappingTests {
  static let schema = Schema([
    .init("first", .string), .init("last", .string), .init("fullName", .string),
    .init("x", .int),
  ])
  /// `distance(a, b)`: how far apart two integers are (null for a null, as strict functions
  /// are).
  static let distance = FunctionDefinition(
    name: "distance", arity: 2...2, resultType: { _ in .success(.int) },
    evaluate: { args, _ in
      guard case .int(let a) = args[0], case .int(let b) = args[1] else { return .success(.null) }
      return .success(.int(a > b ? a &- b : b &- a))
    })
  /// An embedder's `lower`, replacing flt's: not the built-in, so not written as SQL's.
  static let lower = FunctionDefinition(
    name: "lower", arity: 1...1, resultType: { _ in .success(.string) },
    evaluate: { args, _ in .success(args[0]) })
  static let functions = FunctionRegistry.builtins.adding(distance).adding(lower)

  static func translate(_ text: String, _ table: SQLTable, _ dialect: SQLDialect = .sqlite)
    throws -> SQLTranslation
  {
    let source = SourceText(text)
    let query = try Parser.parseQuery(source).get()
    let bound = try Checker.check(query, schema: schema, functions: functions).get(source)
    return SQLTranslator(table: table, dialect: dialect).translate(bound)
  }

  static let table = SQLTable(
    name: "people", schema: schema,
    expressions: ["fullName": #""first" || ' ' || "last""#],
    functions: [SQLFunction("distance", sql: "abs({1} - {2})")])

  @Test func aFieldComputedBySQL() throws {
    let sql = try Self.translate(#"fullName == "Ada Lovelace" order by fullName"#, Self.table)
    #expect(sql.residual == nil && sql.sortsInDatabase)
    #expect(
      sql.select.text
        == #"SELECT "first", "last", ("first" || ' ' || "last"), "x" FROM "people" WHERE (("first" || ' ' || "last") = ?1) ORDER BY ("first" || ' ' || "last") ASC NULLS LAST"#
    )
    // In PostgreSQL too, ordered by code points.
    let postgres = try Self.translate(#"fullName < "B""#, Self.table, .postgresql)
    #expect(
      postgres.select.text.contains(#"WHERE ((("first" || ' ' || "last") COLLATE "C") < $1::text)"#)
    )
  }

  @Test func anEmbeddersFunctionAsItsSpellingSays() throws {
    let sql = try Self.translate("distance(x, 3) < 5", Self.table)
    #expect(sql.residual == nil)
    #expect(sql.select.text.hasSuffix(#"WHERE (abs(("x") - (?1)) < ?2)"#))
    #expect(sql.select.parameters == [.int(3), .int(5)])
    // A bare name is a call with the arguments in order.
    let named = SQLTable(
      name: "people", schema: Self.schema,
      functions: [SQLFunction("distance", sql: "my_distance")])
    #expect(
      try Self.translate("distance(x, 3) < 5", named).select.text.hasSuffix(
        #"WHERE (my_distance("x", ?1) < ?2)"#))
  }

  @Test func whatHasNoSpellingStaysInFlt() throws {
    // No spelling for the embedder's function.
    let bare = SQLTable(name: "people", schema: Self.schema)
    #expect(try Self.translate("distance(x, 3) < 5", bare).residual != nil)
    // A template naming an argument the call does not have.
    let wrong = SQLTable(
      name: "people", schema: Self.schema, functions: [SQLFunction("distance", sql: "f({3})")])
    #expect(try Self.translate("distance(x, 3) < 5", wrong).residual != nil)
    for template in ["f({0})", "f({})", "f({1)", "f({99999999999999999999})"] {
      let broken = SQLTable(
        name: "people", schema: Self.schema, functions: [SQLFunction("distance", sql: template)])
      #expect(try Self.translate("distance(x, 3) < 5", broken).residual != nil, "\(template)")
    }
    // The embedder's own `lower` is not flt's, so SQL's is not used for it.
    #expect(try Self.translate(#"lower(first) == "a""#, Self.table).residual != nil)
  }

  @Test func argumentsAreNotReadAsTemplates() throws {
    // A column whose name looks like a placeholder stays a column.
    let schema = Schema([.init("{2}", .int), .init("x", .int)])
    let table = SQLTable(
      name: "t", schema: schema, functions: [SQLFunction("distance", sql: "abs({1} - {2})")])
    let source = SourceText("distance(`{2}`, x) > 1")
    let query = try Parser.parseQuery(source).get()
    let bound = try Checker.check(query, schema: schema, functions: Self.functions).get(source)
    let sql = SQLTranslator(table: table, dialect: .sqlite).translate(bound)
    #expect(sql.select.text.hasSuffix(#"WHERE (abs(("{2}") - ("x")) > ?1)"#))
  }
}
