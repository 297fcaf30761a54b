import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL
import Testing

/// Filters run in memory and in a database table holding the same records: the same records
/// in the same order, however much of each the database answers.
struct DatabaseAgreement {
  let schema: Schema
  var records: [[Value]]
  var types: [String: ValueType] = [:]
  var values: [String: Value] = [:]

  /// Runs every filter both ways; returns how many the database answered wholly, and how
  /// many it narrowed. A filter that does not check is a mistake in the test.
  func check(_ filters: [String], on connection: any SQLConnection, _ table: SQLTable) throws
    -> (whole: Int, narrowed: Int)
  {
    var whole = 0
    var narrowed = 0
    for filter in filters {
      let source = SourceText(filter)
      let parsed = try Parser.parseQuery(source).get()
      let bound = try Checker.check(parsed, schema: schema, parameters: types).get(source)
      let expected = CompiledQuery(
        bound, for: .dynamic(schema, presence: .columns), parameters: types
      )
      .binding(values).run(records).records
      let query = TableQuery(parsed, on: table, in: connection, types: types, values: values)
      let translation = try query.translation()
      if !translation.narrowed.isEmpty { narrowed += 1 }
      if translation.residual == nil { whole += 1 }
      let actual = try query.records()
      // Compared as printed, so that NaN is the same as NaN.
      let (got, wanted) = (actual.map { "\($0)" }, expected.map { "\($0)" })
      let first = got.indices.first { $0 >= wanted.count || got[$0] != wanted[$0] } ?? got.count
      let difference =
        "\(got.count) records, not \(wanted.count); the first to differ, at \(first): "
        + "\(got.dropFirst(first).first ?? "none") where flt has \(wanted.dropFirst(first).first ?? "none")"
      #expect(got == wanted, "\(filter): \(difference)\n\(translation.explanation)")
    }
    return (whole, narrowed)
  }

  /// A new table `name` of the records in `connection`, in input order.
  func load(_ name: String, into connection: any SQLConnection, _ dialect: SQLDialect) throws
    -> SQLTable
  {
    let table = SQLTable(
      name: name, schema: schema,
      rowOrder: dialect == .sqlite ? "rowid" : SQLTable.rowOrderColumn)
    for statement in [
      "DROP TABLE IF EXISTS \(dialect.quote(name))", table.createStatement(dialect),
    ] {
      try connection.forEachRow(SQLStatement(statement)) { _ in true }
    }
    for record in records {
      let cells = zip(record, schema.fields).map { value, field -> SQLValue in
        switch (value, field.type) {
        case (.null, _): .null
        case (_, .list), (_, .record), (_, .any): .text(JSONValue.encode(value, as: field.type))
        default: dialect.stored(value) ?? .null
        }
      }
      try connection.forEachRow(SQLStatement(table.insertStatement(dialect), parameters: cells)) {
        _ in true
      }
    }
    return table
  }
}
