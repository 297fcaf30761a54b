import FilterDSL
import FilterData

/// Renders statement results per the session's settings: records as a table or in the chosen
/// format (at most ``Settings/limit`` of them), counts, facets, plans; faults as a warning.
struct ResultPrinter {
  let settings: Settings
  let styled: Bool
  /// Whether `load` says what it loaded.
  let verbose: Bool
  /// The widest a table may be (the terminal's width), or nil.
  let tableWidth: Int?
  let output: OutputSink
  let warn: (String) -> Void
  /// Asked every few hundred rows; printing stops when it says true.
  let interrupted: () -> Bool

  /// Prints `result`; false when printing was interrupted.
  func print(_ result: StatementResult) -> Bool {
    switch result {
    case .loaded(let dataset):
      guard verbose else { break }
      output.write("\(dataset.name): \(dataset.summary)\n")
    case .records(let records, let dataset, _):
      guard print(records, from: dataset) else { return false }
    case .count(let count, _):
      output.write("\(count)\n")
    case .facets(let result):
      FacetPrinter(settings: settings, styled: styled).print(result, to: output)
    case .stats(let result):
      guard print(result) else { return false }
    case .plan(let plan):
      output.write(plan.description + "\n")
    case .translation(let explanation):
      output.write(explanation + "\n")
    case .settings(let settings):
      output.write(settings.listing)
    case .defined, .none:
      break
    }
    let faults = result.faults
    if !faults.isEmpty { warn("warning: \(faults.summary)\n") }
    return true
  }

  private func print(_ matches: MatchedRecords, from data: Dataset) -> Bool {
    let shown = settings.limit.map { Swift.min($0, matches.count) } ?? matches.count
    let writer = self.writer(
      columns: data.store.header ?? RecordWriter.columns(of: data.schema, for: settings.format),
      select: settings.columns)
    if shown < matches.count { writer.totalRows = matches.count }
    var written = 0
    // A page at a time: the text of records not printed is never read back.
    while written < shown, !interrupted() {
      for record in matches.records(written..<Swift.min(written + 256, shown)) {
        writer.write(record)
        written += 1
      }
    }
    if written < shown { writer.totalRows = matches.count }
    writer.finish()
    if interrupted() { return false }
    if written < matches.count && !settings.format.isForPeople {
      warn("(\(written) of \(matches.count) records printed; set limit none prints all)\n")
    }
    return true
  }

  /// A writer of records in the session's format and settings.
  private func writer(columns: [String], select: [String]?) -> RecordWriter {
    let writer = RecordWriter(settings.format, columns: columns, select: select, to: output)
    writer.styled = styled
    writer.maxCellWidth = settings.width
    writer.nullText = settings.nullText
    writer.maxTableWidth = tableWidth
    writer.cutHint = "show f1, f2 or set format records"
    return writer
  }

  /// The rows of `stats`, every one (they are a summary: `limit` does not cut them), as
  /// records in the session's format; false when interrupted.
  private func print(_ result: StatsResult) -> Bool {
    let writer = self.writer(
      columns: RecordWriter.columns(of: result.schema, for: settings.format), select: nil)
    for row in result.rows {
      if interrupted() { return false }
      writer.write(DataRecord(row, schema: result.schema))
    }
    writer.finish()
    for note in result.notes { warn(note) }
    return true
  }
}
