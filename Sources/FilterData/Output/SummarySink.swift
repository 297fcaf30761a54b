import FilterDSL

/// A sink that sums up the records a ``Scan`` hands over, then gives rows of its own in place
/// of them: `flt --stats` (``StatsSink``), `flt --facets` (``FacetSink``).
public protocol SummarySink: RecordSink {
  /// The columns of the rows.
  var rowSchema: Schema { get }
  /// The rows, once the scan has run; with the faults met making them (the scan's own are in
  /// its ``ScanSummary/faults``) and what to say beside them, complete lines.
  var summary: (rows: [[Value]], faults: FaultCounts, notes: [String]) { get }
  /// The top-level fields the sink reads: a scan decodes them (``Scan/Options/outputFields``).
  var fieldNames: Set<String> { get }
  /// What `source` runs to compute the rows itself, for the records matching `query`, in
  /// words (`--explain`); nil when it hands its records over.
  func explanation(
    from source: any RecordSource, _ query: BoundQuery, parameters: [String: Value], now: Instant
  ) -> String?
}

extension StatsSink: SummarySink {
  /// The stats' columns.
  public var rowSchema: Schema { stats.schema }
  /// The stats' rows, faults and notes.
  public var summary: (rows: [[Value]], faults: FaultCounts, notes: [String]) {
    let result = self.result
    return (result.rows, result.faults, result.notes)
  }

  /// The statement a database computes the stats by.
  public func explanation(
    from source: any RecordSource, _ query: BoundQuery, parameters: [String: Value], now: Instant
  ) -> String? {
    (source as? any AggregatingSource)?.explanation(
      of: stats.filtered(by: query.filter), parameters: parameters, now: now)
  }
}
