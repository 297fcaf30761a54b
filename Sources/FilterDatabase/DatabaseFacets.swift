import FilterDSL
import FilterSQL

extension SQLConnection {
  /// Counts facets (see ``FacetCounter``) of the records of `table`: the database returns the
  /// rows matching the part of the filter every count respects (what SQL answers of it), and
  /// the counter counts them, so the counts are those flt would give in memory.
  ///
  /// `counter` must be made for `.dynamic(table.schema)` and bound to `values`.
  public func count(
    _ counter: FacetCounter<[Value]>, on table: SQLTable, parameters: [String: ValueType] = [:],
    values: [String: Value] = [:], now: Instant? = nil
  ) throws(DatabaseError) -> FacetCounts {
    let narrowing = DatabaseQuery(
      BoundQuery(filter: counter.sharedFilter), on: table, in: self, parameters: parameters)
    let records = try narrowing.records(values, now: now).records
    return counter.count(records)
  }
}
