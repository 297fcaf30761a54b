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

/// `flt [options] FILTER [FILE...]`: prints the records of data files that match a query.
///
/// Without `order by`, records stream: each block read is filtered and printed before the
/// next is read, and reading stops once `limit` is reached. With `order by`, the matches
/// (only they) are kept, sorted and printed at the end.
struct FilterCommand {
  let options: Options
  let query: String

  /// Runs the command; returns the exit status.
  func run() -> Int32 {
    let inputs: [String?] = options.files.isEmpty ? [nil] : options.files
    if options.files.isEmpty && isatty(0) == 1 {
      if options.check {
        // No data to take field types from: check the syntax alone.
        let parsed = Parser.parseQuery(SourceText(query, name: options.filterName))
        if !parsed.diagnostics.isEmpty { Command.writeError(parsed.renderedDiagnostics) }
        return parsed.hasErrors ? Command.Status.failure : Command.Status.success
      }
      return Command.usageError(
        "no data: give a FILE, or pipe records into flt (flt 'price < 500' phones.json)")
    }
    if let file = options.fileFormat, !options.count, options.output == nil, isatty(1) == 1 {
      return Command.usageError(
        "--format \(file.name) writes a binary file: name it with -o FILE, or pipe it on")
    }
    do {
      return try execute(inputs)
    } catch {
      return Command.fail(error, colored: Terminal.wantsColor(2, options.color))
    }
  }

  private func execute(_ inputs: [String?]) throws -> Int32 {
    let (types, values) = try ParameterValue.typed(options.parameters)
    let count = options.count || options.quiet
    var scanOptions = Scan.Options(
      format: options.inputFormat, reading: options.read, stopsAtFirstMatch: options.quiet,
      readsWholeRecords: options.sqlScript || options.fileFormat != nil,
      colored: Terminal.wantsColor(2, options.color))
    scanOptions.memoryLimit = options.memoryLimit
    var source = SourceText(query, name: options.filterName)
    var written = try Parser.parseQuery(source).get()
    var stats: (query: StatsQuery, source: SourceText)? = nil
    if let text = options.stats {
      let request = try statsQuery(text, filter: written, filterSource: source)
      stats = (request.stats, request.source)
      (written, source) = (request.query, request.querySource)
    }
    // --facets counts among every record (a field's own condition does not narrow its counts):
    // the scan hands them all over, and the sink filters.
    var facets: (fields: [FieldPath], filter: Expr?, source: SourceText, text: SourceText)? = nil
    if let text = options.facets {
      let fields = SourceText(text, name: "--facets")
      facets = (try facetFields(fields, filter: written), written.filter, source, fields)
      written = Query(filter: nil)
    }
    // Ctrl-C cancels a statement running in a database, rather than leaving it running there.
    var interrupt: (any DispatchSourceSignal)? = nil
    defer { interrupt?.cancel() }
    var sources = Scan.sources(inputs, scanOptions)
    if let path = inputs[0],
      DatabaseTable.isDatabase(path) || options.table != nil && !options.sqlScript
    {
      // A count prints no record: only the JSON columns the query reads need their types.
      let table = try TableSource.open(
        path, table: options.table, reading: options.read,
        typingJSON: count ? Set(written.fieldNames) : nil)
      interrupt = Interrupt.cancels(table.connection)
      sources = [{ table }]
    }
    // (The fields stats read, known before the first file opens: one its first records lack
    // is looked for in the rest, as the filter's are.)
    scanOptions.outputFields = Set(
      (stats?.query.fieldNames ?? [])
        + (facets.map { $0.fields.compactMap { $0.components.first?.text } } ?? [])
        + (facets?.filter?.fieldNames ?? []))
    let scan = try Scan(
      query: written, source: source, sources: sources, options: scanOptions,
      parameterTypes: types, parameters: values, warn: warning)
    if options.check { return Command.Status.success }
    let projection = try options.selectText.flatMap {
      try Projection.selecting(
        $0, of: scan.first, parameterTypes: types, parameters: values,
        asColumns: options.fileFormat != nil || options.sqlScript)
    }
    if let projection { scan.options.outputFields = projection.fieldNames }
    let aggregating: (any SummarySink)? =
      try stats.map {
        try statsSink($0.query, source: $0.source, for: scan, types: types, values: values)
      }
      ?? facets.map {
        try FacetSink(
          $0.fields, filter: $0.filter, source: $0.source, fieldsSource: $0.text,
          for: scan.first, parameterTypes: types, parameters: values)
      }
    if options.explain {
      // (Stats and facets a database computes: its statements.)
      StandardStreams.print(
        aggregating?.explanation(
          from: scan.first, scan.query, parameters: values, now: SystemClock.now())
          ?? scan.explanation)
      return Command.Status.success
    }
    // With --with-filename and a count or a page, each file is queried on its own (a `limit`
    // is per file, as grep's -m is, and a sort with it; with --count, a count per file).
    // Without a page, a sort spans the files.
    let bound = scan.query
    scan.options.perFile =
      options.withFileName && (options.count || bound.limit != nil || bound.offset != nil)

    let format =
      options.sqlScript
      ? .jsonl : options.format ?? (options.output == nil && isatty(1) == 1 ? .table : .jsonl)
    let target =
      try options.output.map { try AtomicFile(path: $0, mode: 0o666, removedOnSignal: true) }
      ?? AtomicFile(descriptor: 1)
    defer { target.discard() }
    // (The writer of a table or of records, when the matches are written as one: it says
    // what it did not show.)
    var shown: RecordWriter?
    let sink: any RecordSink
    if count {
      sink = CountSink(to: options.quiet ? nil : target.stream, perSource: scan.options.perFile)
    } else {
      (sink, shown) = try output(
        format, scan.first, projection, aggregating?.rowSchema, target.stream)
    }
    let progress = Progress(
      enabled: !options.quiet
        && options.progress
          ?? (isatty(2) == 1
            && (isatty(1) == 0 || format.isForPeople || options.count || scan.compiled.sorts))
    )
    scan.onProgress = progress.update
    // (Stats and facets of a database table are computed by the database where SQL can:
    // the scan asks the sink, which asks the table.)
    let summary = try scan.run(into: aggregating ?? sink)
    progress.clear()
    var faults = summary.faults
    let matches = summary.matches
    if let aggregating { faults.merge(writeSummary(aggregating, into: sink)) }
    if let shown { Terminal.sayWhatIsNotShown(shown, options) }
    for line in sink.warnings { warning(line) }
    // (A sink that could not write what it was given: nothing is written over.)
    if let failure = sink.failure, target.stream.failure == nil {
      throw ScanError(message: "cannot write \(options.output ?? "the output"): \(failure)")
    }
    try target.commit()
    if !faults.isEmpty { warning("warning: \(faults.summary)\n") }
    return options.exitStatus && matches == 0
      ? Command.Status.noMatch : Command.Status.success
  }

  /// Where the matches go: a SQL script, a file of a format flt writes, or a text format (of
  /// the computed columns, or the rows of stats, when there are some: `columns` is then their
  /// schema); and the writer of text, when it is one.
  private func output(
    _ format: OutputFormat, _ reader: any RecordSource, _ projection: Projection?,
    _ columns: Schema?, _ out: OutputSink
  ) throws -> (any RecordSink, RecordWriter?) {
    let columns = columns ?? projection?.schema
    if let file = options.fileFormat,
      let writer = try file.writer(columns ?? reader.schema, to: out)
    {
      return (projection.map { ProjectingSink($0, into: writer) } ?? writer, nil)
    }
    guard options.sqlScript, let dialect = options.dialect else {
      let writer =
        columns.map {
          RecordWriter(
            format, columns: RecordWriter.columns(of: $0, for: format), select: nil,
            to: out, showingFiles: options.withFileName)
        }
        ?? RecordWriter(
          format, for: reader, select: options.selectText.map(Projection.names(in:)), to: out,
          showingFiles: options.withFileName)
      writer.styled = options.output == nil && Terminal.wantsColor(1, options.color)
      writer.maxRows = Terminal.screenfulOfRows(format, output: options.output)
      if writer.maxRows != nil { writer.maxTableWidth = Descriptor.terminalSize(1)?.columns }
      writer.cutHint = "-s f1,f2 or -f records"
      return (projection.map { ProjectingSink($0, into: writer) } ?? writer, writer)
    }
    let name = options.table ?? SQLTable.name(forFile: options.files.first)
    // Records keep their order: SQLite's rowid, a column of their own in PostgreSQL. With
    // --select, the table's columns are the selection's.
    let schema = columns ?? reader.schema
    var table = SQLTable(
      name: name, schema: schema, rowOrder: dialect == .sqlite ? "rowid" : SQLTable.rowOrderColumn)
    if options.collateC {
      table.byteOrderedColumns = Set(schema.fields.filter { $0.type == .string }.map(\.name))
    }
    let writer = SQLScriptWriter(table, dialect: dialect, to: out)
    return (projection.map { ProjectingSink($0, into: writer) } ?? writer, nil)
  }

  /// Writes `text`, a warning, to standard error, unless `--quiet` says to print nothing.
  private func warning(_ text: String) {
    if !options.quiet { Command.writeError(text) }
  }
}
