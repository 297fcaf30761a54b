import FilterDSL

/// Counts the values of some fields among the records a ``Scan`` hands over (every record: the
/// sink filters them itself), block by block: `flt --facets color,storage FILTER FILE`. The
/// counts are disjunctive, as `FacetCounter` makes them: each field's counts ignore the
/// parts of the filter that read only that field.
///
/// ```swift
/// let scan = try Scan(file: "phones.json", query: "")
/// let sink = try FacetSink(
///   [FieldPath("color")], filter: try Parser.parseFilter("color == Gold").get(),
///   source: SourceText("color == Gold"), for: scan.first)
/// _ = try scan.run(into: sink)
/// print(sink.counts.facets)
/// ```
public final class FacetSink: SummarySink {
  private let counter: FacetCounter<DataRecord>
  private var tally = FacetTally()
  private var pending: [DataRecord] = []
  private let filterFields: [String]
  /// The schema the facets were checked against: a batch read under it is counted by its
  /// columns.
  private let schema: Schema

  /// Checks the counting of `fields` among the records of `records` matching `filter` (every
  /// record when nil), with parameters of these types and values, at `now`; `source` is the
  /// text the filter's ranges point into, `fieldsSource` the fields' (the filter's when nil).
  /// Throws every error.
  public init(
    _ fields: [FieldPath], filter: Expr?, source: SourceText, fieldsSource: SourceText? = nil,
    for records: any RecordSource, parameterTypes: [String: ValueType] = [:],
    parameters: [String: Value] = [:], now: Instant? = nil, limits: EvaluationLimits = .default
  ) throws(FilterError) {
    let environment = FilterEnvironment(
      DataRecord.valueType(records.schema), parameters: parameterTypes,
      evaluationLimits: limits)
    if let fieldsSource {
      // The fields first, so that an error in them points into their own text.
      _ = try environment.facets(fields, filter: nil, source: fieldsSource)
    }
    counter = try environment.facets(fields, filter: filter, source: source).binding(
      parameters, now: now)
    filterFields = filter?.fieldNames ?? []
    schema = records.schema
  }

  /// The fields counted and those the filter reads.
  public var fieldNames: Set<String> {
    Set(counter.fields.compactMap { $0.components.first?.text } + filterFields)
  }

  /// The records counted so far.
  public var count: Int { computed?.matches ?? tally.matches }
  /// The counts a source made itself (``AggregatingSource``), if it did.
  private var computed: FacetCounts?

  /// The counts `source` makes itself, when it can (a database's `GROUP BY`s): how many
  /// records match the whole filter.
  public func summary(
    from source: any RecordSource, _ query: BoundQuery, parameters: [String: Value],
    now: Instant
  ) throws -> Int? {
    guard let (source, counter) = aggregating(source, query),
      let counts = try source.facets(counter, parameters: parameters, now: now)
    else { return nil }
    computed = counts
    return counts.matches
  }

  /// `source` as a source that counts facets itself, and the counter compiled for its rows;
  /// nil when it is not one, or the scan filters (the sink filters itself: a scan's query has
  /// no filter here).
  private func aggregating(_ source: any RecordSource, _ query: BoundQuery) -> (
    any AggregatingSource, FacetCounter<[Value]>
  )? {
    guard query.filter == nil, let source = source as? any AggregatingSource else { return nil }
    return (source, counter.compiled(for: .dynamic(source.schema)))
  }

  /// The statements a database counts the facets by.
  public func explanation(
    from source: any RecordSource, _ query: BoundQuery, parameters: [String: Value], now: Instant
  ) -> String? {
    guard let (source, counter) = aggregating(source, query) else { return nil }
    return source.explanation(of: counter, parameters: parameters, now: now)
  }

  /// The counts, once the scan has run: each field's values, most frequent first.
  public var counts: FacetCounts {
    if let computed { return computed }
    var counts = tally.result(counter.fields)
    if tally.counts.isEmpty {
      // (Nothing counted: every field, with no value.)
      counts.facets = counter.fields.map { FacetCounts.Facet(field: $0, counts: [], records: 0) }
    }
    return counts
  }

  /// A row per value of each field: the field, the value, and how many records have it.
  public var rowSchema: Schema {
    // The values' column takes the fields' type when they share one.
    let types = Set(
      counter.counted.map { field -> ValueType in
        if case .list(let element) = field.field.type { return element }
        return field.field.type
      })
    let valueType = types.count == 1 ? types.first ?? .string : .string
    return Schema([
      Schema.Field("field", .string), Schema.Field("value", valueType, optional: true),
      Schema.Field("count", .int),
    ])
  }

  /// The rows of ``rowSchema``, the faults met filtering, and a line saying how many records
  /// matched the whole filter.
  public var summary: (rows: [[Value]], faults: FaultCounts, notes: [String]) {
    let counts = self.counts
    let rows = counts.facets.flatMap { facet in
      facet.counts.map { [.string(facet.field.dotted), $0.value, .int(Int64($0.count))] }
    }
    return (rows, counts.faults, [])
  }

  /// Counts `record` (in batches: a record waits for its block's end).
  public func write(_ record: DataRecord) {
    pending.append(record)
    if pending.count >= 4096 { flush() }
  }

  /// Counts the rows of `batch` by its columns (coded fields by their codes), without a
  /// record per row: when the batch was read under the schema the facets were checked
  /// against; else as records.
  public func write(_ batch: RecordBatch, rows: [Int]) {
    guard batch.table.schema == schema else {
      for record in batch.records(rows, makingText: false) { write(record) }
      return
    }
    flush()
    tally.merge(counter.compiled(for: batch.table.recordType).tally(rows))
    batchesByColumn += 1
  }

  /// How many batches were counted by their columns.
  private(set) var batchesByColumn = 0

  /// Counts the block's records.
  public func endOfBlock() { flush() }

  /// Counts what is left.
  public func finish() { flush() }

  /// Only values are read.
  public var readsRecordText: Bool { false }

  private func flush() {
    guard !pending.isEmpty else { return }
    tally.merge(counter.tally(pending))
    pending.removeAll(keepingCapacity: true)
  }
}
