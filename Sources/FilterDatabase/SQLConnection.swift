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
}

extension SQLiteDatabase: SQLConnection {
  /// SQLite's dialect.
  public var dialect: SQLDialect { .sqlite }
}
