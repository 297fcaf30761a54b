// The SQL back end under the evaluate harness (built into it by Fuzz/run): every filter that
// checks is translated for SQLite and run on the harness's records in an in-memory database.
// What SQLite returns must hold every record the reference evaluator says matches, and be
// exactly them when nothing is left to flt. The PostgreSQL translation must not trap.

/// The harness's records in a SQLite table, once per process.
let sqliteTable: (database: SQLiteDatabase, table: SQLTable)? = {
  guard let database = try? SQLiteDatabase(path: ":memory:", writable: true) else { return nil }
  let table = SQLTable(name: "t", schema: schema, rowOrder: "rowid")
  // Lists, records and mixed values as JSON, written out: the harness has no JSON writer of
  // its own.
  let json: [[String?]] = [
    [#"["a",null]"#, #"{"x":3}"#], ["[]", nil], [nil, #"{"x":-1}"#], [nil, nil],
  ]
  let mixed: [String?] = ["[]", #"{"a":1,"b":["x"]}"#, #""""#, "3"]
  do {
    try database.execute(table.createStatement(.sqlite))
    for (index, (record, texts)) in zip(records, json).enumerated() {
      var cells = record.prefix(7).map { SQLDialect.sqlite.encode($0) ?? .null }
      cells += texts.map { $0.map(SQLValue.text) ?? .null }
      // The time of day, and the mixed value.
      cells.append(SQLDialect.sqlite.encode(record[9]) ?? .null)
      cells.append(mixed[index].map(SQLValue.text) ?? .null)
      try database.execute(table.insertStatement(.sqlite), cells)
    }
  } catch {
    fatalError("cannot make the SQLite table: \(error)")
  }
  return (database, table)
}()

/// Checks the SQL translations of `bound` against `expected`, the rows (0...3) the reference
/// evaluator says match.
func checkSQL(_ bound: BoundExpr, _ filter: Expr, expected: Set<Int64>) {
  _ = SQLTranslator(table: SQLTable(name: "t", schema: schema), dialect: .postgresql)
    .translate(BoundQuery(filter: bound), parameters: context.parameters)
  guard let (database, table) = sqliteTable else { return }
  let sql = SQLTranslator(table: table, dialect: .sqlite).translate(
    BoundQuery(filter: bound), parameters: context.parameters)
  guard sql.count.text.hasPrefix("SELECT count(*)") else {
    fatalError("unexpected statement \(sql.count.text)")
  }
  let rows = SQLStatement(
    "SELECT rowid - 1" + sql.count.text.dropFirst("SELECT count(*)".count),
    parameters: sql.count.parameters)
  var returned: Set<Int64> = []
  do {
    try database.forEachRow(rows) { row in
      if case .int(let n) = row[0] { returned.insert(n) }
      return true
    }
  } catch {
    fatalError("SQLite refused the translation of \(filter): \(error)\n\(sql.count.text)")
  }
  if !expected.isSubset(of: returned) {
    fatalError(
      "SQLite dropped matching rows of \(filter): \(returned) vs \(expected)\n\(sql.explanation)")
  }
  if sql.residual == nil && returned != expected {
    fatalError("SQLite answers \(filter) wrongly: \(returned) vs \(expected)\n\(sql.explanation)")
  }
}
