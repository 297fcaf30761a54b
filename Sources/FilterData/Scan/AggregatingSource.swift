import FilterDSL

/// A source that computes aggregates itself, without handing its records over (a database
/// table's `GROUP BY`): `--stats` and `--facets` ask it first (``RecordSink/summary(from:_:parameters:now:)``),
/// in a one-shot run as in a session, and read the records only when it says nil.
public protocol AggregatingSource: RecordSource {
  /// `stats` (their filter is the query's) over the source's records, when the source
  /// computes them exactly; nil: the records are handed over and aggregated by flt.
  func stats(_ stats: BoundStats, parameters: [String: Value], now: Instant) throws
    -> StatsResult?
  /// The counts `counter` makes (its filter included) over the source's records, when the
  /// source computes them (narrowing the records itself as far as it can); nil: the records
  /// are handed over and counted by flt.
  func facets(_ counter: FacetCounter<[Value]>, parameters: [String: Value], now: Instant) throws
    -> FacetCounts?
  /// What the source runs for ``stats(_:parameters:now:)``, in words (`--explain`); nil when
  /// the records are handed over.
  func explanation(of stats: BoundStats, parameters: [String: Value], now: Instant) -> String?
  /// What the source runs for ``facets(_:parameters:now:)``, in words (`--explain`); nil when
  /// the records are handed over.
  func explanation(of counter: FacetCounter<[Value]>, parameters: [String: Value], now: Instant)
    -> String?
}
