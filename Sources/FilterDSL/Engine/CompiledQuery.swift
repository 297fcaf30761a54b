/// A query compiled for records of type `Root`: a filter, then a stable sort on any number of
/// keys, then `offset` and `limit`.
///
/// Sorting follows SQL: ascending keys put nulls first, descending keys put them last, unless
/// `nulls first` / `nulls last` says otherwise; equal keys keep the records' input order.
public struct CompiledQuery<Root>: @unchecked Sendable {
  /// The query as written, parsed.
  public let query: Query
  /// The query as the checker bound it: what was compiled.
  public let bound: BoundQuery
  /// The compiled filter, or nil when the query has none.
  public private(set) var filter: CompiledFilter<Root>?
  let keys:
    [(value: (Root, inout EvaluationState) -> Value, direction: SortDirection, nullsFirst: Bool)]
  /// When every key is a field held by column: each key's values for many records at once.
  let keyColumns: [@Sendable ([Root]) -> [Value]]?
  /// When every key is a field held by column in a form that orders without its values
  /// (integers, decimals, coded values by rank): each key's sort keys for many records.
  let keySorts: [@Sendable ([Root]) -> SortKeyColumn?]?
  /// For a query whose first key is a field held in a column that orders it: the narrowing
  /// of a selection to the records that come before a given one by that key (strictly when
  /// it is the only key). See ``pruning(_:first:)``.
  let firstKeyBound: (@Sendable (Root) -> Narrowing<Root>?)?
  /// `offset` and `limit`, compiled: they read no record.
  let counts:
    (
      offset: ((Void, inout EvaluationState) -> Value)?,
      limit: ((Void, inout EvaluationState) -> Value)?
    )
  let layout: ParameterLayout
  /// The limits on the work of a run.
  public let limits: EvaluationLimits
  private(set) var bindings: Bindings

  /// Parses, checks and compiles a query such as `price < 1000 order by price desc limit 5`:
  /// ``FilterEnvironment/compileQuery(_:)-(String)``.
  public init(
    _ text: String, for type: RecordType<Root>, parameters: [String: ValueType] = [:],
    functions: FunctionRegistry = .builtins, limits: ParserLimits = .default
  ) throws(FilterError) {
    self = try FilterEnvironment(
      type, parameters: parameters, functions: functions, limits: limits
    ).compileQuery(text)
  }

  /// Checks and compiles a parsed query; `source` is what its ranges point into.
  public init(
    _ query: Query, source: SourceText, for type: RecordType<Root>,
    parameters: [String: ValueType] = [:], functions: FunctionRegistry = .builtins
  ) throws(FilterError) {
    self = try FilterEnvironment(type, parameters: parameters, functions: functions)
      .compileQuery(query, source: source)
  }

  /// Compiles a bound query: one the checker made against `type`'s schema and `parameters`,
  /// or a part a back end split off one (what a database leaves to flt).
  public init(
    _ bound: BoundQuery, for type: RecordType<Root>, parameters: [String: ValueType] = [:],
    limits: EvaluationLimits = .default
  ) {
    self.init(
      bound, as: bound.source, warnings: [], for: type, parameters: parameters, limits: limits)
  }

  /// Compiles a query the checker has bound from `query` (against `type`'s schema and
  /// `parameters`), with its `warnings`, under `limits`: its ``plan`` shows the query as
  /// written.
  public init(
    _ bound: BoundQuery, as query: Query, warnings: [Diagnostic], for type: RecordType<Root>,
    parameters: [String: ValueType], limits: EvaluationLimits = .default
  ) {
    self.query = query
    self.bound = bound
    if let filter = bound.filter, let written = query.filter {
      self.filter = CompiledFilter(
        filter, as: written, warnings: warnings, for: type, parameters: parameters,
        limits: limits)
    }
    let compiler = Compiler(recordType: type)
    keys = bound.ordering.map { key in
      (compiler.operand(key.key).asValue, key.direction, key.nullsFirst)
    }
    var keyColumns: [@Sendable ([Root]) -> [Value]] = []
    var keySorts: [@Sendable ([Root]) -> SortKeyColumn?] = []
    for key in bound.ordering {
      guard case .field(let field) = key.key.kind,
        let values = type.columns?.fieldValues(field)
      else { break }
      keyColumns.append(values)
      if let sorts = type.columns?.sortKeys(field) { keySorts.append(sorts) }
    }
    self.keyColumns = keyColumns.count == keys.count ? keyColumns : nil
    self.keySorts = keySorts.count == keys.count && !keys.isEmpty ? keySorts : nil
    if let first = bound.ordering.first, case .field(let field) = first.key.kind {
      firstKeyBound = type.columns?.sortBound(
        field, first.direction == .descending, first.nullsFirst, bound.ordering.count > 1)
    } else {
      firstKeyBound = nil
    }
    let constant = Compiler(recordType: RecordType<Void>([]))
    counts = (
      bound.offset.map { constant.operand($0).asValue },
      bound.limit.map { constant.operand($0).asValue }
    )
    let layout = ParameterLayout(parameters)
    self.layout = layout
    self.limits = limits
    bindings = layout.bindings(EvaluationContext(), limits: limits)
  }

  /// This query with parameter values (and the clock) bound.
  public func binding(_ parameters: [String: Value], now: Instant? = nil) -> CompiledQuery {
    let context = EvaluationContext(now: now ?? bindings.context.now, parameters: parameters)
    var bound = self
    bound.filter = filter?.binding(parameters, now: context.now)
    bound.bindings = layout.bindings(context, limits: limits)
    return bound
  }

  /// This query, as the checker bound it and with the same values bound, compiled for
  /// records of `type`, whose schema is the one the query was checked against: each block of
  /// a file read by column is a record type of its own, and the query is compiled for each
  /// (see ``QueryExecution/consume(_:compiledAs:making:pruning:until:)``).
  public func compiled<Other>(for type: RecordType<Other>) -> CompiledQuery<Other> {
    CompiledQuery<Other>(
      bound, as: query, warnings: filter?.warnings ?? [], for: type,
      parameters: layout.slots.mapValues(\.type), limits: limits
    ).binding(bindings.context.parameters, now: bindings.context.now)
  }

  /// The compiled chain, as `explain` shows it: paging wraps sorting, which wraps the filter,
  /// `Limit(5, Sort(price desc, Ge(diskSpace, 256)))`; `All` stands for no filter.
  public var plan: Plan {
    var plan = filter?.plan ?? Plan("All", [])
    if !query.ordering.isEmpty {
      let keys = zip(query.ordering, bound.ordering).map { written, key -> String in
        var text = Compiler<Root>.text(key.key) + (key.direction == .descending ? " desc" : "")
        if let nulls = written.nulls { text += " nulls \(nulls.rawValue)" }
        return text
      }
      plan = Plan("Sort", keys.map { .text($0) } + [.plan(plan)])
    }
    if let offset = bound.offset {
      plan = Plan("Offset", [.text(offset.description), .plan(plan)])
    }
    if let limit = bound.limit { plan = Plan("Limit", [.text(limit.description), .plan(plan)]) }
    return plan
  }

  /// The records that match, sorted, paged; and the faults met while filtering and sorting.
  /// The records are filtered in batches (see ``QueryExecution``), and reading stops once the
  /// query has enough (a `limit` and no `order by`). `stop` is asked every thousand records or
  /// so; once it says true the run returns early, with no records. So does a run over its
  /// ``EvaluationLimits`` (see ``FaultCounts/overLimit``).
  public func run<S: Sequence>(_ records: S, until stop: () -> Bool = { false }) -> (
    records: [Root], faults: FaultCounts
  ) where S.Element == Root {
    var execution = QueryExecution(self)
    var results: [Root] = []
    var batch: [Root] = []
    batch.reserveCapacity(CompiledQuery.batchSize)
    func flush() {
      results += execution.consume(batch, until: stop)
      batch.removeAll(keepingCapacity: true)
    }
    for record in records {
      batch.append(record)
      if batch.count == CompiledQuery.batchSize {
        flush()
        if execution.isComplete || stop() { break }
      }
    }
    if !batch.isEmpty && !execution.isComplete && !stop() { flush() }
    if stop() || execution.faults.overLimit != nil { return ([], execution.faults) }
    results += execution.finish()
    return (results, execution.faults)
  }

  /// The records of an array that match, sorted, paged: as above, without copying the array
  /// when the whole of it is one batch.
  public func run(_ records: [Root], until stop: () -> Bool = { false }) -> (
    records: [Root], faults: FaultCounts
  ) {
    // Without a limit to stop at, one batch: the filter splits it into cache-sized pieces.
    guard !sorts, bound.limit != nil else {
      var execution = QueryExecution(self)
      var results = execution.consume(records, until: stop)
      if stop() || execution.faults.overLimit != nil { return ([], execution.faults) }
      results += execution.finish()
      return (results, execution.faults)
    }
    return run(records[...], until: stop)
  }

  /// How many records a run filters at a time when it may stop early.
  static var batchSize: Int { 1024 }

  /// Whether the query has `order by` keys, so it must see every match before the first one
  /// can be shown.
  public var sorts: Bool { !keys.isEmpty }

  /// `offset` and `limit` as counts (null means none, negative means 0), with the bound
  /// parameters. They read no record.
  func page(_ faults: inout FaultCounts) -> (skip: Int, take: Int?) {
    withExtendedLifetime(bindings) {
      var run = EvaluationState(bindings: bindings)
      func count(_ value: ((Void, inout EvaluationState) -> Value)?) -> Int? {
        guard let value, case .int(let n) = value((), &run) else { return nil }
        return Int(Swift.max(0, Swift.min(n, Int64(Int.max / 2))))
      }
      let page = (count(counts.offset) ?? 0, count(counts.limit))
      faults.merge(run.faults)
      return page
    }
  }

  /// The indices of `count` sorted records that `offset` (`skip`) and `limit` (`take`) keep.
  static func window(_ count: Int, skip: Int, take: Int?) -> Range<Int> {
    let start = Swift.min(Swift.max(skip, 0), count)
    let end = take.map { Swift.min(count, start + Swift.max($0, 0)) } ?? count
    return start..<end
  }

  /// `records` in the query's order: a stable sort that computes each record's keys once.
  /// With `first`, only that many of the first records, in order (a bounded heap, rather than
  /// sorting all of them).
  func sorted(_ records: [Root], _ faults: inout FaultCounts, first: Int? = nil) -> [Root] {
    let directions = keys.map { ($0.direction == .descending, $0.nullsFirst) }
    // Keys that order without their values: compared as integers or decimals.
    if let keySorts {
      let typed = keySorts.compactMap { $0(records) }
      if typed.count == keySorts.count {
        return SortOrder.order(typed, keys: directions, count: records.count, first: first)
          .map { records[$0] }
      }
    }
    return withExtendedLifetime(bindings) {
      let start = faults.cost
      var run = EvaluationState(bindings: bindings, spent: start)
      var values: [Value] = []
      values.reserveCapacity(records.count * keys.count)
      if let keyColumns {
        // Fields read from their columns (a field read costs nothing, faults never).
        let columns = keyColumns.map { $0(records) }
        for row in records.indices {
          for column in columns { values.append(column[row]) }
        }
      } else {
        for record in records {
          run.beginRecord()
          for key in keys { values.append(key.value(record, &run)) }
        }
      }
      faults.merge(run.outcome(since: start))
      guard faults.overLimit == nil else { return [] }
      let order = SortOrder.order(values, keys: directions, count: records.count, first: first)
      return order.map { records[$0] }
    }
  }

  /// For a query whose keys all order typed (``keySorts``): how a filter prunes matches of
  /// `records` (indices into it, ascending) to those that may be among the query's first
  /// `first`, ascending again: the first `first` of them in the query's order. (Ties go by
  /// index, as in ``sorted(_:_:first:)``, so the first of what each part keeps are the first
  /// of all.) Nil for other queries: their keys may fault, and a key's faults count only for
  /// the records that are sorted. Where the first key is a column that can bound a
  /// selection and the filter cannot fault, records after those kept are tested against the
  /// last of them first (see ``CompiledFilter/Pruning/bound``): by that key alone, strictly
  /// when it is the only key (a later record that ties comes after).
  @usableFromInline func pruning(_ records: [Root], first: Int) -> CompiledFilter<Root>.Pruning? {
    guard let keySorts, let filter, first >= 0 else { return nil }
    let gather = filter.gather
    let directions = keys.map { (descending: $0.direction == .descending, $0.nullsFirst) }
    let shared = SharedRecords(items: records)
    return CompiledFilter<Root>.Pruning(
      prune: { indices in
        guard indices.count >= first else { return (indices, nil) }
        let valid = indices.filter { $0 >= 0 && $0 < shared.items.count }
        // (Through the record type's gather, which is specialized for it: this closure is
        // not.)
        var chosen: [Root] = []
        gather(shared.items, valid, &chosen)
        guard chosen.count == valid.count else { return (indices, nil) }
        let typed = keySorts.compactMap { $0(chosen) }
        guard typed.count == keySorts.count else { return (indices, nil) }
        let order = SortOrder.order(typed, keys: directions, count: chosen.count, first: first)
        let last = order.count == first ? order.last.map { valid[$0] } : nil
        return (order.sorted().map { valid[$0] }, last)
      }, bound: filter.bound.mayFault ? nil : firstKeyBound)
  }

}

/// Records a pruning reads on the cores that filter them (read only).
private struct SharedRecords<Root>: @unchecked Sendable {
  let items: [Root]
}
