/// A `stats` compiled for records of type `Root`: the filter, the keys and the aggregates'
/// values, each compiled once; run over records in memory, or fed the matches of a scan.
///
/// ```swift
/// let stats = try FilterEnvironment(phones).compileStats("mean(price), max(price) by color")
/// for row in stats.run(catalog).rows { print(row) }
/// ```
///
/// Every engine computes a `stats` this way: a session's columns, a scan of files or of a
/// database table (which filters the records first, then hands the matches to ``add(_:to:until:)``).
public struct StatsCounter<Root>: @unchecked Sendable {
  /// What is computed, checked.
  public let stats: BoundStats
  /// The filter, compiled (nil: every record is aggregated).
  public private(set) var filter: CompiledFilter<Root>?
  private let keys: [(Root, inout EvaluationState) -> Value]
  /// Each aggregate's argument (nil: `count()`).
  private let values: [((Root, inout EvaluationState) -> Value)?]
  /// The fast form over records held by column, when the stats have one.
  private let columns: ColumnStats<Root>?
  private let layout: ParameterLayout
  private let limits: EvaluationLimits
  private var bindings: Bindings

  /// Compiles `stats`, which the checker bound against `type`'s schema and `parameters`.
  public init(
    _ stats: BoundStats, for type: RecordType<Root>, parameters: [String: ValueType] = [:],
    limits: EvaluationLimits = .default
  ) {
    self.stats = stats
    let compiler = Compiler(recordType: type)
    keys = stats.groups.map { compiler.operand($0.key).asValue }
    values = stats.aggregates.map { $0.argument.map { compiler.operand($0).asValue } }
    filter = stats.filter.map {
      CompiledFilter(
        $0, as: $0.source, warnings: [], for: type, parameters: parameters, limits: limits)
    }
    columns = type.columns.flatMap { ColumnStats(stats, $0) }
    layout = ParameterLayout(parameters)
    self.limits = limits
    bindings = layout.bindings(EvaluationContext(), limits: limits)
  }

  /// These stats with parameter values (and the clock) bound.
  public func binding(_ parameters: [String: Value], now: Instant? = nil) -> StatsCounter {
    var bound = self
    bound.filter = filter?.binding(parameters, now: now)
    let context = EvaluationContext(now: now ?? bindings.context.now, parameters: parameters)
    bound.bindings = layout.bindings(context, limits: limits)
    return bound
  }

  /// These stats, as the checker bound them and with the same values bound, compiled for
  /// records of `type`, whose schema is the one they were checked against: a batch of a file
  /// read by column is a record type of its own (as ``CompiledQuery/compiled(for:)`` does for
  /// a query).
  public func compiled<Other>(for type: RecordType<Other>) -> StatsCounter<Other> {
    var other = StatsCounter<Other>(
      stats, for: type, parameters: layout.slots.mapValues(\.type), limits: limits)
    if filter == nil { other.filter = nil }
    return other.binding(bindings.context.parameters, now: bindings.context.now)
  }

  /// The same stats without their filter: for records filtered already (a scan's matches).
  public var withoutFilter: StatsCounter {
    var copy = self
    copy.filter = nil
    return copy
  }

  /// The stats of the records of `records` that match the filter. `stop` is asked now and
  /// then; once it says true the result covers the records seen so far. A run over the
  /// ``EvaluationLimits`` has no rows, and its ``StatsResult/faults`` say which limit.
  public func run(_ records: [Root], until stop: () -> Bool = { false }) -> StatsResult {
    var tally = StatsTally(stats)
    if let columns {
      // (Each batch's matches aggregated as the filter finds them: no array of the matches.)
      columns.add(records, filter: filter, to: &tally, until: stop)
    } else {
      var faults = FaultCounts()
      let matches = filter?.filter(records, until: stop, faults: &faults) ?? records
      tally.faults.merge(faults)
      if faults.overLimit == nil { add(matches, to: &tally, until: stop) }
    }
    guard tally.faults.overLimit == nil else {
      return StatsResult(
        schema: stats.schema, rows: [], records: 0, faults: tally.faults, beyondIntegers: [])
    }
    return tally.result()
  }

  /// Adds every record of `records` to `tally` (the filter is not asked: they match already).
  public func add(_ records: [Root], to tally: inout StatsTally, until stop: () -> Bool = { false })
  {
    if let columns {
      columns.add(records, filter: nil, to: &tally, until: stop)
      return
    }
    withExtendedLifetime(bindings) {
      let start = tally.faults.cost
      var run = EvaluationState(bindings: bindings, spent: start)
      var key = [Value](repeating: .null, count: keys.count)
      var arguments = [Value?](repeating: nil, count: values.count)
      for index in records.indices {
        if index & 1023 == 1023, stop() { break }
        run.beginRecord()
        let record = records[index]
        for column in keys.indices { key[column] = keys[column](record, &run) }
        for column in values.indices { arguments[column] = values[column]?(record, &run) }
        tally.add(key: key, values: arguments)
        if index & 1023 == 1023, run.faults.overLimit != nil { break }
      }
      tally.faults.merge(run.outcome(since: start))
    }
  }
}

extension FilterEnvironment {
  /// Checks `stats` against the records' schema, and its estimated cost against
  /// ``evaluationLimits``.
  public func check(_ stats: StatsQuery) -> Checked<BoundStats> {
    let checked = Checker.check(
      stats, schema: schema, parameters: parameters, functions: functions)
    guard let tree = checked.tree else { return checked }
    // Each key and value is evaluated once per record, as a sort key is.
    let estimate = BoundQuery(
      filter: tree.filter,
      ordering: tree.groups.map { BoundSortKey($0.key, .ascending, nullsFirst: false) }
        + tree.aggregates.compactMap(\.argument).map {
          BoundSortKey($0, .ascending, nullsFirst: false)
        })
    guard let error = evaluationLimits.check(estimate) else { return checked }
    return Checked(tree: nil, diagnostics: (checked.diagnostics + [error]).sortedByPosition())
  }

  /// Parses, checks and compiles stats such as `mean(price), max(price) by color where
  /// storage >= 256` (see ``StatsQuery``).
  public func compileStats(_ text: String) throws(FilterError) -> StatsCounter<Root> {
    let source = SourceText(text, name: "<stats>")
    return try compileStats(Parser.parseStats(source, limits: limits).get(), source: source)
  }

  /// Checks and compiles parsed stats; `source` is what their ranges point into.
  public func compileStats(_ stats: StatsQuery, source: SourceText) throws(FilterError)
    -> StatsCounter<Root>
  {
    let bound = try check(stats).get(source)
    return StatsCounter(
      bound, for: recordType, parameters: parameters, limits: evaluationLimits)
  }
}
