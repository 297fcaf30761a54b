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
    do {
      return try execute(inputs)
    } catch {
      return Command.fail(error, colored: Terminal.wantsColor(2, options.color))
    }
  }

  struct CommandError: Error {
    var message: String
    /// What to do instead, when there is something to suggest.
    var help: String? = nil
  }

  private func execute(_ inputs: [String?]) throws -> Int32 {
    let first = try DataReader(path: inputs[0], format: options.inputFormat, options: options.read)
    // A fixed type for a field the whole file lacks is a misspelling (it was ignored).
    if first.sawEverything {
      for name in options.read.types.keys.sorted() where first.schema.field(named: name) == nil {
        let suggestion = Suggestion.closest(to: name, among: first.schema.names)
        throw CommandError(
          message: "--type \(name): \(first.name) has no field \(name)",
          help: suggestion.map { "did you mean --type \($0)=...?" })
      }
    }
    // A SQL script's `CREATE TABLE` needs the types of the whole input.
    if options.sqlScript { try first.inferWhole() }
    let compiled = try compile(for: first)
    if options.check { return Command.Status.success }
    if options.explain {
      StandardStreams.print(compiled.plan.description)
      return Command.Status.success
    }
    try checkSelection(first)

    let format =
      options.sqlScript
      ? .jsonl : options.format ?? (options.output == nil && isatty(1) == 1 ? .table : .jsonl)
    let target = try OutputTarget(path: options.output)
    defer { target.discard() }
    let writer = options.count || options.quiet ? nil : try output(format, first, target.stream)
    let progress = Progress(
      enabled: !options.quiet
        && options.progress
          ?? (isatty(2) == 1
            && (isatty(1) == 0 || format.isForPeople || options.count || compiled.sorts))
    )

    // Matches kept for sorting are copied out of the reader's buffers.
    var execution = QueryExecution(compiled, retaining: \.detached)
    // With --with-filename and a count or a page, each file is queried on its own (a `limit`
    // is per file, as grep's -m is, and a sort with it; with --count, a count per file): the
    // faults of the files before are kept here. Without a page, a sort spans the files.
    let bound = execution.query.query
    let perFile =
      options.withFileName && (options.count || bound.limit != nil || bound.offset != nil)
    var faults = FaultCounts()
    var matched = 0
    // The final fields of the files read so far, which every file must share when sorting.
    var sortedFields: [Schema.Field]? = nil

    // With --quiet, the first match answers.
    func done() -> Bool {
      execution.isComplete || (options.quiet && execution.emitted + execution.keptCount > 0)
    }
    for (index, path) in inputs.enumerated()
    where (perFile ? !(options.quiet && matched > 0) : !done()) && target.stream.failure == nil {
      let reader =
        index == 0
        ? first : try DataReader(path: path, format: options.inputFormat, options: options.read)
      if (compiled.sorts && !perFile || options.sqlScript)
        && reader.schema.names != first.schema.names
      {
        throw CommandError(
          message:
            "\(reader.name) has other fields than \(first.name) (\(reader.schema.names.joined(separator: ", "))); \(options.sqlScript ? "write" : "sort") files with different fields one at a time"
        )
      }
      if index > 0 && perFile {
        execution = QueryExecution(
          try compile(for: reader, showingWarnings: false), retaining: \.detached)
      } else if index > 0 {
        execution.replace(with: try compile(for: reader, showingWarnings: false))
      }
      // Other output copies each record's text; a SQL script writes every field's value.
      if !options.sqlScript { reader.decodeOnly(Set(execution.query.query.fieldNames)) }
      var version = reader.schemaVersion
      var read = 0
      let keptBefore = execution.keptCount
      // This thread parses the next block while another filters and prints the one before;
      // `execution` and the output are that thread's until the pipeline is drained. A
      // block's warnings go with it, so that a block read ahead but never used (the query
      // was complete before it) says nothing, as if it had not been read.
      let pipeline = Pipeline<(DataBlock, [DataError])> { block, warnings in
        warn(warnings)
        for record in execution.consume(block) { writer?.write(record) }
        if !format.isForPeople { target.stream.flush() }
        // Output that cannot be written (a closed pipe, with SIGPIPE ignored; a full disk):
        // reading on would be work for nothing. The error is reported below.
        return !done() && target.stream.failure == nil
      }
      defer { pipeline.finish() }
      while !pipeline.stopped {
        let next: DataBlock?
        do {
          // Read by column: only the matches become records. (A SQL script writes every
          // value, as the records' readers read them.)
          next = try reader.nextBlock(byColumn: !options.sqlScript)
        } catch {
          // An error in what the query never needed (read ahead) is no error.
          pipeline.drain()
          if pipeline.stopped { break }
          throw error
        }
        guard let block = next else { break }
        progress.update(reader)
        if reader.schemaVersion != version {
          version = reader.schemaVersion
          // Matches kept for sorting are read again, to sort under the grown schema.
          pipeline.drain()
          execution.replace(
            with: try recompile(execution.query, for: reader, after: read),
            updatingKeptFrom: keptBefore, reader.redecoded)
        }
        read += block.count
        pipeline.send((block, reader.takeWarnings()))
      }
      pipeline.finish()
      // (What was read after the query was complete says nothing.)
      let left = reader.takeWarnings()
      if !pipeline.stopped { warn(left) }
      for line in reader.conversionSummary { warning(line) }
      if compiled.sorts && !perFile {
        let fields = reader.schema.fields.map { Schema.Field($0.name, $0.type) }
        if let sortedFields, sortedFields != fields {
          throw CommandError(
            message:
              "\(reader.name) has other fields or types than the files before it; sort files with different fields one at a time"
          )
        }
        sortedFields = fields
      }
      if perFile {
        for record in execution.finish() { writer?.write(record) }
        if options.count { target.stream.write("\(reader.name):\(execution.emitted)\n") }
        target.stream.flush()
        faults.merge(execution.faults)
        matched += execution.emitted
      }
    }
    if !perFile {
      for record in execution.finish() { writer?.write(record) }
      faults.merge(execution.faults)
      matched = execution.emitted
    }
    progress.clear()
    writer?.finish()
    if let table = writer as? RecordWriter { Terminal.sayWhatIsNotShown(table, options) }
    if let script = writer as? SQLScriptWriter, script.unstorable > 0 {
      warning(
        "warning: \(script.unstorable) value\(script.unstorable == 1 ? "" : "s") (text with a NUL character) cannot be stored in \(script.table.name) and were written as NULL\n"
      )
    }
    if options.count && !perFile { target.stream.write("\(matched)\n") }
    target.stream.flush()
    if let failure = target.stream.failure {
      throw CommandError(message: "cannot write the output: \(failure)")
    }
    try target.commit()
    if !faults.isEmpty { warning("warning: \(faults.summary)\n") }
    return options.exitStatus && matched == 0
      ? Command.Status.noMatch : Command.Status.success
  }

  /// Where the matches go: a SQL script, or a data format.
  private func output(_ format: OutputFormat, _ reader: DataReader, _ out: OutputSink) throws
    -> any RecordOutput
  {
    guard options.sqlScript, let dialect = options.dialect else {
      let writer = RecordWriter(
        format, for: reader, select: options.select, to: out, showingFiles: options.withFileName)
      writer.styled = options.output == nil && Terminal.wantsColor(1, options.color)
      writer.maxRows = Terminal.screenfulOfRows(format, output: options.output)
      if writer.maxRows != nil { writer.maxTableWidth = Descriptor.terminalSize(1)?.columns }
      return writer
    }
    let base = reader.name.split(separator: "/").last.map(String.init) ?? "records"
    let name = options.table ?? String(base.prefix { $0 != "." })
    // Records keep their order: SQLite's rowid, a column of their own in PostgreSQL.
    let table = SQLTable(
      name: name, schema: reader.schema,
      rowOrder: dialect == .sqlite ? "rowid" : SQLTable.rowOrderColumn)
    return SQLScriptWriter(table, dialect: dialect, to: out)
  }

  /// The query compiled for the records of `reader`, printing the checker's warnings (once,
  /// for the first file). A field the reader's first records lack may come later: then the
  /// reader infers its schema from the whole input, and the query is compiled again.
  private func compile(for reader: DataReader, showingWarnings: Bool = true) throws
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
  private func recompile(
    _ query: CompiledQuery<DataRecord>, for reader: DataReader, after read: Int
  ) throws -> CompiledQuery<DataRecord> {
    let used = Set(query.query.fieldNames)
    for change in reader.takeSchemaChanges() where read > 0 && used.contains(change.path[0]) {
      var place = change.place
      if let before = change.before {
        place.diagnostic.help =
          "the \(read) record\(read == 1 ? "" : "s") before \(read == 1 ? "was" : "were") filtered with '\(change.field)' as \(before.plural)"
      }
      warning(place.description)
    }
    return try compileOnce(for: reader, showingWarnings: false)
  }

  private func compileOnce(for reader: DataReader, showingWarnings: Bool) throws
    -> CompiledQuery<DataRecord>
  {
    if reader.isEmpty {
      // No records: every field the query names has no value, and nothing matches. Syntax
      // errors still count; warnings about fields with no values would be noise.
      let parsed = Parser.parseQuery(SourceText(query, name: options.filterName))
      reader.assumeFields(parsed.value?.fieldNames ?? [])
      return try compileChecked(for: reader, showingWarnings: false)
    }
    return try compileChecked(for: reader, showingWarnings: showingWarnings)
  }

  private func compileChecked(for reader: DataReader, showingWarnings: Bool) throws
    -> CompiledQuery<DataRecord>
  {
    let (parameters, values) = try ParameterValue.typed(options.parameters)
    let compiled = try FilterEnvironment(reader.recordType, parameters: parameters).compileQuery(
      SourceText(query, name: options.filterName))
    if showingWarnings, let warnings = compiled.filter?.warnings, !warnings.isEmpty {
      let source = SourceText(query, name: options.filterName)
      var renderer = DiagnosticRenderer(source: source)
      renderer.colored = Terminal.wantsColor(2, options.color)
      warning(renderer.render(warnings))
    }
    return compiled.binding(values, now: SystemClock.now())
  }

  /// `--select` must name fields the data has: top-level ones, columns of a CSV header, or
  /// dotted paths into nested records (resolved as filters resolve them; not through lists,
  /// which output cannot reach into).
  private func checkSelection(_ reader: DataReader) throws {
    let schema = reader.schema
    for name in options.select ?? [] where reader.header?.contains(name) != true {
      switch schema.resolve(FieldPath(name)) {
      case .success(let field) where !field.steps.contains(where: \.throughList):
        continue
      case .success:
        throw CommandError(
          message:
            "--select: '\(name)' goes through a list of records, and output shows whole fields; select its list instead"
        )
      case .failure(.unknown(let index, let fields)):
        let part = FieldPath(name).components[index].text
        let suggestion = Suggestion.closest(to: part, among: fields.names)
        let place =
          index == 0 ? "the data has" : "'\(FieldPath(name).components[index - 1].text)' has"
        let shown = fields.names.prefix(12).map { quoted($0) }.joined(separator: ", ")
        throw CommandError(
          message: "--select: \(place) no field \(quoted(part))"
            + (suggestion.map { "; did you mean \(quoted($0))?" }
              ?? "; its fields are \(shown)\(fields.names.count > 12 ? ", ..." : "")"))
      case .failure(.notARecord(let index, let field)):
        throw CommandError(
          message:
            "--select: '\(field.name)' is \(field.type.description), which has no field '\(FieldPath(name).components[index].text)'"
        )
      }
    }
  }

  private func warn(_ warnings: [DataError]) {
    let colored = Terminal.wantsColor(2, options.color)
    for warning in warnings { self.warning(warning.rendered(colored: colored)) }
  }

  /// Writes `text`, a warning, to standard error, unless `--quiet` says to print nothing.
  private func warning(_ text: String) {
    if !options.quiet { Command.writeError(text) }
  }
}
