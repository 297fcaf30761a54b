import FilterDSL
import FilterData
import FilterSQL

/// A connection to a database that runs statements with bound parameters and hands back rows:
/// ``SQLiteDatabase`` (and, next, PostgreSQL).
public protocol SQLConnection: AnyObject, Sendable {
  /// The dialect the database speaks.
  var dialect: SQLDialect { get }
  /// Runs `statement`, handing each row to `body` (cells in column order) until it returns
  /// false or the rows end.
  func forEachRow(_ statement: SQLStatement, _ body: ([SQLValue]) -> Bool) throws(DatabaseError)
  /// Stops the statement running now; callable from any thread.
  func interrupt()
  /// The tables (and views) queries can name.
  func tableNames() throws(DatabaseError) -> [String]
  /// The table `name` as flt sees it: a field per column, typed by the column's type. JSON
  /// columns are typed by their values, those of `typingJSON` only when it is given (the
  /// others are then text: reading values costs time a query that does not look at them
  /// need not spend).
  func table(named name: String, typingJSON: Set<String>?) throws(DatabaseError) -> SQLTable
}

extension SQLConnection {
  /// Runs `statement` and returns its rows.
  public func rows(_ statement: SQLStatement) throws(DatabaseError) -> [[SQLValue]] {
    var rows: [[SQLValue]] = []
    try forEachRow(statement) { row in
      rows.append(row)
      return true
    }
    return rows
  }

  /// The texts of the first column of `statement`'s rows (nulls left out).
  func texts(_ statement: SQLStatement) throws(DatabaseError) -> [String] {
    var texts: [String] = []
    try forEachRow(statement) { row in
      if case .text(let text) = row.first { texts.append(text) }
      return true
    }
    return texts
  }

  /// The integer `statement` gives: `SELECT count(*) ...`.
  func count(_ statement: SQLStatement) throws(DatabaseError) -> Int {
    var count: Int?
    try forEachRow(statement) { row in
      if let cell = row.first, case .int(let n) = dialect.decode(cell, as: .int) {
        count = Int(n)
      }
      return false
    }
    guard let count else { throw DatabaseError("the database gave no count") }
    return count
  }

  /// The table `name`, every JSON column typed by its values.
  public func table(named name: String) throws(DatabaseError) -> SQLTable {
    try table(named: name, typingJSON: nil)
  }
}

/// Connects to the database `location` names: a `postgresql://` URL, or a SQLite file
/// (opened read-only).
public func connect(to location: String) throws(DatabaseError) -> any SQLConnection {
  if PostgresURL.isURL(location) { return try PostgresConnection(url: location) }
  return try SQLiteDatabase(path: location)
}

extension SQLiteDatabase: SQLConnection {
  /// SQLite's dialect.
  public var dialect: SQLDialect { .sqlite }
}

/// How many values of a JSON column its type is inferred from: as many as a data file's first
/// records. (Reading every value of a big table would cost more than most queries.) A later
/// value of another shape is an error naming its row, never a wrong answer.
let jsonSample = 10_000

/// The type of a JSON column from its values: the lists or records they all are, or mixed
/// values (lists or records among others), as a data file's field would be typed; text when
/// they are scalars or not JSON.
func jsonColumnType(_ texts: [String]) -> ValueType {
  switch JSONValue.inferType(texts) {
  case .some(.list(let element)): .list(element)
  case .some(.record(let schema)): .record(schema)
  case .some(.any): .any
  default: .string
  }
}

/// A table of a database, and the connection to it: where a session's data set lives when it
/// was loaded from a database.
public struct DatabaseTable: Sendable {
  /// The connection queries run on.
  public let connection: any SQLConnection
  /// The table, with its schema.
  public let table: SQLTable
  /// Where the database is, as the user named it (a file or a URL).
  public let location: String

  /// Connects to `location` and reads the table `name`'s columns, typing its JSON columns by
  /// their values (only those named in `typingJSON`, when given).
  public init(_ name: String, in location: String, typingJSON: Set<String>? = nil)
    throws(DatabaseError)
  {
    connection = try connect(to: location)
    table = try connection.table(named: name, typingJSON: typingJSON)
    self.location = location
  }

  /// The extensions of SQLite files, without the dot.
  public static let fileExtensions = ["db", "sqlite", "sqlite3"]

  /// Whether `location` names a database rather than a data file: a SQLite file (`.db`,
  /// `.sqlite`, `.sqlite3`) or a `postgresql://` URL.
  public static func isDatabase(_ location: String) -> Bool {
    let lower = location.lowercased()
    return fileExtensions.contains { lower.hasSuffix("." + $0) }
      || PostgresURL.isURL(location)
  }

  /// The most frequent values of a top-level text column (at most `limit`), most frequent
  /// first: what completion offers.
  public func frequentTexts(of column: String, limit: Int = 200) throws(DatabaseError)
    -> [String]
  {
    guard let (slot, field) = table.schema.field(named: column), field.type == .string else {
      return []
    }
    let dialect = connection.dialect
    let quoted = table.reading(slot, dialect)
    return try connection.texts(
      SQLStatement(
        "SELECT \(quoted) FROM \(dialect.quote(table.name)) WHERE \(quoted) IS NOT NULL GROUP BY \(quoted) ORDER BY count(*) DESC, \(quoted) LIMIT \(max(0, limit))"
      ))
  }
}
