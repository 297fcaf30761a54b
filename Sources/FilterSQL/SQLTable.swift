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

  /// The table `name` holding records of `schema`, one column per field named as the field
  /// (or as `columns` says).
  public init(name: String, schema: Schema, columns: [String]? = nil, rowOrder: String? = nil) {
    self.name = name
    self.schema = schema
    self.columns = columns ?? schema.names
    self.rowOrder = rowOrder
  }

  /// The column that keeps the input order in tables flt creates in PostgreSQL (SQLite has
  /// `rowid`); a table read back with it uses it to break ties, and leaves it out of its
  /// fields.
  public static let rowOrderColumn = "flt_row"

  /// `CREATE TABLE` for the table in `dialect`, with the column type of each field, and the
  /// ``rowOrder`` column where it is not SQLite's `rowid`.
  public func createStatement(_ dialect: SQLDialect) -> String {
    var columns = zip(self.columns, schema.fields).map { column, field in
      dialect.quote(column) + " " + (dialect.columnType(field.type) ?? "text")
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
