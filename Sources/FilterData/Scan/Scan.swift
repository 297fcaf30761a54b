import FilterDSL

/// A query run over sources (data files, database tables, sources of your own; see
/// ``RecordSource``), from their records to a ``RecordSink``: the one way a query runs over
/// them, for `flt`, its sessions and embedders.
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
/// are one input (or each its own, ``Options/perFile``). A source that answers part of the
/// query itself (a database's SQL) takes it over, and the scan runs the rest.
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
    /// Top-level fields the sink reads the values of, besides those the query reads (the
    /// fields of computed columns, ``Projection/fieldNames``, or of stats): they are decoded
    /// too, and every file must have the same fields, as the columns were compiled for the
    /// first. Given before the scan opens its first source, a field its first records lack
    /// makes it read the whole source for its schema, as a field the query names does.
    public var outputFields: Set<String> = []
    /// The parser's limits on the query's text (`.untrusted` for a query from untrusted
    /// users, with ``evaluationLimits``).
    public var parserLimits: ParserLimits
    /// The limits on the work of evaluating the query.
    public var evaluationLimits: EvaluationLimits
    /// The functions the query may call.
    public var functions: FunctionRegistry
    /// The most memory the process may hold (its resident bytes), looked at after each block
    /// read: past it the scan stops with a ``ScanError`` (records kept for a sort, groups of
    /// stats and facets, a row group's columns). Nil: no limit.
    public var memoryLimit: Int?

    /// Options of these values; the defaults read each file as it is, as one input.
    public init(
      format: DataFormat? = nil, reading: ReadOptions = ReadOptions(), perFile: Bool = false,
      stopsAtFirstMatch: Bool = false, readsWholeRecords: Bool = false, colored: Bool = false,
      parserLimits: ParserLimits = .default, evaluationLimits: EvaluationLimits = .default,
      functions: FunctionRegistry = .builtins
    ) {
      (self.format, self.reading, self.perFile) = (format, reading, perFile)
      (self.stopsAtFirstMatch, self.readsWholeRecords) = (stopsAtFirstMatch, readsWholeRecords)
      (self.colored, self.parserLimits, self.evaluationLimits) =
        (colored, parserLimits, evaluationLimits)
      self.functions = functions
    }
  }

  /// The query, as written.
  public let source: SourceText
  /// How the scan reads (``Options/perFile`` and ``Options/stopsAtFirstMatch`` may be set
  /// until it runs).
  public var options: Options
  /// The first source, open: its schema is what the query was checked against.
  public let first: any RecordSource
  /// The query as checked against the first source's schema.
  public let query: BoundQuery
  /// The query compiled for the first source: what the scan runs on the records it hands
  /// over (what it did not take over itself).
  public private(set) var compiled: CompiledQuery<DataRecord>
  /// Called with each source while it is read (for a progress line).
  public var onProgress: ((any RecordSource) -> Void)?

  /// The sources after the first, opened in turn.
  private let rest: [() throws -> any RecordSource]
  private let compiler: ScanCompiler
  private var warn: (String) -> Void { compiler.warn }

  /// Opens the first of `sources` and checks `source` against its schema, with parameters of
  /// these types and values; the others are opened when their turn comes. Warnings (the
  /// checker's, the data's) go to `warn` as the text `flt` prints.
  ///
  /// Throws a `FilterError` for a query that does not check, a ``DataError`` for data that
  /// cannot be read, and a ``ScanError`` for a fixed type of a field a file lacks.
  public convenience init(
    query source: SourceText, sources: [() throws -> any RecordSource],
    options: Options = Options(), parameterTypes: [String: ValueType] = [:],
    parameters: [String: Value] = [:], now: Instant? = nil,
    warn: @escaping (String) -> Void = { _ in }
  ) throws {
    try self.init(
      query: Parser.parseQuery(source, limits: options.parserLimits).get(), source: source,
      sources: sources, options: options, parameterTypes: parameterTypes,
      parameters: parameters, now: now, warn: warn)
  }

  /// A scan of `query`, parsed already (a session's, with its named filters expanded):
  /// `source` is the text its ranges point into, for messages.
  public init(
    query written: Query, source: SourceText, sources: [() throws -> any RecordSource],
    options: Options = Options(), parameterTypes: [String: ValueType] = [:],
    parameters: [String: Value] = [:], now: Instant? = nil,
    warn: @escaping (String) -> Void = { _ in }
  ) throws {
    (self.source, self.options, rest) = (source, options, Array(sources.dropFirst()))
    let compiler = ScanCompiler(
      source: source, written: written, options: options, parameterTypes: parameterTypes,
      parameters: parameters, now: now ?? SystemClock.now(), warn: warn)
    self.compiler = compiler
    guard let open = sources.first else {
      throw ScanError(message: "nothing to scan: give a file or a table")
    }
    let first = try open()
    self.first = first
    // A fixed type for a field the whole file lacks is a misspelling (it was ignored).
    if first.isSchemaFinal {
      for name in options.reading.types.keys.sorted() where first.schema.field(named: name) == nil {
        let suggestion = Suggestion.closest(to: name, among: first.schema.names)
        throw ScanError(
          message: "--type \(name): \(first.name) has no field \(name)",
          help: suggestion.map { "did you mean --type \($0)=...?" })
      }
    }
    // A field the sink reads that the first records lack may come later, as for the query's.
    if options.readsWholeRecords
      || !first.isSchemaFinal
        && options.outputFields.contains(where: { first.schema.field(named: $0) == nil })
    {
      try first.inferWhole()
    }
    (query, compiled) = try compiler.compile(for: first, showingWarnings: true)
  }

  /// A scan of `files` (nil: standard input) as one input: JSON, JSON Lines, CSV or TSV,
  /// gzip or not, read with ``Options/format`` and ``Options/reading``.
  public convenience init(
    query source: SourceText, files: [String?] = [nil], options: Options = Options(),
    parameterTypes: [String: ValueType] = [:], parameters: [String: Value] = [:],
    now: Instant? = nil, warn: @escaping (String) -> Void = { _ in }
  ) throws {
    try self.init(
      query: source, sources: Scan.sources(files, options), options: options,
      parameterTypes: parameterTypes, parameters: parameters, now: now, warn: warn)
  }

  /// The files at `paths` (nil: standard input) as sources, each opened when its turn comes,
  /// read with ``Options/format`` and ``Options/reading`` (a folder of Parquet files as one:
  /// see ``FileSource/open(_:format:options:partitions:)``).
  public static func sources(_ paths: [String?], _ options: Options) -> [() throws
    -> any RecordSource]
  {
    paths.map { path in
      { try FileSource.open(path, format: options.format, options: options.reading) }
    }
  }

  /// A scan of one source.
  public convenience init(
    query source: SourceText, source records: any RecordSource, options: Options = Options(),
    parameterTypes: [String: ValueType] = [:], parameters: [String: Value] = [:],
    now: Instant? = nil, warn: @escaping (String) -> Void = { _ in }
  ) throws {
    try self.init(
      query: source, sources: [{ records }], options: options, parameterTypes: parameterTypes,
      parameters: parameters, now: now, warn: warn)
  }

  /// A scan of the file at `path` (JSON, JSON Lines, CSV or TSV, gzip or not) for `query`.
  public convenience init(file path: String, query: String, options: Options = Options()) throws {
    try self.init(query: SourceText(query), files: [path], options: options)
  }

  /// What runs where, in words (`--explain`): the part of the query the first source runs
  /// itself (a database's SQL) and what the scan does after, or the compiled plan; then what
  /// each source reads, where it says (a Parquet file's row groups), after its name when
  /// there are several.
  public var explanation: String {
    let (parameters, now) = (compiler.parameters, compiler.now)
    let plan =
      first.explanation(query, parameters: parameters, now: now) ?? compiled.plan.description
    guard let note = first.readingNote(query, parameters: parameters, now: now) else { return plan }
    guard !rest.isEmpty else { return plan + "\n" + note }
    var lines = [plan, "\(first.name): \(note)"]
    for open in rest {
      guard let source = try? open(),
        let note = source.readingNote(query, parameters: parameters, now: now)
      else { continue }
      lines.append("\(source.name): \(note)")
    }
    return lines.joined(separator: "\n")
  }

  /// The records that match, in order.
  public func records() throws -> [DataRecord] {
    let collector = RecordCollector()
    try run(into: collector)
    return collector.records
  }

  /// Runs the query over every source, handing the matches to `sink`, and ends it
  /// (``RecordSink/finish()``). Stops early once the query is complete (its `limit` reached),
  /// at the first match with ``Options/stopsAtFirstMatch``, or when the sink fails. A sink
  /// that can take what it writes from a single source without its records (a count, stats
  /// or facets a database computes) takes it so (``RecordSink/summary(from:_:parameters:now:)``).
  @discardableResult
  public func run(into sink: any RecordSink) throws -> ScanSummary {
    let perFile = options.perFile
    if rest.isEmpty, !perFile,
      let matches = try sink.summary(
        from: first, query, parameters: compiler.parameters, now: compiler.now)
    {
      sink.finish()
      return ScanSummary(matches: matches)
    }
    var execution = QueryExecution(compiled, retaining: \.detached)
    var summary = ScanSummary()
    let fetching = lateDecoding(into: sink, execution)
    // The final fields of the sources read so far, which every one must share when sorting.
    var sortedFields: [Schema.Field]? = nil
    for index in 0...rest.count
    where (perFile ? !(options.stopsAtFirstMatch && summary.matches > 0) : !isDone(execution))
      && sink.failure == nil
    {
      let source = index == 0 ? first : try rest[index - 1]()
      if (compiled.sorts && !perFile || options.readsWholeRecords
        || !options.outputFields.isEmpty) && source.schema.names != first.schema.names
      {
        let work =
          options.readsWholeRecords
          ? "write" : options.outputFields.isEmpty ? "sort" : "compute columns of"
        throw ScanError(
          message:
            "\(source.name) has other fields than \(first.name) (\(source.schema.names.joined(separator: ", "))); \(work) files with different fields one at a time"
        )
      }
      if index > 0 && perFile {
        execution = QueryExecution(
          try compiler.compile(for: source, showingWarnings: false).compiled,
          retaining: \.detached)
      } else if index > 0 {
        execution.replace(with: try compiler.compile(for: source, showingWarnings: false).compiled)
      }
      try read(source, into: sink, &execution, fetching: fetching != nil)
      if compiled.sorts && !perFile {
        let fields = source.schema.fields.map { Schema.Field($0.name, $0.type) }
        if let sortedFields, sortedFields != fields {
          throw ScanError(
            message:
              "\(source.name) has other fields or types than the files before it; sort files with different fields one at a time"
          )
        }
        sortedFields = fields
      }
      if perFile {
        for record in execution.finish() { sink.write(record) }
        sink.endOfSource(source.name)
        summary.faults.merge(execution.faults)
        summary.matches += execution.emitted
      }
    }
    if !perFile {
      var kept = execution.finish()
      if let fetching {
        // The records kept hold the fields the query read: fetched whole, in their order.
        let ordinals = kept.compactMap(\.ordinal)
        guard ordinals.count == kept.count else {
          throw ScanError(message: "\(first.name): the records kept could not be read again")
        }
        kept = try fetching.records(at: ordinals, makingText: sink.readsRecordText)
      }
      for record in kept { sink.write(record) }
      summary.faults.merge(execution.faults)
      summary.matches = execution.emitted
    }
    sink.finish()
    summary.faults.merge(sink.faults)
    return summary
  }

  /// The most records a sort keeps for late decoding (``FetchingSource``): fetching each
  /// again reads its row group again.
  static let fetchedAtMost = 10_000

  /// The source to fetch the records a sort keeps from, whole, once they are known (late
  /// decoding): when the query sorts and keeps at most ``fetchedAtMost`` records of one
  /// source that can fetch them (``FetchingSource``), whose records the sink writes from
  /// their values. Then only the fields the query reads are decoded while it runs.
  private func lateDecoding(into sink: any RecordSink, _ execution: QueryExecution<DataRecord>)
    -> (any FetchingSource)?
  {
    guard compiled.sorts, !options.perFile, rest.isEmpty, sink.writesRecords,
      !first.keepsRecordText, let kept = execution.mostKept, kept <= Self.fetchedAtMost
    else { return nil }
    guard let fetching = first as? any FetchingSource, fetching.fetches else { return nil }
    return fetching
  }

  /// Whether `execution` needs no more records: its query is complete, or it has a match and
  /// one is enough.
  private func isDone(_ execution: QueryExecution<DataRecord>) -> Bool {
    execution.isComplete
      || (options.stopsAtFirstMatch && execution.emitted + execution.keptCount > 0)
  }

  /// Reads `source` to its end (or until `execution` is done), handing the matches of each
  /// block to `sink`.
  private func read(
    _ source: any RecordSource, into sink: any RecordSink,
    _ execution: inout QueryExecution<DataRecord>, fetching: Bool = false
  ) throws {
    // A SQL script writes every field's value; other output copies each record's text where
    // the source keeps it, and needs every field where records are made from their values
    // (unless they are fetched whole once kept: `fetching`).
    let partial =
      fetching
      || !options.readsWholeRecords && (source.keepsRecordText || !sink.writesRecords)
    source.prepare(
      decoding: partial ? Set(execution.query.query.fieldNames).union(options.outputFields) : nil)
    source.limitMemory(to: options.memoryLimit)
    var version = source.schemaVersion
    var read = 0
    var overLimit: Int?
    let keptBefore = execution.keptCount
    // This thread reads the next block while another filters and writes the one before;
    // `running` and the sink are that thread's until the pipeline is drained. A block's
    // warnings go with it, so that a block read ahead but never used (the query was complete
    // before it) says nothing, as if it had not been read.
    var running = execution
    defer { execution = running }
    let pipeline = Pipeline<(DataBlock, [DataError])> { [self] block, warnings in
      report(warnings)
      running.consume(block, into: sink)
      sink.endOfBlock()
      // Output that cannot be written (a closed pipe, a full disk): reading on would be work
      // for nothing. The sink's caller reports it.
      return !isDone(running) && sink.failure == nil
    }
    defer { pipeline.finish() }
    // An error compiling the query again is the scan's; one reading is the data's.
    var compileError: (any Error)?
    do {
      try source.read { block in
        onProgress?(source)
        if let resident = ProcessMemory.residentPast(options.memoryLimit) {
          overLimit = resident
          return false
        }
        if source.schemaVersion != version {
          version = source.schemaVersion
          // Matches kept for sorting are read again, to sort under the grown schema.
          pipeline.drain()
          do {
            running.replace(
              with: try compiler.recompile(running.query, for: source, after: read),
              updatingKeptFrom: keptBefore, source.redecoded)
          } catch {
            compileError = error
            return false
          }
        }
        read += block.count
        pipeline.send((block, source.takeWarnings()))
        return !pipeline.stopped
      }
    } catch {
      // An error in what the query never needed (read ahead) is no error.
      pipeline.drain()
      if !pipeline.stopped { throw error }
    }
    if let compileError { throw compileError }
    pipeline.finish()
    if let overLimit, let limit = options.memoryLimit {
      throw ScanError(
        message:
          "stopped reading \(source.name): flt used \(ProcessMemory.describe(overLimit)), over the memory limit of \(ProcessMemory.describe(limit))",
        help:
          "raise it (--max-memory 16GB, or none), or ask for less: a sort with a limit keeps "
          + "only that many records, and --stats or --facets by a field with fewer values "
          + "keep fewer groups")
    }
    // (What was read after the query was complete says nothing.)
    let left = source.takeWarnings()
    if !pipeline.stopped { report(left) }
    for line in source.closingWarnings { warn(line) }
  }

  private func report(_ warnings: [DataError]) {
    for warning in warnings { warn(warning.rendered(colored: options.colored)) }
  }
}

/// How a scan checks and compiles its query for each source it reads, and again when a
/// source's schema grows.
private struct ScanCompiler {
  let source: SourceText
  /// The query as written, parsed.
  let written: Query
  let options: Scan.Options
  let parameterTypes: [String: ValueType]
  let parameters: [String: Value]
  let now: Instant
  let warn: (String) -> Void

  /// The query checked and compiled for the records of `records`, with the checker's
  /// warnings when `showingWarnings`. A field the source's first records lack may come
  /// later: then the source infers its schema from every record, and the query is checked
  /// again.
  func compile(for records: any RecordSource, showingWarnings: Bool) throws
    -> (query: BoundQuery, compiled: CompiledQuery<DataRecord>)
  {
    do {
      return try compileOnce(for: records, showingWarnings: showingWarnings)
    } catch let error as FilterError
      where !records.isSchemaFinal
      && error.diagnostics.contains(where: { $0.code == .unknownField })
    {
      try records.inferWhole()
      return try compileOnce(for: records, showingWarnings: showingWarnings)
    }
  }

  /// The query compiled again after `records`' schema grew, `read` records into it. A field
  /// the query reads that changed type is reported when records were read before the change:
  /// they were filtered with the field's old type.
  func recompile(
    _ query: CompiledQuery<DataRecord>, for records: any RecordSource, after read: Int
  ) throws -> CompiledQuery<DataRecord> {
    let used = Set(query.query.fieldNames)
    for change in records.takeSchemaChanges() where read > 0 && used.contains(change.path[0]) {
      var place = change.place
      if let before = change.before {
        place.diagnostic.help =
          "the \(read) record\(read == 1 ? "" : "s") before \(read == 1 ? "was" : "were") filtered with '\(change.field)' as \(before.plural)"
      }
      warn(place.description)
    }
    return try compileOnce(for: records, showingWarnings: false).compiled
  }

  /// Checks the query against `records`' schema, hands the source what it takes over, and
  /// compiles the rest.
  private func compileOnce(for records: any RecordSource, showingWarnings: Bool) throws
    -> (query: BoundQuery, compiled: CompiledQuery<DataRecord>)
  {
    var showingWarnings = showingWarnings
    if records.isEmpty {
      // No records: every field the query names has no value, and nothing matches. Syntax
      // errors still count; warnings about fields with no values would be noise.
      records.assumeFields(written.fieldNames)
      showingWarnings = false
    }
    let environment = FilterEnvironment(
      records.recordType, parameters: parameterTypes, functions: options.functions,
      limits: options.parserLimits, evaluationLimits: options.evaluationLimits)
    let checked = environment.check(written)
    let query = try checked.get(source)
    if showingWarnings, !checked.diagnostics.isEmpty {
      var renderer = DiagnosticRenderer(source: source)
      renderer.colored = options.colored
      warn(renderer.render(checked.diagnostics))
    }
    let compiled =
      if let rest = try records.pushDown(query, parameters: parameters, now: now) {
        CompiledQuery(
          rest, for: records.recordType, parameters: parameterTypes,
          limits: options.evaluationLimits)
      } else {
        CompiledQuery(
          query, as: written, warnings: checked.diagnostics, for: records.recordType,
          parameters: parameterTypes, limits: options.evaluationLimits)
      }
    return (query, compiled.binding(parameters, now: now))
  }
}

/// What a scan found: how many records matched (after `offset`, up to `limit`), and the
/// faults met while evaluating.
public struct ScanSummary: Sendable {
  /// How many records were handed to the sink.
  public var matches = 0
  /// Faults met while evaluating (a division by zero, a value that did not convert), the
  /// sink's included (``RecordSink/faults``).
  public var faults = FaultCounts()
}
