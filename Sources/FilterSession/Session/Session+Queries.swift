import FilterDSL
import FilterData

/// The statements that read the current data: a query, `count`, `explain`, `facets`.
extension Session {
  /// A query: prints the matches in the current format, at most ``Settings/limit`` of them.
  func printMatches(_ query: Query, _ statement: Stmt, _ context: Context) throws(SessionError) {
    try timed { () throws(SessionError) in
      let (data, compiled) = try compile(query, statement, context)
      if checkOnly { return }
      let (matches, faults) = compiled.run(data.records, until: interrupted)
      try context.stopIfInterrupted(self)
      let shown = settings.limit.map { Swift.min($0, matches.count) } ?? matches.count
      let writer = RecordWriter(
        settings.format, for: data.reader, select: settings.columns, to: output)
      writer.styled = styled
      writer.maxCellWidth = settings.width
      if shown < matches.count { writer.totalRows = matches.count }
      var written = 0
      for record in matches[..<shown] {
        if written % 256 == 0, interrupted() { break }
        writer.write(record)
        written += 1
      }
      if written < shown { writer.totalRows = matches.count }
      writer.finish()
      try context.stopIfInterrupted(self)
      if written < matches.count && settings.format != .table {
        warn("(\(written) of \(matches.count) records printed; set limit none prints all)\n")
      }
      reportFaults(faults)
    }
  }

  /// `count` or `count <filter>`: prints the number of matching records.
  func count(_ filter: Expr?, _ statement: Stmt, _ context: Context) throws(SessionError) {
    try timed { () throws(SessionError) in
      let (data, compiled) = try compile(Query(filter: filter), statement, context)
      if checkOnly { return }
      let (matches, faults) = compiled.run(data.records, until: interrupted)
      try context.stopIfInterrupted(self)
      reportFaults(faults)
      output.write("\(matches.count)\n")
    }
  }

  /// `explain <query>`: prints the compiled chain.
  func explain(_ query: Query, _ statement: Stmt, _ context: Context) throws(SessionError) {
    let (_, compiled) = try compile(query, statement, context)
    if checkOnly { return }
    output.write(compiled.plan.description + "\n")
  }

  /// `facets color, diskSpace where <filter>`: each field's values with their counts,
  /// disjunctively (see ``FacetCounter``).
  func facets(_ fields: [FieldPath], _ filter: Expr?, _ statement: Stmt, _ context: Context)
    throws(SessionError)
  {
    try timed { () throws(SessionError) in
      let data = try requireData(statement, context)
      var expanded: Expr?
      if let filter { expanded = try expand(filter, context) }
      let counter: FacetCounter<DataRecord>
      do throws(FilterError) {
        counter = try FacetCounter(
          fields, filter: expanded, source: context.source, for: data.recordType)
      } catch {
        throw context.error(error)
      }
      if checkOnly { return }
      let result = counter.binding([:], now: clock()).count(data.records, until: interrupted)
      try context.stopIfInterrupted(self)
      FacetPrinter(settings: settings, styled: styled).print(result, to: output)
      reportFaults(result.faults)
    }
  }

  /// The query with names expanded, checked and compiled against the current data; its
  /// warnings are reported.
  func compile(_ query: Query, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> (Dataset, CompiledQuery<DataRecord>)
  {
    let data = try requireData(statement, context)
    var expanded = query
    if let filter = query.filter { expanded.filter = try expand(filter, context) }
    for i in expanded.ordering.indices {
      expanded.ordering[i].key = try expand(expanded.ordering[i].key, context)
    }
    // No records: the fields the query names have no value, and nothing matches (as the
    // command does with an empty file).
    data.reader.assumeFields(expanded.fieldNames)
    do {
      let compiled = try CompiledQuery(expanded, source: context.source, for: data.recordType)
      report(compiled.filter?.warnings ?? [], context)
      return (data, compiled.binding([:], now: clock()))
    } catch {
      throw context.error(error)
    }
  }

  /// Runs `body`, then prints how long it took when ``Settings/time`` is on.
  func timed(_ body: () throws(SessionError) -> Void) throws(SessionError) {
    let start = SystemClock.seconds()
    try body()
    guard settings.time else { return }
    output.flush()
    let elapsed = SystemClock.seconds() - start
    let text =
      elapsed < 1
      ? "\((elapsed * 10_000).rounded() / 10) ms" : "\((elapsed * 1000).rounded() / 1000) s"
    warn("time: \(text)\n")
  }

  func reportFaults(_ faults: FaultCounts) {
    guard !faults.isEmpty else { return }
    warn(
      "warning: \(faults.summary)\n"
    )
  }
}
