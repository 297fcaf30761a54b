import FilterDSL
import FilterData

extension TableSource {
  /// The table `name` of the database at `location` (a SQLite file or a `postgresql://` URL),
  /// its JSON columns typed by their values (only those in `typingJSON`, when given).
  ///
  /// A database's table has the types and nulls the database gives it: `reading` asking for
  /// other types or null texts (`--type`, `--null`) is an error that says what to write in
  /// the query instead, rather than an option ignored. With no `name`, the error lists the
  /// database's tables.
  public static func open(
    _ location: String, table name: String?, reading: ReadOptions = ReadOptions(),
    typingJSON: Set<String>? = nil
  ) throws -> TableSource {
    if let (field, type) = reading.types.min(by: { $0.key < $1.key }) {
      let function =
        switch type {
        case .int: "int"
        case .double: "double"
        case .bool: "bool"
        case .date: "date"
        case .dateTime: "datetime"
        case .time: "time"
        default: "text"
        }
      throw ScanError(
        message:
          "--type \(field) reads a file's values; a table's columns have the types the database gives them",
        help: "convert in the filter instead: \(function)(\(field))")
    }
    if let text = reading.nullTexts.first {
      throw ScanError(
        message: "--null \(text) reads a file's values; a table's nulls are the database's",
        help: "test for the text in the filter instead: x == \"\(text)\"")
    }
    guard let name else {
      let tables = (try? connect(to: location).tableNames()) ?? []
      throw DatabaseError(
        "\(location) is a database: say which table to query with --table NAME",
        help: tables.isEmpty
          ? "the database has no tables" : "its tables: " + tables.joined(separator: ", "))
    }
    let database = try DatabaseTable(name, in: location, typingJSON: typingJSON)
    return TableSource(database.table, in: database.connection)
  }

  /// Every table of the database at `location` (or only `name`, when given), in the order the
  /// database lists them: what `--schema` shows.
  public static func tables(in location: String, named name: String? = nil) throws
    -> [TableSource]
  {
    let connection = try connect(to: location)
    return try (name.map { [$0] } ?? connection.tableNames()).map { table throws in
      TableSource(try connection.table(named: table), in: connection)
    }
  }
}
