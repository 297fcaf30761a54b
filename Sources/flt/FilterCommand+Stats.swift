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

  /// Writes the rows of `sink`'s result through `writer`, then its notes; returns the faults
  /// met aggregating.
  func writeStats(_ sink: StatsSink, into writer: any RecordSink) -> FaultCounts {
    let result = sink.result
    for row in result.rows { writer.write(DataRecord(row, schema: result.schema)) }
    writer.finish()
    for note in result.notes { Command.writeError(note) }
    return result.faults
  }
}
