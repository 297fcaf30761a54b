import FilterDSL
import FilterData
import FilterSQL

/// Writes records as a SQL script: `CREATE TABLE` with the column type of each field, then an
/// `INSERT` per record, in one transaction, so that `flt -f sql ... | sqlite3 shop.db` moves a
/// file into a database and the same queries give the same answers there.
public final class SQLScriptWriter: RecordOutput {
  /// The table written.
  public let table: SQLTable
  /// The dialect written.
  public let dialect: SQLDialect
  /// How many records were written.
  public private(set) var count = 0
  /// Values the dialect cannot hold (text with a NUL in PostgreSQL), written as NULL.
  public private(set) var unstorable = 0
  private let out: OutputSink
  /// `INSERT INTO "t" ("a", "b") VALUES `.
  private let insert: String

  /// A writer of the records of `table` in `dialect` to `out`; writes the `CREATE TABLE`.
  public init(_ table: SQLTable, dialect: SQLDialect, to out: OutputSink) {
    self.table = table
    self.dialect = dialect
    self.out = out
    insert =
      "INSERT INTO \(dialect.quote(table.name)) (\(table.columns.map(dialect.quote).joined(separator: ", "))) VALUES "
    out.write("BEGIN;\n" + table.createStatement(dialect) + ";\n")
  }

  /// Writes one record's `INSERT`.
  public func write(_ record: DataRecord) {
    count += 1
    let values = zip(table.schema.fields.indices, table.schema.fields).map { slot, field in
      literal(slot < record.values.count ? record.values[slot] : .null, field.type)
    }
    out.write(insert + "(\(values.joined(separator: ", ")));\n")
  }

  /// Ends the transaction.
  public func finish() {
    out.write("COMMIT;\n")
  }

  private func literal(_ value: Value, _ type: ValueType) -> String {
    switch (value, type) {
    case (.null, _): return "NULL"
    case (_, .list), (_, .record):
      return SQLValue.text(JSONValue.encode(value, as: type)).literal(dialect)
    default:
      guard let encoded = dialect.stored(value) else {
        unstorable += 1
        return "NULL"
      }
      return encoded.literal(dialect)
    }
  }
}
