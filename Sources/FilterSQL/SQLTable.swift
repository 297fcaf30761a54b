import FilterDSL

/// Where a data set lives in a database: the table, the schema of its records, and the column
/// that holds each top-level field. Lists and nested records are stored as JSON text (SQLite)
/// or `jsonb` (PostgreSQL).
public struct SQLTable: Hashable, Sendable {
  /// The table's name, unquoted.
  public var name: String
  /// The fields of the records the table holds.
  public var schema: Schema
  /// The column of each top-level field, in the schema's order (unquoted names).
  public var columns: [String]
  /// A column whose order is the records' input order (SQLite's `rowid`), used to break ties
  /// when sorting, as flt keeps equal keys in input order; nil when the table has none.
  public var rowOrder: String?
  /// SQL computing top-level fields that are not a column of the table, by field name:
  /// `["fullName": "first_name || ' ' || last_name"]`. The text is the embedder's, written
  /// into statements as it is (a user's never is); it must give NULL where the field is null.
  /// Such a field is read and tested like a column, but ``createStatement(_:)`` and
  /// ``insertStatement(_:)`` still name a column for it.
  public var expressions: [String: String]
  /// SQL spellings of the embedder's own functions (those added to the `FunctionRegistry`),
  /// by name; a call to a function with none stays in flt.
  public var functions: [String: SQLFunction]
  /// Top-level number fields whose column may hold other values too (SQLite's dynamic
  /// typing, outside `STRICT` tables: `NA` in an `INTEGER` column): filters, sorts and groups
  /// read only its numbers (its integers, for an integer field), other values being null
  /// there, as flt reads them.
  public var numbersOnly: Set<String> = []
  /// Whether a column may hold values of other types than its field's beyond what
  /// ``numbersOnly`` says (a SQLite table that is not `STRICT`, typed from its first rows):
  /// counts done in the database then read every number field for its numbers only.
  public var typesMayVary = false
  /// The leaf partitions of a partitioned table (PostgreSQL's `PARTITION BY`), in a fixed
  /// order; empty for a table that is not partitioned. When one of them is foreign (a
  /// `postgres_fdw` table on another server: a shard), what each partition can answer alone
  /// is asked of each (see ``answersByPartition``).
  public var partitions: [Partition] = []
  /// The text columns declared with a collation that orders text by its bytes (`"C"` or
  /// `"POSIX"`): UTF-8's byte order is the code point order flt compares text by, so their
  /// tests and sorts are written without `COLLATE "C"`, which `postgres_fdw` would not send
  /// to a shard.
  public var byteOrderedColumns: Set<String> = []

  /// A leaf partition of a partitioned table.
  public struct Partition: Hashable, Sendable {
    /// The schema that holds it.
    public var schema: String
    /// Its name, unquoted.
    public var name: String
    /// Whether it is a foreign table (its rows on another server).
    public var isForeign: Bool

    /// The partition `schema.name`, foreign or not.
    public init(schema: String, name: String, isForeign: Bool) {
      (self.schema, self.name, self.isForeign) = (schema, name, isForeign)
    }
  }

  /// Whether counts, facets and sorted pages are asked of each partition and merged (a
  /// partitioned table with a foreign partition, whose server then does the work on its own
  /// rows: PostgreSQL 15 sends no partial aggregate and no per-partition `LIMIT` through
  /// `postgres_fdw` by itself). A table whose fields include ``expressions`` is asked whole.
  public var answersByPartition: Bool {
    partitions.contains(where: \.isForeign) && expressions.isEmpty
  }

  /// This table with every number field read for its numbers only (see ``numbersOnly``).
  public var readingNumbersOnly: SQLTable {
    var table = self
    table.numbersOnly.formUnion(
      schema.fields.filter { $0.type == .int || $0.type == .double }.map(\.name))
    return table
  }

  /// The table `name` holding records of `schema`, one column per field named as the field
  /// (or as `columns` says), or computed as `expressions` says, with the embedder's
  /// `functions`.
  public init(
    name: String, schema: Schema, columns: [String]? = nil, rowOrder: String? = nil,
    expressions: [String: String] = [:], functions: [SQLFunction] = []
  ) {
    self.name = name
    self.schema = schema
    self.columns = columns ?? schema.names
    self.rowOrder = rowOrder
    self.expressions = expressions
    self.functions = Dictionary(functions.map { ($0.name, $0) }) { _, last in last }
  }

  /// The name of a table that holds a data file's records: the file's name without its
  /// folders and extensions (`phones` for `data/phones.jsonl.gz`), or `records` for standard
  /// input (nil or `-`).
  public static func name(forFile path: String?) -> String {
    guard let path, path != "-", let base = path.split(separator: "/").last else {
      return "records"
    }
    let name = base.prefix { $0 != "." }
    return name.isEmpty ? "records" : String(name)
  }

  /// The SQL reading the top-level field in `slot`: its expression in brackets, or its
  /// column, quoted.
  public func reading(_ slot: Int, _ dialect: SQLDialect) -> String {
    if let expression = expressions[schema.fields[slot].name] { return "(\(expression))" }
    return dialect.quote(columns[slot])
  }

  /// The SQL a filter, sort or group tests the top-level field in `slot` by: ``reading(_:_:)``,
  /// with only its numbers for a field of ``numbersOnly``.
  public func testing(_ slot: Int, _ dialect: SQLDialect) -> String {
    let read = reading(slot, dialect)
    let field = schema.fields[slot]
    guard numbersOnly.contains(field.name) else { return read }
    let classes = field.type == .int ? "'integer'" : "'integer', 'real'"
    return "(CASE WHEN typeof(\(read)) IN (\(classes)) THEN \(read) END)"
  }

  /// The column that keeps the input order in tables flt creates in PostgreSQL (SQLite has
  /// `rowid`); a table read back with it uses it to break ties, and leaves it out of its
  /// fields.
  public static let rowOrderColumn = "flt_row"

  /// `CREATE TABLE` for the table in `dialect`, with the column type of each field (text
  /// columns of ``byteOrderedColumns`` `COLLATE "C"` in PostgreSQL), and the ``rowOrder``
  /// column where it is not SQLite's `rowid`.
  public func createStatement(_ dialect: SQLDialect) -> String {
    var columns = zip(self.columns, schema.fields).map { column, field in
      let type = dialect.columnType(field.type) ?? "text"
      let collated =
        dialect == .postgresql && field.type == .string && byteOrderedColumns.contains(column)
      return dialect.quote(column) + " " + type + (collated ? #" COLLATE "C""# : "")
    }
    if let rowOrder, rowOrder != "rowid" {
      columns.append(dialect.quote(rowOrder) + " bigint GENERATED ALWAYS AS IDENTITY")
    }
    return "CREATE TABLE \(dialect.quote(name)) (\(columns.joined(separator: ", ")))"
  }

  /// `INSERT` of one record, its values as parameters in column order.
  public func insertStatement(_ dialect: SQLDialect) -> String {
    let placeholders = zip(columns.indices, schema.fields).map { index, field in
      dialect.placeholder(index + 1, field.type)
    }
    return insertInto(dialect) + "(\(placeholders.joined(separator: ", ")))"
  }

  /// `INSERT INTO "t" ("a", "b") VALUES `: what precedes the rows of values.
  public func insertInto(_ dialect: SQLDialect) -> String {
    "INSERT INTO \(dialect.quote(name)) (\(columns.map(dialect.quote).joined(separator: ", "))) VALUES "
  }
}
