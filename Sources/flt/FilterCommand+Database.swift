import Dispatch
import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL
import FilterSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A query over a database table (`flt [options] --table NAME QUERY DATABASE`): the table is
/// the scan's source; the database answers what SQL answers exactly, flt finishes the rest.
extension FilterCommand {
  /// Whether `path` names a database rather than a data file.
  static func isDatabase(_ path: String) -> Bool {
    let lower = path.lowercased()
    return [".db", ".sqlite", ".sqlite3"].contains { lower.hasSuffix($0) }
      || PostgresURL.isURL(path)
  }

  /// From now until the returned source is cancelled, SIGINT cancels the statement running
  /// on `database` (which then fails) instead of ending the process at once.
  static func cancelOnInterrupt(_ database: any SQLConnection) -> any DispatchSourceSignal {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler {
      Command.writeError("interrupted\n")
      database.interrupt()
    }
    source.resume()
    return source
  }

  /// The database at `path` (a SQLite file or a `postgresql://` URL) and its table `name`,
  /// its JSON columns typed by their values (only those in `typingJSON` when given).
  static func open(_ path: String, table name: String?, typingJSON: Set<String>? = nil) throws
    -> (any SQLConnection, SQLTable)
  {
    let database = try connect(to: path)
    guard let name else {
      let tables = (try? database.tableNames()) ?? []
      throw DatabaseError(
        "\(path) is a database: say which table to query with --table NAME",
        help: tables.isEmpty
          ? "the database has no tables" : "its tables: " + tables.joined(separator: ", "))
    }
    return (database, try database.table(named: name, typingJSON: typingJSON))
  }

  /// The database at `path` and the table `--table` names, its JSON columns typed by their
  /// values (only those of `typingJSON`, when given). How to read a file's values (`--type`,
  /// `--null`) does not apply to a table: that is said rather than ignored.
  func tableSource(_ path: String, typingJSON: Set<String>?) throws
    -> (any SQLConnection, SQLTable)
  {
    if let (name, type) = options.read.types.min(by: { $0.key < $1.key }) {
      let function =
        switch type {
        case .int: "int"
        case .double: "double"
        case .bool: "bool"
        case .date: "date"
        case .dateTime: "datetime"
        default: "text"
        }
      throw ScanError(
        message:
          "--type \(name) reads a file's values; a table's columns have the types the database gives them",
        help: "convert in the filter instead: \(function)(\(name))")
    }
    if let text = options.read.nullTexts.first {
      throw ScanError(
        message: "--null \(text) reads a file's values; a table's nulls are the database's",
        help: "test for the text in the filter instead: x == \"\(text)\"")
    }
    return try Self.open(path, table: options.table, typingJSON: typingJSON)
  }
}
