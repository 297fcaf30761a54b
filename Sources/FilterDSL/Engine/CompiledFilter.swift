import Dispatch

/// A filter compiled for records of type `Root`: parse, check and compile once, then test
/// many records, from any number of threads.
///
/// ```swift
/// let filter = try CompiledFilter("price <= $budget and color in (Starlight, Midnight)",
///                                 for: phones, parameters: ["budget": .int])
/// let affordable = catalog.filter(filter.binding(["budget": .int(1000)]).matches)
/// ```
///
/// A record matches only when the filter is true for it (SQL's three-valued logic: a
/// comparison with a null or missing value is unknown). Faults such as an integer overflow
/// make the operation unknown for that record; ``evaluate(_:faults:)`` counts them.
///
/// Immutable; `Sendable` because its closures capture only immutable values.
public struct CompiledFilter<Root>: @unchecked Sendable {
  /// The filter as written, parsed.
  public let filter: Expr
  /// The filter as the checker bound it: what was compiled.
  public let bound: BoundExpr
  /// The compiled chain of strategies, for `explain`.
  public let plan: Plan
  /// Warnings found while checking (such as a value no record has); compilation went on.
  public let warnings: [Diagnostic]
  /// The clock and parameter values used when evaluating.
  public var context: EvaluationContext { bindings.context }
  @usableFromInline let test: (Root, inout EvaluationState) -> Truth
  let select: Selector<Root>?
  let gather: @Sendable ([Root], [Int], inout [Root]) -> Void
  /// Whether big arrays are filtered in chunks on every core (records held by column).
  let parallel: Bool
  let layout: ParameterLayout
  /// The limits on the work of an evaluation.
  public let limits: EvaluationLimits
  @usableFromInline private(set) var bindings: Bindings

  /// Parses, checks and compiles `text`: ``FilterEnvironment/compileFilter(_:)-(String)``.
  /// Throws every error (and warnings along with them); warnings alone do not stop
  /// compilation, and are kept in ``warnings``.
  public init(
    _ text: String, for type: RecordType<Root>, parameters: [String: ValueType] = [:],
    functions: FunctionRegistry = .builtins, limits: ParserLimits = .default
  ) throws(FilterError) {
    self = try FilterEnvironment(
      type, parameters: parameters, functions: functions, limits: limits
    ).compileFilter(text)
  }

  /// Checks and compiles a parsed filter; `source` is what its ranges point into.
  public init(
    _ filter: Expr, source: SourceText, for type: RecordType<Root>,
    parameters: [String: ValueType] = [:], functions: FunctionRegistry = .builtins
  ) throws(FilterError) {
    self = try FilterEnvironment(type, parameters: parameters, functions: functions)
      .compileFilter(filter, source: source)
  }

  /// Compiles a filter the checker has bound (against `type`'s schema and `parameters`);
  /// `filter` is the filter as written.
  init(
    _ bound: BoundExpr, as filter: Expr, warnings: [Diagnostic], for type: RecordType<Root>,
    parameters: [String: ValueType], limits: EvaluationLimits = .default
  ) {
    let layout = ParameterLayout(parameters)
    let node = Compiler(recordType: type).node(bound)
    self.filter = filter
    self.bound = bound
    self.warnings = warnings
    self.plan = node.plan
    self.test = node.test
    self.select = type.columns?.vectorize(bound) ?? node.select
    self.gather = type.gather
    self.parallel = type.columns != nil
    self.layout = layout
    self.limits = limits
    self.bindings = layout.bindings(EvaluationContext(), limits: limits)
  }

  /// This filter with parameter values (and the clock for `now()` / `today()`) bound.
  /// Unbound parameters are null.
  public func binding(_ parameters: [String: Value], now: Instant? = nil) -> CompiledFilter {
    var bound = self
    bound.bindings = layout.bindings(
      EvaluationContext(now: now ?? context.now, parameters: parameters), limits: limits)
    return bound
  }

  /// Whether `record` matches: the filter is true for it.
  @inlinable public func matches(_ record: Root) -> Bool {
    evaluate(record) == .true
  }

  /// The filter's truth for `record`. Inlinable, like ``matches(_:)``: the embedder's loop
  /// then calls the compiled closures with no generic entry point, record copy or metadata
  /// lookup in between.
  @inlinable public func evaluate(_ record: Root) -> Truth {
    // The state does not retain the bindings (see ``EvaluationState/bindings``): this filter
    // holds them, and is kept alive until the test has run (inlined, its caller's last use
    // of it could otherwise come before the call). Borrowed, it costs no retain.
    withExtendedLifetime(self) {
      var run = EvaluationState(bindings: bindings)
      return test(record, &run)
    }
  }

  /// The filter's truth for `record`, adding the faults met and the cost spent to `faults`.
  /// Under ``EvaluationLimits``, the record may cost up to the per-record limit and `faults`'
  /// cost so far counts towards the per-run limit: once ``FaultCounts/overLimit`` is set, the
  /// truth is unknown and the caller must stop and report it.
  public func evaluate(_ record: Root, faults: inout FaultCounts) -> Truth {
    withExtendedLifetime(bindings) {
      let start = faults.cost
      var run = EvaluationState(bindings: bindings, spent: start)
      let truth = test(record, &run)
      faults.merge(run.outcome(since: start))
      return faults.overLimit == nil ? truth : .unknown
    }
  }

  /// The records of `records` that match, in order. A filter made of fields compared with
  /// constants, joined by `and`, runs over the whole array test by test, each test a loop
  /// specialized where the field was declared; other filters run record by record.
  ///
  /// `stop` is asked every thousand records or so; once it says true the filter returns
  /// what it found so far (the caller, which asked to stop, knows the result is partial).
  /// A run over its ``EvaluationLimits`` returns no matches, and says so in
  /// ``FaultCounts/overLimit``.
  public func filter(_ records: [Root], until stop: () -> Bool = { false }) -> (
    matches: [Root], faults: FaultCounts
  ) {
    var faults = FaultCounts()
    let matches = filter(records, until: stop, faults: &faults)
    return (matches, faults)
  }

  /// How many records of `records` match, and the faults met, without collecting them (what
  /// a `count` needs); `stop` as above. A run over its limits counts none.
  public func count(_ records: [Root], until stop: () -> Bool = { false }) -> (
    count: Int, faults: FaultCounts
  ) {
    var faults = FaultCounts()
    let selected = matching(records, until: stop, faults: &faults, keeping: false)
    return (faults.overLimit == nil ? selected.count : 0, faults)
  }

  /// The records of `records` that match, adding to `faults` (whose cost so far counts
  /// towards the per-run limit); none once the run is over a limit.
  @usableFromInline func filter(
    _ records: [Root], in range: Range<Int>? = nil, until stop: () -> Bool,
    faults: inout FaultCounts, pruning prune: Pruning? = nil
  ) -> [Root] {
    var matches: [Root] = []
    let range = (range ?? 0..<records.count).clamped(to: 0..<records.count)
    guard prune != nil || (parallel && select != nil && range.count >= 2 * CompiledFilter.chunk)
    else {
      // Each batch's matches copied while its records are still in cache (gathered at the
      // end, records of a big array were read from memory a second time: half the time of a
      // filter over a million structs).
      forEachBatch(records, in: range, until: stop, spent: faults.cost, faults: &faults) {
        gather(records, $0, &matches)
      }
      return faults.overLimit == nil ? matches : []
    }
    let selected = matching(
      records, in: range, until: stop, faults: &faults, keeping: true, pruning: prune
    ).indices
    guard faults.overLimit == nil else { return [] }
    gather(records, selected, &matches)
    return matches
  }

  /// The indices of the records of `records` that match, in order; `stop` as above. The cost
  /// in `faults` so far counts towards the per-run limit.
  func selection(_ records: [Root], until stop: () -> Bool, faults: inout FaultCounts) -> [Int] {
    matching(records, until: stop, faults: &faults, keeping: true).indices
  }

  /// How a query with `order by` and `limit` keeps, of a filter's matches, only those that
  /// may still be among the first records it returns (see
  /// ``CompiledQuery/pruning(_:first:)``): each chunk's matches are pruned on the core that
  /// found them, instead of keeping every match to sort at the end.
  @usableFromInline struct Pruning: Sendable {
    /// Keeps, of the indices of some matches (ascending), those that may still be among the
    /// first, ascending; with the index of the one of them that comes last in the query's
    /// order once they are as many as the first (nil while they are fewer).
    let prune: @Sendable ([Int]) -> (kept: [Int], last: Int?)
    /// Given the record that comes last of those kept: a narrowing of a selection to the
    /// records that may still come before it, tested before the filter on the records
    /// after it (nil when the query's first key cannot be tested so, or the filter may
    /// fault: skipping its evaluation would not count the faults).
    let bound: (@Sendable (Root) -> Narrowing<Root>?)?
  }

  /// How many records of `records` match and, when `keeping`, their indices in order (a
  /// count keeps none), pruned by `prune` if given (the count is of all matches); `stop` and
  /// `faults` as in ``selection(_:until:faults:)``.
  private func matching(
    _ records: [Root], in range: Range<Int>? = nil, until stop: () -> Bool,
    faults: inout FaultCounts, keeping: Bool, pruning prune: Pruning? = nil
  ) -> (indices: [Int], count: Int) {
    let range = (range ?? 0..<records.count).clamped(to: 0..<records.count)
    if parallel, select != nil, range.count >= 2 * CompiledFilter.chunk {
      return parallelSelection(
        records, in: range, until: stop, faults: &faults, keeping: keeping, pruning: prune)
    }
    var selected: [Int] = []
    var count = 0
    forEachBatch(records, in: range, until: stop, spent: faults.cost, faults: &faults) {
      count += $0.count
      if keeping { selected += $0 }
    }
    return (prune.map { $0.prune(selected).kept } ?? selected, count)
  }

  /// How many records a thread filters at a time when a big array is split across cores.
  static var chunk: Int { 32_768 }

  /// The indices of the matching records, in order: the array in chunks, each filtered by the
  /// batch selection on a core of its own (with its own state: parameters, faults, the
  /// memo of tests on coded columns), in rounds of a few chunks; `stop` is asked between
  /// rounds. Only for records held by column, whose selection reads immutable buffers.
  private func parallelSelection(
    _ records: [Root], in range: Range<Int>, until stop: () -> Bool, faults: inout FaultCounts,
    keeping: Bool, pruning prune: Pruning?
  ) -> (indices: [Int], count: Int) {
    let chunk = CompiledFilter.chunk
    var selected: [Int] = []
    var matched = 0
    var start = range.lowerBound
    // Once a sorted query has its first matches, the rounds after test its first key first.
    var narrowing: Narrowing<Root>? = nil
    while start < range.upperBound, faults.overLimit == nil, !stop() {
      // (A sorted query that can bound the rows after its first matches looks for them in a
      // first round of a chunk a core: the rounds after it are narrowed.)
      let chunks = prune?.bound != nil && start == range.lowerBound ? 2 : 8
      let roundEnd = Swift.min(start + chunk * chunks, range.upperBound)
      let count = (roundEnd - start + chunk - 1) / chunk
      var parts = [[Int]](repeating: [], count: count)
      var partCounts = [Int](repeating: 0, count: count)
      var partFaults = [FaultCounts](repeating: FaultCounts(), count: count)
      let roundStart = start
      parts.withUnsafeMutableBufferPointer { parts in
        partCounts.withUnsafeMutableBufferPointer { partCounts in
          partFaults.withUnsafeMutableBufferPointer { partFaults in
            let work = ParallelWork(
              filter: self, records: records, spent: faults.cost, keeping: keeping,
              prune: prune, narrowing: narrowing, parts: parts, counts: partCounts,
              faults: partFaults)
            DispatchQueue.concurrentPerform(iterations: count) { part in
              let from = roundStart + part * chunk
              work.run(from..<Swift.min(from + chunk, roundEnd), into: part)
            }
          }
        }
      }
      for part in parts { selected += part }
      // (Each part was pruned on its own; what they keep together, pruned again, is what
      // the whole would keep.)
      if let prune {
        let (kept, last) = prune.prune(selected)
        selected = kept
        if let last, let bound = prune.bound, last >= 0, last < records.count {
          narrowing = bound(records[last])
        }
      }
      matched += partCounts.reduce(0, +)
      for partFaults in partFaults { faults.merge(partFaults) }
      faults.check(bindings.limits)
      start = roundEnd
    }
    return (selected, matched)
  }

  /// Calls `body` with the indices of the matching records of each batch of 1,024 records
  /// (small enough to stay in cache while every test and `body` pass over them), in order;
  /// only the records at `range` when given. The run has spent `spent` cost units before;
  /// it stops once over a limit (``FaultCounts/overLimit`` in `faults`). With `narrowing`,
  /// only the records it keeps are filtered (and counted).
  func forEachBatch(
    _ records: [Root], in range: Range<Int>? = nil, until stop: () -> Bool, spent: Int,
    faults: inout FaultCounts, narrowing: Narrowing<Root>? = nil, _ body: ([Int]) -> Void
  ) {
    let batch = 1024
    var selection: [Int] = []
    selection.reserveCapacity(batch)
    let range = range ?? 0..<records.count
    var start = range.lowerBound
    // The memo of tests on coded columns, kept from batch to batch; the state does not
    // retain it (nor the bindings): both are held here until the run ends.
    let memo = VectorMemo()
    withExtendedLifetime((bindings, memo)) {
      var run = EvaluationState(bindings: bindings, spent: spent)
      run.memo = memo
      while start < range.upperBound, run.faults.overLimit == nil, !stop() {
        let end = Swift.min(start + batch, range.upperBound)
        if let rulesOut = narrowing?.rulesOut, rulesOut(records, start..<end) {
          // (No record of the batch is wanted: none is read.)
          start = end
          continue
        }
        selection.removeAll(keepingCapacity: true)
        if let select {
          // The batch's positions, written in place (appending a range went element by
          // element: 8% of a query over a million rows).
          selection.append(contentsOf: repeatElement(0, count: end - start))
          selection.withUnsafeMutableBufferPointer { positions in
            for index in positions.indices { positions[index] = start &+ index }
          }
          narrowing?.select(records, &selection, &run)
          select(records, &selection, &run)
        } else {
          for index in start..<end {
            run.beginRecord()
            if test(records[index], &run) == .true { selection.append(index) }
          }
        }
        if run.faults.overLimit != nil { break }
        body(selection)
        start = end
      }
      faults.merge(run.outcome(since: spent))
    }
  }

  /// The records of `records` that match, in order, and the faults met; `stop` as above.
  public func filter<S: Sequence>(_ records: S, until stop: () -> Bool = { false }) -> (
    matches: [Root], faults: FaultCounts
  ) where S.Element == Root {
    var faults = FaultCounts()
    var matches: [Root] = []
    var seen = 0
    for record in records {
      seen &+= 1
      if seen & 1023 == 0, stop() { break }
      if evaluate(record, faults: &faults) == .true { matches.append(record) }
      if faults.overLimit != nil { return ([], faults) }
    }
    return (matches, faults)
  }
}

/// What the threads of a parallel selection share: the filter and the records, read only,
/// and one result slot per chunk, each written by the one thread filtering that chunk.
private struct ParallelWork<Root>: @unchecked Sendable {
  let filter: CompiledFilter<Root>
  let records: [Root]
  /// The cost the run spent before this round.
  let spent: Int
  /// Whether the indices are kept (a count keeps only how many), and how they are pruned.
  let keeping: Bool
  let prune: CompiledFilter<Root>.Pruning?
  /// What narrows each batch before the filter (see ``CompiledFilter/Pruning/bound``).
  let narrowing: Narrowing<Root>?
  let parts: UnsafeMutableBufferPointer<[Int]>
  let counts: UnsafeMutableBufferPointer<Int>
  let faults: UnsafeMutableBufferPointer<FaultCounts>

  /// Filters the records at `range` into slot `part`.
  func run(_ range: Range<Int>, into part: Int) {
    var kept: [Int] = []
    var count = 0
    var faults = FaultCounts()
    filter.forEachBatch(
      records, in: range, until: { false }, spent: spent, faults: &faults, narrowing: narrowing
    ) {
      count += $0.count
      if keeping { kept += $0 }
    }
    parts[part] = prune.map { $0.prune(kept).kept } ?? kept
    counts[part] = count
    self.faults[part] = faults
  }
}
