import FilterDSL

/// Aggregates the records a ``Scan`` hands over (which match its filter already): `flt
/// --stats`, a session's `stats` over a database table. The scan filters; this sink tallies
/// the keys and aggregates of each match (see `StatsCounter`).
///
/// ```swift
/// let stats = try Parser.parseStats(SourceText("mean(price) by color")).get()
/// let scan = try Scan(file: "phones.json", query: "storage >= 256")
/// let sink = try StatsSink(stats, source: SourceText("mean(price) by color"), for: scan.first)
/// let summary = try scan.run(into: sink)
/// print(sink.result.rows, summary.faults)
/// ```
public final class StatsSink: RecordSink {
  /// The stats, checked (without their filter, which the scan runs).
  public var stats: BoundStats { counter.stats }
  private let counter: StatsCounter<DataRecord>
  private var tally: StatsTally
  private var pending: [DataRecord] = []
  /// The schema the stats were checked against: a batch read under it is tallied by its
  /// columns.
  private let schema: Schema

  /// Checks `stats`' keys and aggregates against the records of `records` (with parameters
  /// of these types and values, at `now`); `source` is the text their ranges point into. The
  /// stats' filter is left to the scan. Throws every error.
  public init(
    _ stats: StatsQuery, source: SourceText, for records: any RecordSource,
    parameterTypes: [String: ValueType] = [:], parameters: [String: Value] = [:],
    now: Instant? = nil, limits: EvaluationLimits = .default
  ) throws(FilterError) {
    let environment = FilterEnvironment(
      DataRecord.valueType(records.schema), parameters: parameterTypes,
      evaluationLimits: limits)
    var unfiltered = stats
    unfiltered.filter = nil
    counter = try environment.compileStats(unfiltered, source: source).binding(
      parameters, now: now)
    tally = StatsTally(counter.stats)
    schema = records.schema
  }

  /// The top-level fields the keys and aggregates read: a scan decodes them
  /// (``Scan/Options/outputFields``).
  public var fieldNames: Set<String> {
    Set(counter.stats.expressions.flatMap { $0.source.fieldNames })
  }

  /// The records tallied.
  public var count: Int { computed?.records ?? tally.records }
  /// The result a source computed itself (``AggregatingSource``), if it did.
  private var computed: StatsResult?
  /// The rows, once the scan has run, with the faults met evaluating the keys and values
  /// and making the aggregates (those of the scan's filter are the scan's: merge its
  /// ``ScanSummary/faults``).
  public var result: StatsResult { computed ?? tally.result() }

  /// The stats `source` computes itself, with `query`'s filter, when it can (a database's
  /// `GROUP BY`): how many records they aggregate.
  public func summary(
    from source: any RecordSource, _ query: BoundQuery, parameters: [String: Value],
    now: Instant
  ) throws -> Int? {
    guard let source = source as? any AggregatingSource,
      let result = try source.stats(
        stats.filtered(by: query.filter), parameters: parameters, now: now)
    else { return nil }
    computed = result
    return result.records
  }

  /// Tallies `record` (in batches: a record waits for its block's end).
  public func write(_ record: DataRecord) {
    pending.append(record)
    if pending.count >= 4096 { flush() }
  }

  /// Tallies the rows of `batch` by its columns (keys coded in the batch are grouped by
  /// their codes, numbers summed from their arrays), without a record per row: when the
  /// batch was read under the schema the stats were checked against; else as records.
  public func write(_ batch: RecordBatch, rows: [Int]) {
    guard batch.table.schema == schema else {
      for record in batch.records(rows, makingText: false) { write(record) }
      return
    }
    counter.compiled(for: batch.table.recordType).add(rows, to: &tally)
    batchesByColumn += 1
  }

  /// How many batches were tallied by their columns.
  private(set) var batchesByColumn = 0

  /// Tallies the block's records.
  public func endOfBlock() { flush() }

  /// Tallies what is left.
  public func finish() { flush() }

  /// Only values are read.
  public var readsRecordText: Bool { false }

  private func flush() {
    guard !pending.isEmpty else { return }
    counter.add(pending, to: &tally)
    pending.removeAll(keepingCapacity: true)
  }
}
