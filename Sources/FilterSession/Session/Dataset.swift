import FilterDSL
import FilterData
import FilterDatabase

/// Data a session loaded: every record of one file, in memory (by column, see
/// `LoadedRecords`), with its inferred schema; or a table of a database, where the
/// session's statements run.
public final class Dataset {
  /// The name statements use for it (`load "phones.json" as phones`, or the file's name).
  public let name: String
  /// The path, as the session resolved it (or the database's URL).
  public let path: String
  /// The records, in file order (none for a database table: they stay there).
  public let records: LoadedRecords
  /// The reader that read them: its schema, and how to print its records (nil for a
  /// database table).
  public let reader: DataReader?
  /// The database table the data is in, when it was loaded from a database: queries, counts
  /// and facets run there, and flt finishes what SQL cannot answer exactly.
  public let database: DatabaseTable?

  /// The fields inferred (or the table's columns). Once records are loaded, those of their
  /// table, which knows every text field's values (see `LoadedRecords`).
  public var schema: Schema {
    if let database { return database.table.schema }
    if records.count > 0 { return records.table.schema }
    return reader?.schema ?? Schema([])
  }
  /// How compiled filters read the records: by row number, from the columns. (With no
  /// records, the reader's schema, which a query may have added fields to.)
  public var recordType: RecordType<Int> {
    records.count == 0 ? ColumnTable(schema: schema, rows: []).recordType : records.table.recordType
  }

  /// Every row number: what a query or count runs over.
  public let rows: [Int]

  /// Reads every record of the file at `path` (warnings, such as values that do not convert
  /// to a type `options` fixes, go to `warn`). Its schema grows while it is read (a decimal
  /// in a column of integers, a field first seen late), and the records read before it grew
  /// are then read again, so that every record fits the final schema. `stop` is asked after
  /// each block of records; once it says true the reading ends there (the caller, which asked
  /// to stop, drops the partial data).
  public init(
    name: String, path: String, format: DataFormat? = nil, options: ReadOptions = ReadOptions(),
    until stop: () -> Bool = { false }, warn: (String) -> Void = { _ in }
  ) throws(DataError) {
    let reader = try DataReader(path: path, format: format, options: options)
    records = try LoadedRecords(reading: reader, until: stop, warn: warn)
    self.name = name
    self.path = path
    self.reader = reader
    database = nil
    rows = records.table.rows
  }

  /// The fields of the file at `path`, inferred from all of it, without its records: what
  /// checking a script needs (``Session/checkOnly``).
  public init(
    name: String, schemaOf path: String, format: DataFormat? = nil,
    options: ReadOptions = ReadOptions()
  ) throws(DataError) {
    let reader = try DataReader(path: path, format: format, options: options)
    try reader.inferWhole()
    self.name = name
    self.path = path
    self.records = LoadedRecords(schema: reader.schema)
    self.reader = reader
    database = nil
    rows = []
  }

  /// The table `table` of the database at `location` (a SQLite file or a `postgresql://`
  /// URL): its columns are read, its rows stay there.
  public init(name: String, table: String, in location: String) throws(DatabaseError) {
    let database = try DatabaseTable(table, in: location)
    self.name = name
    self.path = location
    self.database = database
    reader = nil
    records = LoadedRecords(schema: database.table.schema)
    rows = []
  }

  /// The distinct values of the field at `path` (the elements, for a list): texts most
  /// frequent first, then numbers and true/false in order: what Tab offers after
  /// `color == ` or `diskSpace == `. Counted once per field, then kept.
  public func values(of path: String) -> [Value] {
    if let known = valueCache[path] { return known }
    var texts: [Value] = []
    var others: [Value] = []
    if let database {
      texts = ((try? database.frequentTexts(of: path)) ?? []).map(Value.string)
    } else if let counter = try? FacetCounter(
      [FieldPath(path)], filter: nil, source: SourceText(""), for: recordType)
    {
      for count in counter.count(rows).facets.first?.counts ?? [] {
        switch count.value {
        case .string: texts.append(count.value)
        case .int, .double, .bool: others.append(count.value)
        default: break
        }
      }
    }
    // (A field's values have one type: numbers, or true and false.)
    func order(_ value: Value) -> Double {
      switch value {
      case .int(let n): Double(n)
      case .double(let d): d
      case .bool(let b): b ? 1 : 0
      default: 0
      }
    }
    let values = texts + others.sorted { order($0) < order($1) }
    valueCache[path] = values
    return values
  }

  private var valueCache: [String: [Value]] = [:]

  /// The name a file gets when `load` gives none: its file name without the extension.
  public static func defaultName(for path: String) -> String {
    let file = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
    return String(file[..<dot])
  }
}
