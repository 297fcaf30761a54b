/// One run of a compiled query over records that arrive in batches: the one way a query runs,
/// in memory, over a file's blocks, in a session.
///
/// Each batch is filtered as a whole (see ``CompiledFilter/filter(_:until:)-(Array)``). A query
/// without `order by` hands its matches back as they come, after skipping `offset` of them,
/// and is ``isComplete`` once `limit` were handed back, so the reader can stop. A query that
/// sorts keeps its matches (only them) until ``finish()``, which sorts and pages them.
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
  public private(set) var query: CompiledQuery<Root>
  /// Faults met so far (filtering, sorting, and `limit`/`offset` themselves).
  public private(set) var faults = FaultCounts()
  /// The records handed back so far.
  public private(set) var emitted = 0
  /// Matches kept for sorting.
  private var kept: [Root] = []
  private let retain: (Root) -> Root
  private let skip: Int
  private let take: Int?
  private var skipped = 0

  /// A run of `query`. A query that sorts keeps its matches until ``finish()``: `retain` makes
  /// the copy it keeps (records that point into a reusable buffer detach from it here).
  public init(_ query: CompiledQuery<Root>, retaining retain: @escaping (Root) -> Root = { $0 }) {
    self.query = query
    self.retain = retain
    (skip, take) = query.page(&faults)
  }

  /// Whether the run needs no more records: the query does not sort and `limit` records
  /// were handed back.
  public var isComplete: Bool {
    guard let take, !query.sorts else { return false }
    return emitted >= take
  }

  /// How many matches are kept for sorting.
  public var keptCount: Int { kept.count }

  /// Filters `batch`; returns the records to hand on now, in order (none when the query
  /// sorts). `stop` is asked every thousand records or so; once it says true the batch's
  /// filtering ends early (the caller, which asked, knows the result is partial).
  public mutating func consume(_ batch: [Root], until stop: () -> Bool = { false }) -> [Root] {
    guard !isComplete else { return [] }
    var matches = batch
    if let filter = query.filter {
      let result = filter.filter(batch, until: stop)
      matches = result.matches
      faults.merge(result.faults)
    }
    if query.sorts {
      kept.reserveCapacity(kept.count + matches.count)
      for record in matches { kept.append(retain(record)) }
      return []
    }
    var start = 0
    if skipped < skip {
      start = Swift.min(skip - skipped, matches.count)
      skipped += start
    }
    var end = matches.count
    if let take { end = Swift.min(end, start + Swift.max(0, take - emitted)) }
    emitted += end - start
    return start == 0 && end == matches.count ? matches : Array(matches[start..<end])
  }

  /// Ends the input: for a query that sorts, its kept matches sorted and paged; else nothing.
  public mutating func finish() -> [Root] {
    guard query.sorts else { return [] }
    let sorted = query.sorted(kept, &faults)
    kept = []
    let page = Array(sorted[CompiledQuery<Root>.window(sorted.count, skip: skip, take: take)])
    emitted += page.count
    return page
  }

  /// Goes on with `query` instead, compiled again for the same query text (as when a data
  /// file's schema grew); kept matches from index `start` on are passed through `update`
  /// first, so that they fit the new query. Paging goes on where it was.
  public mutating func replace(
    with query: CompiledQuery<Root>, updatingKeptFrom start: Int = 0,
    _ update: (Root) -> Root = { $0 }
  ) {
    self.query = query
    for index in Swift.max(start, 0)..<kept.count { kept[index] = update(kept[index]) }
  }
}
