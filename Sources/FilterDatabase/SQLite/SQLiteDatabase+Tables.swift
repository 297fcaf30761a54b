import FilterDSL
import FilterData
import FilterSQL

extension SQLiteDatabase {
  /// The tables (and views) of the database, by name.
  public func tableNames() throws(DatabaseError) -> [String] {
    try texts(
      SQLStatement(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name"
      ))
  }

  /// The table `name` as flt sees it: a field per column, typed by the column's declared
  /// type (`INTEGER`, `REAL`, `TEXT`, `BOOLEAN`, `DATE`, `DATETIME`, `DURATION`), JSON columns
  /// typed by the lists or records they hold; ties in `rowid` order where the table has one.
  ///
  /// Only the JSON columns named in `typingJSON` are typed by their values when it is given.
  public func table(named name: String, typingJSON: Set<String>?) throws(DatabaseError)
    -> SQLTable
  {
    let columns = try rows(
      SQLStatement(
        #"SELECT name, type, "notnull" FROM pragma_table_info(?1)"#, parameters: [.text(name)]))
    guard !columns.isEmpty else {
      let names = (try? tableNames()) ?? []
      throw DatabaseError(
        "the database \(path) has no table \(name)",
        help: names.isEmpty
          ? "the database has no tables" : "its tables: " + names.joined(separator: ", "))
    }
    var fields: [Schema.Field] = []
    var declaredTypes: [String] = []
    for column in columns {
      guard case .text(let field) = column[0] else { continue }
      let declared: String
      if case .text(let text) = column[1] { declared = text } else { declared = "" }
      let optional = column[2] != .int(1)
      var type = SQLDialect.sqlite.fieldType(declared: declared)
      if type == nil, typingJSON?.contains(field) ?? true { type = try jsonType(field, in: name) }
      fields.append(Schema.Field(field, type ?? .string, optional: optional))
      declaredTypes.append(declared)
    }
    // SQLite keeps any value in any column, unless the table is STRICT: columns are typed by
    // what their first rows hold, and number columns read for their numbers.
    var expressions: [String: String] = [:]
    var numbersOnly: Set<String> = []
    let strict = try isStrict(name)
    if !strict {
      let classes = try storageClasses(fields.map(\.name), in: name)
      for index in fields.indices {
        let field = fields[index]
        let held = classes[index]
        let untyped = declaredTypes[index].allSatisfy(\.isWhitespace)
        let others = held.subtracting(["integer", "real"])
        switch field.type {
        case .int where held.contains("real"):
          // Decimals too: a column of numbers, as a file's would widen.
          fields[index].type = .double
          if !others.isEmpty { numbersOnly.insert(field.name) }
        case .int, .double:
          // Text among the numbers (`NA` from sqlite3's .import): filters read the numbers.
          if !others.isEmpty { numbersOnly.insert(field.name) }
        case .string where untyped && !held.isEmpty:
          // No declared type: numbers when they hold only numbers, else text (numbers too,
          // read as text in SQL and in flt alike).
          if held.isSubset(of: ["integer"]) {
            fields[index].type = .int
            numbersOnly.insert(field.name)
          } else if held.isSubset(of: ["integer", "real"]) {
            fields[index].type = .double
            numbersOnly.insert(field.name)
          } else if held != ["text"] {
            expressions[field.name] = "CAST(\(SQLDialect.sqlite.quote(field.name)) AS TEXT)"
          }
        default:
          break
        }
      }
    }
    // Tables have a rowid, in insertion order, unless made WITHOUT ROWID; views have none
    // (SQLite gives them a null one, and sorting by it would read the whole view). SQLite
    // says which (`pragma_table_list`, 3.37 and later); before it, the declaration's text.
    var hasRowid = false
    if let listed = try? rows(
      SQLStatement(
        "SELECT type, wr FROM pragma_table_list WHERE name = ?1 AND schema = 'main'",
        parameters: [.text(name)])), let row = listed.first, row.count == 2
    {
      hasRowid = row[0] == .text("table") && row[1] == .int(0)
    } else {
      let declaration = try rows(
        SQLStatement(
          "SELECT type, sql FROM sqlite_master WHERE name = ?1", parameters: [.text(name)]))
      if let row = declaration.first, row.count == 2, row[0] == .text("table"),
        case .text(let sql) = row[1]
      {
        hasRowid = !sql.uppercased().contains("WITHOUT ROWID")
      }
    }
    var table = SQLTable(
      name: name, schema: Schema(fields), rowOrder: hasRowid ? "rowid" : nil,
      expressions: expressions)
    table.numbersOnly = numbersOnly
    table.typesMayVary = !strict
    return table
  }

  /// Whether the table `name` is STRICT: its columns hold values of their declared types only
  /// (SQLite 3.37 and later say; before, no table is).
  private func isStrict(_ name: String) throws(DatabaseError) -> Bool {
    let listed = try? rows(
      SQLStatement(
        "SELECT strict FROM pragma_table_list WHERE name = ?1 AND schema = 'main'",
        parameters: [.text(name)]))
    return listed?.first?.first == .int(1)
  }

  /// The storage classes (`integer`, `real`, `text`, `blob`) each column holds in the first
  /// ``jsonSample`` rows of `table`, as file readers infer types from their first records.
  private func storageClasses(_ columns: [String], in table: String) throws(DatabaseError)
    -> [Set<String>]
  {
    guard !columns.isEmpty else { return [] }
    let quote = SQLDialect.sqlite.quote
    let lists = columns.map { "group_concat(DISTINCT typeof(\(quote($0))))" }
    let statement = SQLStatement(
      "SELECT \(lists.joined(separator: ", ")) FROM (SELECT * FROM \(quote(table)) LIMIT \(jsonSample))"
    )
    let row = try rows(statement).first ?? []
    return columns.indices.map { index in
      guard index < row.count, case .text(let list) = row[index] else { return [] }
      return Set(list.split(separator: ",").map(String.init)).subtracting(["null"])
    }
  }

  /// The type of the JSON values in `column` of `table` (the first ``jsonSample`` of them):
  /// lists or records as a data file's would be typed; text when they are mixed or not JSON.
  private func jsonType(_ column: String, in table: String) throws(DatabaseError) -> ValueType {
    let quoted = SQLDialect.sqlite.quote(column)
    return jsonColumnType(
      try texts(
        SQLStatement(
          // (As text: a JSON number in a column of NUMERIC affinity is kept as a number.)
          "SELECT CAST(\(quoted) AS TEXT) FROM \(SQLDialect.sqlite.quote(table)) WHERE \(quoted) IS NOT NULL LIMIT \(jsonSample)"
        )))
  }
}
