/// One run of a compiled query over records that arrive in batches: the one way a query runs,
/// in memory, over a file's blocks, in a session.
///
/// Each batch is filtered as a whole (see ``CompiledFilter/filter(_:until:)-([Root],_)``). A query
/// without `order by` hands its matches back as they come, after skipping `offset` of them,
/// and is ``isComplete`` once `limit` were handed back, so the reader can stop. A query that
/// sorts keeps its matches (only them) until ``finish()``, which sorts and pages them. A run
/// that goes over the query's ``EvaluationLimits`` is complete at once and hands back nothing
/// more; ``faults`` says which limit (the caller reports it as an error).
///
/// ```swift
/// var execution = QueryExecution(query)
/// while !execution.isComplete, let batch = source.next() {
///   for record in execution.consume(batch) { print(record) }
/// }
/// for record in execution.finish() { print(record) }
/// ```
public struct QueryExecution<Root> {
  /// The query being run.
  public var query: CompiledQuery<Root> { current }
  @usableFromInline var current: CompiledQuery<Root>
  /// Faults met so far (filtering, sorting, and `limit`/`offset` themselves).
  public var faults: FaultCounts { faultsSoFar }
  /// The records handed back so far.
  public var emitted: Int { handedBack }
  // Inlinable, with the state it touches: `consume` then runs specialized for the record
  // type in the caller's module, instead of copying each record through generic witnesses.
  @usableFromInline var faultsSoFar = FaultCounts()
  @usableFromInline var handedBack = 0
  /// Matches kept for sorting.
  @usableFromInline var kept: [Root] = []
  /// Makes the copy of a match kept for sorting (nil: the match itself).
  @usableFromInline let retain: ((Root) -> Root)?
  @usableFromInline let skip: Int
  @usableFromInline let take: Int?
  @usableFromInline var skipped = 0

  /// A run of `query`. A query that sorts keeps its matches until ``finish()``: `retain` makes
  /// the copy it keeps (records that point into a reusable buffer detach from it here).
  public init(_ query: CompiledQuery<Root>, retaining retain: ((Root) -> Root)? = nil) {
    self.current = query
    self.retain = retain
    (skip, take) = query.page(&faultsSoFar)
  }

  /// Whether the run needs no more records: the query does not sort and `limit` records
  /// were handed back.
  @inlinable public var isComplete: Bool {
    if faultsSoFar.overLimit != nil { return true }
    guard let take, !query.sorts else { return false }
    return handedBack >= take
  }

  /// How many matches are kept for sorting.
  public var keptCount: Int { kept.count }

  /// The most matches a query that sorts keeps (its offset and limit); nil without a limit.
  public var mostKept: Int? { take.map { skip.addingReportingOverflow($0).partialValue } }

  /// Filters `batch`; returns the records to hand on now, in order (none when the query
  /// sorts). `stop` is asked every thousand records or so; once it says true the batch's
  /// filtering ends early (the caller, which asked, knows the result is partial).
  @inlinable public mutating func consume(_ batch: [Root], until stop: () -> Bool = { false })
    -> [Root]
  {
    consume(batch, compiledAs: current, making: { $0 }, until: stop)
  }

  /// Filters `batch`, records of another type, with `query` (this run's query compiled for
  /// them: ``CompiledQuery/compiled(for:)``), and goes on with the matches made into this
  /// run's records by `records`: handed back now, in order, or kept to sort. Only the matches
  /// (of a sort with a limit, only those that may come first) are made into records: a block
  /// of a file read by column is filtered over its columns, and its rows become records only
  /// when they match. Faults and the run's limits count as for ``consume(_:until:)``.
  ///
  /// A sort with a limit keeps only those of the batch's matches that may come first,
  /// unless `pruning` is false: where the order itself may change before the end (a file
  /// whose schema may yet widen a key's type).
  @inlinable public mutating func consume<Other>(
    _ batch: [Other], compiledAs query: CompiledQuery<Other>,
    making records: ([Other]) -> [Root], pruning: Bool = true,
    until stop: () -> Bool = { false }
  ) -> [Root] {
    guard !isComplete, let selected = filtered(batch, query, pruning: pruning, until: stop) else {
      return []
    }
    if current.sorts {
      // (No reserveCapacity here: reserving exactly, batch after batch, would defeat the
      // array's geometric growth and copy the kept matches once per batch. One `append` of
      // the whole batch, and no `map` unless copies are asked for: unspecialized, a call per
      // record took a quarter of a sorted query over a million rows.)
      let matches = records(selected)
      kept.append(contentsOf: retain.map { matches.map($0) } ?? matches)
      return []
    }
    let page = paged(selected)
    return records(page.count == selected.count ? selected : Array(page))
  }

  /// Filters `batch`, records of another type, with `query` (this run's query compiled for
  /// them), and returns the matches to hand on now, in order, without making this run's
  /// records of them: for a sink that reads the other records itself (the rows of a batch
  /// read by column). Faults, `offset`, `limit` and the run's limits count as for
  /// ``consume(_:compiledAs:making:pruning:until:)``. Nil, and nothing done, for a query that
  /// sorts: it keeps this run's records (the caller consumes the batch instead).
  @inlinable package mutating func select<Other>(
    _ batch: [Other], compiledAs query: CompiledQuery<Other>, until stop: () -> Bool = { false }
  ) -> [Other]? {
    guard !current.sorts else { return nil }
    guard !isComplete, let selected = filtered(batch, query, pruning: false, until: stop) else {
      return []
    }
    let page = paged(selected)
    return page.count == selected.count ? selected : Array(page)
  }

  /// The records of `batch` that pass `query`'s filter (a sort with a limit keeps, of them,
  /// only those that may come first, unless not `pruning`); nil once the run is over its
  /// limits (it then keeps nothing).
  @inlinable mutating func filtered<Other>(
    _ batch: [Other], _ query: CompiledQuery<Other>, pruning: Bool, until stop: () -> Bool
  ) -> [Other]? {
    guard let filter = query.filter else { return batch }
    var prune: CompiledFilter<Other>.Pruning? = nil
    if pruning, current.sorts, let take,
      case let (first, false) = skip.addingReportingOverflow(take)
    {
      prune = query.pruning(batch, first: first)
    }
    let selected = filter.filter(batch, until: stop, faults: &faultsSoFar, pruning: prune)
    if faultsSoFar.overLimit != nil {
      kept = []
      return nil
    }
    return selected
  }

  /// The part of `selected` (matches of a query that does not sort) past `offset` and within
  /// `limit`, counted as handed back.
  @inlinable mutating func paged<Other>(_ selected: [Other]) -> ArraySlice<Other> {
    var start = 0
    if skipped < skip {
      start = Swift.min(skip - skipped, selected.count)
      skipped += start
    }
    var end = selected.count
    if let take { end = Swift.min(end, start + Swift.max(0, take - handedBack)) }
    handedBack += end - start
    return selected[start..<end]
  }

  /// Ends the input: for a query that sorts, its kept matches sorted and paged; else nothing.
  public mutating func finish() -> [Root] {
    guard query.sorts, faultsSoFar.overLimit == nil else { return [] }
    let sorted = query.sorted(kept, &faultsSoFar, first: take.map { skip + $0 })
    kept = []
    let page = Array(sorted[CompiledQuery<Root>.window(sorted.count, skip: skip, take: take)])
    handedBack += page.count
    return page
  }

  /// Goes on with `query` instead, compiled again for the same query text (as when a data
  /// file's schema grew); kept matches from index `start` on are passed through `update`
  /// first, so that they fit the new query. Paging goes on where it was.
  public mutating func replace(
    with query: CompiledQuery<Root>, updatingKeptFrom start: Int = 0,
    _ update: (Root) -> Root = { $0 }
  ) {
    self.current = query
    for index in Swift.max(start, 0)..<kept.count { kept[index] = update(kept[index]) }
  }
}
