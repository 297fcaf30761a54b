import FilterDSL

/// A query run over data files, from their bytes to a ``RecordSink``: the one way a query runs
/// over files, for `flt` and for embedders.
///
/// ```swift
/// let cheap = try Scan(file: "phones.json", query: "price < 500 order by price").records()
/// ```
///
/// A scan does, once, what a caller would otherwise wire by hand: only the fields the query
/// reads are decoded, and records are read by column (only matches become records); when the
/// schema grows (a field widens, or first appears later in the file) the query is compiled
/// again, matches kept for a sort are read again, and a warning says so if records before were
/// filtered with the field's old type; reading stops once a `limit` is reached; a sort with a
/// limit keeps only the records that may come first; the next block is read on one thread
/// while the one before is filtered and written on another; faults are counted. Several files
/// are one input (or each its own, ``Options/perFile``).
public final class Scan {
  /// How a scan reads and where it stops.
  public struct Options: Sendable {
    /// The files' format; nil: from each file's name, or from its first byte.
    public var format: DataFormat?
    /// Null texts, fixed types and how CSV and JSON are laid out.
    public var reading: ReadOptions
    /// Whether each file is queried on its own: its own `offset`, `limit` and sort, and a call
    /// of ``RecordSink/endOfSource(_:)`` after its records (`grep -c` with several files).
    /// Else the files are one input, and a sort spans them.
    public var perFile: Bool
    /// Whether the scan stops at the first match (`grep -q`).
    public var stopsAtFirstMatch: Bool
    /// Whether every field of every record is read, under the types of the whole first file,
    /// and every file must have the same fields (a SQL script's table). Else only the fields
    /// the query reads are decoded.
    public var readsWholeRecords: Bool
    /// Whether warnings carry ANSI colours (for a terminal).
    public var colored: Bool

    /// Options of these values; the defaults read each file as it is, as one input.
    public init(
      format: DataFormat? = nil, reading: ReadOptions = ReadOptions(), perFile: Bool = false,
      stopsAtFirstMatch: Bool = false, readsWholeRecords: Bool = false, colored: Bool = false
    ) {
      (self.format, self.reading, self.perFile) = (format, reading, perFile)
      (self.stopsAtFirstMatch, self.readsWholeRecords) = (stopsAtFirstMatch, readsWholeRecords)
      self.colored = colored
    }
  }

  /// The query, as written.
  public let source: SourceText
  /// The files, in order (nil: standard input).
  public let files: [String?]
  /// How the scan reads (``Options/perFile`` and ``Options/stopsAtFirstMatch`` may be set
  /// until it runs).
  public var options: Options
  /// The first file, open: its schema is what the query was checked against.
  public let first: DataReader
  /// The query compiled for the first file (its `plan` is what `explain`
  /// shows).
  public private(set) var compiled: CompiledQuery<DataRecord>
  /// Called with each progress point while reading (for a progress line).
  public var onProgress: ((DataReader) -> Void)?

  private let compiler: ScanCompiler
  private var warn: (String) -> Void { compiler.warn }

  /// Opens the first of `files` (nil: standard input), and checks and compiles `source` for
  /// its records, with parameters of these types and values. Warnings (the checker's, the
  /// data's) go to `warn` as the text `flt` prints.
  ///
  /// Throws a `FilterError` for a query that does not check, a ``DataError`` for data that
  /// cannot be read, and a ``ScanError`` for a fixed type of a field the file lacks.
  public init(
    query source: SourceText, files: [String?] = [nil], options: Options = Options(),
    parameterTypes: [String: ValueType] = [:], parameters: [String: Value] = [:],
    now: Instant? = nil, warn: @escaping (String) -> Void = { _ in }
  ) throws {
    (self.source, self.files, self.options) = (source, files, options)
    let compiler = ScanCompiler(
      source: source, parameterTypes: parameterTypes, parameters: parameters,
      now: now ?? SystemClock.now(), colored: options.colored, warn: warn)
    self.compiler = compiler
    let first = try DataReader(
      path: files.first ?? nil, format: options.format, options: options.reading)
    self.first = first
    // A fixed type for a field the whole file lacks is a misspelling (it was ignored).
    if first.sawEverything {
      for name in options.reading.types.keys.sorted() where first.schema.field(named: name) == nil {
        let suggestion = Suggestion.closest(to: name, among: first.schema.names)
        throw ScanError(
          message: "--type \(name): \(first.name) has no field \(name)",
          help: suggestion.map { "did you mean --type \($0)=...?" })
      }
    }
    if options.readsWholeRecords { try first.inferWhole() }
    compiled = try compiler.compile(for: first, showingWarnings: true)
  }

  /// A scan of the file at `path` (JSON, JSON Lines, CSV or TSV, gzip or not) for `query`.
  public convenience init(file path: String, query: String, options: Options = Options()) throws {
    try self.init(query: SourceText(query), files: [path], options: options)
  }

  /// The records that match, in order.
  public func records() throws -> [DataRecord] {
    let collector = RecordCollector()
    try run(into: collector)
    return collector.records
  }

  /// Runs the query over every file, handing the matches to `sink`, and ends it
  /// (``RecordSink/finish()``). Stops early once the query is complete (its `limit` reached),
  /// at the first match with ``Options/stopsAtFirstMatch``, or when the sink fails.
  @discardableResult
  public func run(into sink: any RecordSink) throws -> ScanSummary {
    let perFile = options.perFile
    var execution = QueryExecution(compiled, retaining: \.detached)
    var summary = ScanSummary()
    // The final fields of the files read so far, which every file must share when sorting.
    var sortedFields: [Schema.Field]? = nil
    for (index, path) in files.enumerated()
    where (perFile ? !(options.stopsAtFirstMatch && summary.matches > 0) : !isDone(execution))
      && sink.failure == nil
    {
      let reader =
        index == 0
        ? first : try DataReader(path: path, format: options.format, options: options.reading)
      if (compiled.sorts && !perFile || options.readsWholeRecords)
        && reader.schema.names != first.schema.names
      {
        throw ScanError(
          message:
            "\(reader.name) has other fields than \(first.name) (\(reader.schema.names.joined(separator: ", "))); \(options.readsWholeRecords ? "write" : "sort") files with different fields one at a time"
        )
      }
      if index > 0 && perFile {
        execution = QueryExecution(
          try compiler.compile(for: reader, showingWarnings: false), retaining: \.detached)
      } else if index > 0 {
        execution.replace(with: try compiler.compile(for: reader, showingWarnings: false))
      }
      try read(reader, into: sink, &execution)
      if compiled.sorts && !perFile {
        let fields = reader.schema.fields.map { Schema.Field($0.name, $0.type) }
        if let sortedFields, sortedFields != fields {
          throw ScanError(
            message:
              "\(reader.name) has other fields or types than the files before it; sort files with different fields one at a time"
          )
        }
        sortedFields = fields
      }
      if perFile {
        for record in execution.finish() { sink.write(record) }
        sink.endOfSource(reader.name)
        summary.faults.merge(execution.faults)
        summary.matches += execution.emitted
      }
    }
    if !perFile {
      for record in execution.finish() { sink.write(record) }
      summary.faults.merge(execution.faults)
      summary.matches = execution.emitted
    }
    sink.finish()
    return summary
  }

  /// Whether `execution` needs no more records: its query is complete, or it has a match and
  /// one is enough.
  private func isDone(_ execution: QueryExecution<DataRecord>) -> Bool {
    execution.isComplete
      || (options.stopsAtFirstMatch && execution.emitted + execution.keptCount > 0)
  }

  /// Reads `reader` to its end (or until `execution` is done), handing the matches of each
  /// block to `sink`.
  private func read(
    _ reader: DataReader, into sink: any RecordSink, _ execution: inout QueryExecution<DataRecord>
  ) throws {
    // A SQL script writes every field's value; other output copies each record's text.
    if !options.readsWholeRecords { reader.decodeOnly(Set(execution.query.query.fieldNames)) }
    var version = reader.schemaVersion
    var read = 0
    let keptBefore = execution.keptCount
    // This thread parses the next block while another filters and writes the one before;
    // `execution` and the sink are that thread's until the pipeline is drained. A block's
    // warnings go with it, so that a block read ahead but never used (the query was complete
    // before it) says nothing, as if it had not been read.
    var running = execution
    defer { execution = running }
    let pipeline = Pipeline<(DataBlock, [DataError])> { [self] block, warnings in
      report(warnings)
      for record in running.consume(block) { sink.write(record) }
      sink.endOfBlock()
      // Output that cannot be written (a closed pipe, a full disk): reading on would be work
      // for nothing. The sink's caller reports it.
      return !isDone(running) && sink.failure == nil
    }
    defer { pipeline.finish() }
    while !pipeline.stopped {
      let next: DataBlock?
      do {
        // Read by column: only the matches become records. (Whole records are read as the
        // records' readers read them.)
        next = try reader.nextBlock(byColumn: !options.readsWholeRecords)
      } catch {
        // An error in what the query never needed (read ahead) is no error.
        pipeline.drain()
        if pipeline.stopped { break }
        throw error
      }
      guard let block = next else { break }
      onProgress?(reader)
      if reader.schemaVersion != version {
        version = reader.schemaVersion
        // Matches kept for sorting are read again, to sort under the grown schema.
        pipeline.drain()
        running.replace(
          with: try compiler.recompile(running.query, for: reader, after: read),
          updatingKeptFrom: keptBefore, reader.redecoded)
      }
      read += block.count
      pipeline.send((block, reader.takeWarnings()))
    }
    pipeline.finish()
    // (What was read after the query was complete says nothing.)
    let left = reader.takeWarnings()
    if !pipeline.stopped { report(left) }
    for line in reader.conversionSummary { warn(line) }
  }

  private func report(_ warnings: [DataError]) {
    for warning in warnings { warn(warning.rendered(colored: options.colored)) }
  }
}

/// How a scan compiles its query for each file it reads, and again when a file's schema grows.
private struct ScanCompiler {
  let source: SourceText
  let parameterTypes: [String: ValueType]
  let parameters: [String: Value]
  let now: Instant
  let colored: Bool
  let warn: (String) -> Void

  /// The query compiled for the records of `reader`, with the checker's warnings when
  /// `showingWarnings`. A field the reader's first records lack may come later: then the
  /// reader infers its schema from the whole input, and the query is compiled again.
  func compile(for reader: DataReader, showingWarnings: Bool) throws
    -> CompiledQuery<DataRecord>
  {
    do {
      return try compileOnce(for: reader, showingWarnings: showingWarnings)
    } catch let error as FilterError
      where !reader.sawEverything && error.diagnostics.contains(where: { $0.code == .unknownField })
    {
      try reader.inferWhole()
      return try compileOnce(for: reader, showingWarnings: showingWarnings)
    }
  }

  /// The query compiled again after `reader`'s schema grew, `read` records into the input. A
  /// field the query reads that changed type is reported when records were read before the
  /// change: they were filtered with the field's old type.
  func recompile(
    _ query: CompiledQuery<DataRecord>, for reader: DataReader, after read: Int
  ) throws -> CompiledQuery<DataRecord> {
    let used = Set(query.query.fieldNames)
    for change in reader.takeSchemaChanges() where read > 0 && used.contains(change.path[0]) {
      var place = change.place
      if let before = change.before {
        place.diagnostic.help =
          "the \(read) record\(read == 1 ? "" : "s") before \(read == 1 ? "was" : "were") filtered with '\(change.field)' as \(before.plural)"
      }
      warn(place.description)
    }
    return try compileOnce(for: reader, showingWarnings: false)
  }

  func compileOnce(for reader: DataReader, showingWarnings: Bool) throws
    -> CompiledQuery<DataRecord>
  {
    var showingWarnings = showingWarnings
    if reader.isEmpty {
      // No records: every field the query names has no value, and nothing matches. Syntax
      // errors still count; warnings about fields with no values would be noise.
      reader.assumeFields(Parser.parseQuery(source).value?.fieldNames ?? [])
      showingWarnings = false
    }
    let compiled = try FilterEnvironment(reader.recordType, parameters: parameterTypes)
      .compileQuery(source)
    if showingWarnings, let warnings = compiled.filter?.warnings, !warnings.isEmpty {
      var renderer = DiagnosticRenderer(source: source)
      renderer.colored = colored
      warn(renderer.render(warnings))
    }
    return compiled.binding(parameters, now: now)
  }
}

/// What a scan found: how many records matched (after `offset`, up to `limit`), and the
/// faults met while evaluating.
public struct ScanSummary: Sendable {
  /// How many records were handed to the sink.
  public var matches = 0
  /// Faults met while evaluating (a division by zero, a value that did not convert).
  public var faults = FaultCounts()
}
