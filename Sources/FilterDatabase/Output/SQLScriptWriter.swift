import FilterDSL
import FilterData
import FilterSQL

/// Writes records as a SQL script: `CREATE TABLE` with the column type of each field, then
/// `INSERT`s of the records, in one transaction, so that `flt -f sql ... | sqlite3 shop.db` moves a
/// file into a database and the same queries give the same answers there.
public final class SQLScriptWriter: RecordSink {
  /// The table written.
  public let table: SQLTable
  /// The dialect written.
  public let dialect: SQLDialect
  /// How many records were written.
  public private(set) var count = 0
  /// Values the dialect cannot hold (text with a NUL in PostgreSQL, a NaN, a date outside
  /// years 0 to 9999), written as NULL.
  public private(set) var unstorable = 0
  /// Exact decimals with more digits than SQLite's reals keep, written as the nearest real.
  public private(set) var roundedDecimals = 0
  /// How many values were written as NULL or rounded, when some were (see ``unstorable``
  /// and ``roundedDecimals``).
  public var warnings: [String] {
    var lines: [String] = []
    if unstorable > 0 {
      lines.append(
        "warning: \(unstorable) value\(unstorable == 1 ? "" : "s") cannot be stored in \(table.name) as \(unstorable == 1 ? "it is" : "they are") (\(dialect == .postgresql ? "text with a NUL character, " : "")NaN, a date outside years 0 to 9999) and \(unstorable == 1 ? "was" : "were") written as NULL\n"
      )
    }
    if roundedDecimals > 0 {
      lines.append(
        "warning: \(roundedDecimals) exact decimal\(roundedDecimals == 1 ? " has" : "s have") more digits than SQLite's REAL keeps and \(roundedDecimals == 1 ? "was" : "were") written as the nearest real (PostgreSQL's numeric keeps them: --dialect postgresql)\n"
      )
    }
    return lines
  }
  private let out: OutputSink
  /// `INSERT INTO "t" ("a", "b") VALUES `, and what ends the statement after the rows.
  private let insert: String
  private var insertEnd = ""
  /// What the script does before `COMMIT`.
  private var finishing = ""
  /// The rows of the next `INSERT`.
  private var pending: [String] = []

  /// A writer of the records of `table` in `dialect` to `out`; writes the `CREATE TABLE`.
  ///
  /// Run again where the table exists, the script adds no row: in PostgreSQL the failed
  /// `CREATE TABLE` aborts the transaction; sqlite3 goes on after an error, so there each
  /// `INSERT` is guarded by a note, made before the `CREATE`, of whether the table existed.
  public init(_ table: SQLTable, dialect: SQLDialect, to out: OutputSink) {
    self.table = table
    self.dialect = dialect
    self.out = out
    var begin = Self.preamble(dialect) + "BEGIN;\n"
    switch dialect {
    case .postgresql:
      insert = table.insertInto(dialect)
    case .sqlite:
      let guardTable = "temp." + dialect.quote("flt existed " + table.name)
      begin +=
        "CREATE TEMP TABLE \(guardTable) AS SELECT 1 FROM sqlite_master "
        + "WHERE type IN ('table', 'view') AND name = \(SQLValue.text(table.name).literal(dialect));\n"
      let columns = table.columns.map(dialect.quote).joined(separator: ", ")
      insert = "INSERT INTO \(dialect.quote(table.name)) (\(columns)) SELECT * FROM (VALUES "
      insertEnd = ") WHERE NOT EXISTS (SELECT 1 FROM \(guardTable))"
      finishing = "DROP TABLE \(guardTable);\n"
    }
    out.write(begin + table.createStatement(dialect) + ";\n")
  }

  /// Writes values alone: records need no text.
  public var readsRecordText: Bool { false }

  /// Hands what is written on (the `INSERT`s stay whole).
  public func endOfBlock() { out.flush() }

  /// Why the script can no longer be written, or nil.
  public var failure: String? { out.failure }

  /// Writes one record (an `INSERT` holds up to ``rowsPerInsert`` records).
  public func write(_ record: DataRecord) {
    count += 1
    let values = zip(table.schema.fields.indices, table.schema.fields).map { slot, field in
      literal(slot < record.values.count ? record.values[slot] : .null, field.type)
    }
    pending.append("(" + values.joined(separator: ", ") + ")")
    if pending.count == Self.rowsPerInsert { flush() }
  }

  /// Ends the transaction.
  public func finish() {
    flush()
    out.write(finishing + "COMMIT;\n")
  }

  /// What the script sets before it begins: the settings its literals rely on, whatever the
  /// server or `psql` was set to (the literals are written to be safe under either setting
  /// too).
  static func preamble(_ dialect: SQLDialect) -> String {
    switch dialect {
    case .postgresql: "SET standard_conforming_strings = on;\nSET client_encoding = 'UTF8';\n"
    case .sqlite: ""
    }
  }

  /// How many records one `INSERT` holds: many rows per statement load far faster than one.
  public static let rowsPerInsert = 500

  private func flush() {
    guard !pending.isEmpty else { return }
    out.write(insert + pending.joined(separator: ",\n  ") + insertEnd + ";\n")
    pending.removeAll(keepingCapacity: true)
  }

  private func literal(_ value: Value, _ type: ValueType) -> String {
    switch (value, type) {
    case (.null, _): return "NULL"
    case (_, .list), (_, .record), (_, .any):
      return SQLValue.text(JSONValue.encode(value, as: type)).literal(dialect)
    case (.decimal(let d), _) where dialect == .sqlite:
      // SQLite has no decimals: a whole one that fits 64 bits as an integer, exactly; any
      // other as a real, counted when the real's shortest digits are not the decimal's.
      if d.isWhole, let whole = d.truncated { return SQLValue.int(whole).literal(dialect) }
      let real = d.doubleValue
      if ExactDecimal(real) != d { roundedDecimals += 1 }
      return SQLValue.double(real).literal(dialect)
    default:
      guard let encoded = dialect.stored(value) else {
        unstorable += 1
        return "NULL"
      }
      return encoded.literal(dialect)
    }
  }
}
