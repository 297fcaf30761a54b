import FilterDSL
import FilterData
import FilterSQL

extension PostgresConnection {
  /// The tables and views of the current schema, by name.
  public func tableNames() throws(DatabaseError) -> [String] {
    try texts(
      SQLStatement(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name"
      ))
  }

  /// The table `name` of the current schema as flt sees it: a field per column, typed by the
  /// column's type (`bigint`, `double precision`, `text`, `boolean`, `date`, `timestamptz`,
  /// `interval`), `json`/`jsonb` columns typed by the lists or records they hold. Equal sort
  /// keys keep the order of the `SQLTable/rowOrderColumn` column where the table has one
  /// (tables flt made do), else come back in the server's order.
  ///
  /// Only the JSON columns named in `typingJSON` are typed by their values when it is given.
  public func table(named name: String, typingJSON: Set<String>?) throws(DatabaseError)
    -> SQLTable
  {
    var fields: [Schema.Field] = []
    var json: [Int] = []
    var rowOrder: String?
    try forEachRow(
      SQLStatement(
        "SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        parameters: [.text(name)])
    ) { row in
      // Three columns, as asked (a server that answers otherwise is skipped, not trusted).
      guard row.count == 3, case .text(let column) = row[0], case .text(let declared) = row[1]
      else { return true }
      if column == SQLTable.rowOrderColumn {
        rowOrder = column
        return true
      }
      let type = SQLDialect.postgresql.fieldType(declared: declared)
      if type == nil { json.append(fields.count) }
      fields.append(Schema.Field(column, type ?? .string, optional: row[2] != .text("NO")))
      return true
    }
    guard !fields.isEmpty else {
      let names = (try? tableNames()) ?? []
      throw DatabaseError(
        "the database \(url.database) has no table \(name)",
        help: names.isEmpty
          ? "the database has no tables" : "its tables: " + names.joined(separator: ", "))
    }
    for slot in json where typingJSON?.contains(fields[slot].name) ?? true {
      let column = SQLDialect.postgresql.quote(fields[slot].name)
      fields[slot].type = jsonColumnType(
        try texts(
          SQLStatement(
            "SELECT \(column)::text FROM \(SQLDialect.postgresql.quote(name)) WHERE \(column) IS NOT NULL LIMIT \(jsonSample)"
          )))
    }
    var table = SQLTable(name: name, schema: Schema(fields), rowOrder: rowOrder)
    table.byteOrderedColumns = Set(
      try texts(
        SQLStatement(
          "SELECT a.attname::text FROM pg_attribute a JOIN pg_collation c ON c.oid = a.attcollation WHERE a.attrelid = \(Self.named) AND a.attnum > 0 AND NOT a.attisdropped AND c.collname IN ('C', 'POSIX')",
          parameters: [.text(name)])))
    table.partitions = try partitions(of: name)
    return table
  }

  /// The table `$1` of the current schema, in a catalog query.
  private static let named = "(quote_ident(current_schema()) || '.' || quote_ident($1))::regclass"

  /// The leaf partitions of the table `name`, by schema and name: none when it is not
  /// partitioned, or when the user may not read each of them directly (a grant on a
  /// partitioned table reaches its partitions only through it), or when row-level security
  /// binds this user on any table of the tree (a partition asked directly is subject to its
  /// own policies, not its parents'; `row_security_active` weighs ownership, `FORCE` and
  /// `BYPASSRLS`): the table is then asked whole.
  private func partitions(of name: String) throws(DatabaseError) -> [SQLTable.Partition] {
    let guarded = try texts(
      SQLStatement(
        "SELECT coalesce(bool_or(row_security_active(p.relid)), false)::text FROM pg_partition_tree(\(Self.named)) p",
        parameters: [.text(name)]))
    guard guarded == ["false"] else { return [] }
    var partitions: [SQLTable.Partition] = []
    var readable = true
    try forEachRow(
      SQLStatement(
        "SELECT n.nspname::text, c.relname::text, c.relkind::text, has_table_privilege(c.oid, 'SELECT')::text FROM pg_partition_tree(\(Self.named)) p JOIN pg_class c ON c.oid = p.relid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE p.isleaf AND p.level > 0 ORDER BY n.nspname, c.relname",
        parameters: [.text(name)])
    ) { row in
      if row.count == 4, case .text(let schema) = row[0], case .text(let name) = row[1] {
        partitions.append(
          SQLTable.Partition(schema: schema, name: name, isForeign: row[2] == .text("f")))
        readable = readable && row[3] == .text("true")
      }
      return true
    }
    return readable ? partitions : []
  }
}
