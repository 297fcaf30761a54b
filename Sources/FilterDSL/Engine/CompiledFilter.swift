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
  let test: (Root, inout EvaluationState) -> Truth
  let select: Selector<Root>?
  let gather: @Sendable ([Root], [Int], inout [Root]) -> Void
  let layout: ParameterLayout
  private(set) var bindings: Bindings

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
    parameters: [String: ValueType]
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
    self.layout = layout
    self.bindings = layout.bindings(EvaluationContext())
  }

  /// This filter with parameter values (and the clock for `now()` / `today()`) bound.
  /// Unbound parameters are null.
  public func binding(_ parameters: [String: Value], now: Instant? = nil) -> CompiledFilter {
    var bound = self
    bound.bindings = layout.bindings(
      EvaluationContext(now: now ?? context.now, parameters: parameters))
    return bound
  }

  /// Whether `record` matches: the filter is true for it.
  @inlinable public func matches(_ record: Root) -> Bool {
    evaluate(record) == .true
  }

  /// The filter's truth for `record`.
  public func evaluate(_ record: Root) -> Truth {
    withExtendedLifetime(bindings) {
      var run = EvaluationState(bindings: bindings)
      return test(record, &run)
    }
  }

  /// The filter's truth for `record`, adding the faults met to `faults`.
  public func evaluate(_ record: Root, faults: inout FaultCounts) -> Truth {
    withExtendedLifetime(bindings) {
      var run = EvaluationState(bindings: bindings)
      let truth = test(record, &run)
      faults.merge(run.faults)
      return truth
    }
  }

  /// The records of `records` that match, in order. A filter made of fields compared with
  /// constants, joined by `and`, runs over the whole array test by test, each test a loop
  /// specialized where the field was declared; other filters run record by record.
  ///
  /// `stop` is asked every thousand records or so; once it says true the filter returns
  /// what it found so far (the caller, which asked to stop, knows the result is partial).
  public func filter(_ records: [Root], until stop: () -> Bool = { false }) -> (
    matches: [Root], faults: FaultCounts
  ) {
    var matches: [Root] = []
    var faults = FaultCounts()
    forEachBatch(records, until: stop, faults: &faults) { gather(records, $0, &matches) }
    return (matches, faults)
  }

  /// The indices of the records of `records` that match, in order; `stop` as above.
  func selection(_ records: [Root], until stop: () -> Bool, faults: inout FaultCounts) -> [Int] {
    var selected: [Int] = []
    forEachBatch(records, until: stop, faults: &faults) { selected += $0 }
    return selected
  }

  /// Calls `body` with the indices of the matching records of each batch of 1,024 records
  /// (small enough to stay in cache while every test and `body` pass over them), in order.
  private func forEachBatch(
    _ records: [Root], until stop: () -> Bool, faults: inout FaultCounts, _ body: ([Int]) -> Void
  ) {
    let batch = 1024
    var selection: [Int] = []
    selection.reserveCapacity(batch)
    var start = 0
    var run = EvaluationState(bindings: bindings)
    defer { faults.merge(run.faults) }
    while start < records.count, !stop() {
      let end = Swift.min(start + batch, records.count)
      selection.removeAll(keepingCapacity: true)
      if let select {
        selection.append(contentsOf: start..<end)
        withExtendedLifetime(bindings) { select(records, &selection, &run) }
      } else {
        for index in start..<end where evaluate(records[index], faults: &faults) == .true {
          selection.append(index)
        }
      }
      body(selection)
      start = end
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
    }
    return (matches, faults)
  }
}
