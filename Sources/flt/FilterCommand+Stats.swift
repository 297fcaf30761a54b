import FilterDSL
import FilterData

/// `flt --stats 'mean(price) by color' FILTER FILE...`: the scan's matches aggregated, a row
/// per group, in the output format.
extension FilterCommand {
  /// The stats `--stats` asks for, and the query the scan runs: FILTER, or the stats' own
  /// `where` (not both).
  func statsQuery(_ text: String, filter written: Query, filterSource: SourceText) throws -> (
    stats: StatsQuery, source: SourceText, query: Query, querySource: SourceText
  ) {
    let source = SourceText(text, name: "--stats")
    var stats = try Parser.parseStats(source).get()
    if written.ordering.count > 0 || written.limit != nil || written.offset != nil {
      throw ScanError(
        message: "--stats aggregates every match; leave out order by, limit and offset")
    }
    guard let filter = stats.filter else { return (stats, source, written, filterSource) }
    if written.filter != nil {
      var unfiltered = stats
      unfiltered.filter = nil
      throw ScanError(
        message: "give the filter once: as FILTER, or after where in --stats",
        help: "flt --stats '\(unfiltered)' '\(filter)' FILE")
    }
    stats.filter = nil
    return (stats, source, Query(filter: filter), source)
  }

  /// The sink that aggregates the matches of `scan`, reading the fields it needs.
  func statsSink(
    _ stats: StatsQuery, source: SourceText, for scan: Scan, types: [String: ValueType],
    values: [String: Value]
  ) throws -> StatsSink {
    let sink = try StatsSink(
      stats, source: source, for: scan.first, parameterTypes: types, parameters: values)
    scan.options.outputFields = sink.fieldNames
    return sink
  }

  /// The fields `--facets` names (`color,camera.zoom`); the query must be a filter alone.
  func facetFields(_ source: SourceText, filter written: Query) throws -> [FieldPath] {
    if written.ordering.count > 0 || written.limit != nil || written.offset != nil {
      throw ScanError(
        message: "--facets counts every match; leave out order by, limit and offset")
    }
    let items = try Parser.parseSelection(source).get()
    var fields: [FieldPath] = []
    for item in items {
      guard case .field(let path) = item.expr.kind, item.alias == nil else {
        throw FilterError(
          source: source,
          diagnostics: [
            Diagnostic(
              .invalidOperand, at: item.expr.range,
              message: "--facets counts the values of fields, and \(item.expr) is not one",
              help: "name fields: --facets color,camera.zoom")
          ])
      }
      fields.append(path)
    }
    return fields
  }

  /// Writes the rows of `sink`'s summary through `writer`, then its notes; returns the faults
  /// met making them.
  func writeSummary(_ sink: any SummarySink, into writer: any RecordSink) -> FaultCounts {
    let summary = sink.summary
    let schema = sink.rowSchema
    for row in summary.rows { writer.write(DataRecord(row, schema: schema)) }
    writer.finish()
    for note in summary.notes { Command.writeError(note) }
    return summary.faults
  }
}
