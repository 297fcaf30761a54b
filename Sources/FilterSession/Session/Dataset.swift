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
  /// Where its records are, and how statements run over them.
  let store: any DatasetStore

  /// The fields inferred (or the table's columns).
  public var schema: Schema { store.schema }
  /// The records, when they are in memory (nil for a database table: they stay there).
  public var records: LoadedRecords? { store.loaded }
  /// For data read from a file, the reader that read it: what it inferred (nil for a
  /// database table).
  public var reader: DataReader? { (store as? LoadedStore)?.source as? DataReader }
  /// What `load` says it loaded, after the name: `12 records, 5 fields`, or the table.
  public var summary: String { store.summary }
  /// What `:datasets` says it holds: `12 records, 5 fields`, or the table.
  public var size: String { store.size }

  /// Reads every record of the file at `path` (warnings, such as values that do not convert
  /// to a type `options` fixes, go to `warn`). Its schema grows while it is read (a decimal
  /// in a column of integers, a field first seen late), and the records read before it grew
  /// are then read again, so that every record fits the final schema. `stop` is asked after
  /// each block of records; once it says true the reading ends there (the caller, which asked
  /// to stop, drops the partial data). A source that decodes large parts at once (a Parquet
  /// row group) refuses one that would take the process past `memoryLimit` bytes.
  public init(
    name: String, path: String, format: DataFormat? = nil, options: ReadOptions = ReadOptions(),
    memoryLimit: Int? = nil, until stop: () -> Bool = { false }, warn: (String) -> Void = { _ in }
  ) throws(DataError) {
    let source = try FileSource.open(path, format: format, options: options)
    source.limitMemory(to: memoryLimit)
    let records: LoadedRecords
    do {
      records = try LoadedRecords(loading: source, until: stop, warn: warn)
    } catch let error as DataError {
      throw error
    } catch {
      throw DataError.file(source.name, "\(error)")
    }
    (self.name, self.path) = (name, path)
    store = LoadedStore(records, from: source)
  }

  /// Reads every record of `source` into memory (a table, a source of your own; see
  /// `RecordSource`), as a file's are loaded: statements then run over them with the one
  /// engine, facets and live previews included. `path` is what `:datasets` shows for it;
  /// `stop` and `warn` as for a file.
  ///
  /// ```swift
  /// session.add(try Dataset(name: "inventory", loading: Inventory()))
  /// ```
  public init(
    name: String, loading source: any RecordSource, path: String? = nil,
    until stop: () -> Bool = { false }, warn: (String) -> Void = { _ in }
  ) throws {
    let records = try LoadedRecords(loading: source, until: stop, warn: warn)
    (self.name, self.path) = (name, path ?? source.name)
    store = LoadedStore(records, from: source)
  }

  /// The fields of the file at `path`, inferred from all of it, without its records: what
  /// checking a script needs (``Session/checkOnly``).
  public init(
    name: String, schemaOf path: String, format: DataFormat? = nil,
    options: ReadOptions = ReadOptions()
  ) throws(DataError) {
    let source = try FileSource.open(path, format: format, options: options)
    do {
      try source.inferWhole()
    } catch let error as DataError {
      throw error
    } catch {
      throw DataError.file(source.name, "\(error)")
    }
    (self.name, self.path) = (name, path)
    store = LoadedStore(LoadedRecords(schema: source.schema), from: source)
  }

  /// The table `table` of the database at `location` (a SQLite file or a `postgresql://`
  /// URL): its columns are read, its rows stay there.
  public init(name: String, table: String, in location: String) throws(DatabaseError) {
    (self.name, self.path) = (name, location)
    store = TableStore(try DatabaseTable(table, in: location))
  }

  /// The distinct values of the field at `path` (the elements, for a list): texts most
  /// frequent first, then numbers and true/false in order: what Tab offers after
  /// `color == ` or `diskSpace == `.
  public func values(of path: String) -> [Value] { store.values(of: path) }

  /// The name a file gets when `load` gives none: its file name without the extension.
  public static func defaultName(for path: String) -> String {
    let file = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
    return String(file[..<dot])
  }
}
