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

/// `flt [options] --table NAME QUERY DATABASE`: the records of a database table that match a
/// query. The database answers what SQL answers exactly; flt finishes the rest.
struct DatabaseCommand {
  let options: Options
  let query: String
  let path: String

  /// Whether `path` names a database rather than a data file.
  static func isDatabase(_ path: String) -> Bool {
    let lower = path.lowercased()
    return [".db", ".sqlite", ".sqlite3"].contains { lower.hasSuffix($0) }
      || PostgresURL.isURL(path)
  }

  /// Runs the command; returns the exit status.
  func run() -> Int32 {
    do {
      return try execute()
    } catch {
      return Command.fail(error, colored: Terminal.wantsColor(2, options.color))
    }
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

  private func execute() throws -> Int32 {
    // How to read a file's values does not apply to a table: say so rather than ignore it.
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
    // A count prints no record: only the JSON columns the query reads need their types.
    let reads = options.count ? Parser.parseQuery(query).value.map { Set($0.fieldNames) } : nil
    let (database, table) = try Self.open(path, table: options.table, typingJSON: reads)
    // Ctrl-C cancels the statement in the database, rather than leaving it running there.
    let interrupt = Self.cancelOnInterrupt(database)
    defer { interrupt.cancel() }
    let (types, values) = try ParameterValue.typed(options.parameters)
    let source = SourceText(self.query, name: options.filterName)
    let bound = try Checker.check(
      try Parser.parseQuery(source).get(), schema: table.schema, parameters: types
    ).get(source)
    let query = DatabaseQuery(bound, on: table, in: database, parameters: types)
    if options.check { return Command.Status.success }
    if options.explain {
      StandardStreams.print(query.translation(values, now: SystemClock.now()).explanation)
      return Command.Status.success
    }
    for name in options.select ?? [] where table.schema.field(named: name) == nil {
      throw ScanError(
        message:
          "--select: table \(table.name) has no column '\(name)'; its columns are \(table.schema.names.joined(separator: ", "))"
      )
    }
    let format = options.format ?? (options.output == nil && isatty(1) == 1 ? .table : .jsonl)
    let target =
      try options.output.map { try AtomicFile(path: $0, mode: 0o666, removedOnSignal: true) }
      ?? AtomicFile(descriptor: 1)
    defer { target.discard() }
    let now = SystemClock.now()
    var emitted = 0
    var faults = FaultCounts()
    if options.count || options.quiet {
      emitted = try query.count(values, now: now)
      if !options.quiet { target.stream.write("\(emitted)\n") }
    } else {
      let writer = RecordWriter(
        format, columns: RecordWriter.columns(of: table.schema, for: format),
        select: options.select, to: target.stream)
      writer.styled = options.output == nil && Terminal.wantsColor(1, options.color)
      writer.maxRows = Terminal.screenfulOfRows(format, output: options.output)
      if writer.maxRows != nil { writer.maxTableWidth = Descriptor.terminalSize(1)?.columns }
      faults = try query.run(values, now: now) { record in
        writer.write(DataRecord(record, schema: table.schema))
        emitted += 1
        writer.endOfBlock()
        return writer.failure == nil
      }.faults
      writer.finish()
      Terminal.sayWhatIsNotShown(writer, options)
    }
    try target.commit()
    if !faults.isEmpty && !options.quiet { Command.writeError("warning: \(faults.summary)\n") }
    return options.exitStatus && emitted == 0 ? Command.Status.noMatch : Command.Status.success
  }
}
