import FilterDSL

/// Counts the records a scan matched and writes the count (`flt -c`): at the end, or, when
/// each source is queried on its own, a line `NAME:COUNT` per source, as `grep -c` does.
public final class CountSink: RecordSink {
  /// How many records were counted, in every source.
  public private(set) var count = 0
  private var countBefore = 0
  private let out: OutputSink?
  private let perSource: Bool
  /// Counts only.
  public var writesRecords: Bool { false }

  /// A count written to `out` (nil: kept in ``count`` only), per source when `perSource`.
  public init(to out: OutputSink?, perSource: Bool = false) {
    self.out = out
    self.perSource = perSource
  }

  /// Counts one record.
  public func write(_ record: DataRecord) { count += 1 }

  /// Counts the rows, without making records of them.
  public func write(_ batch: RecordBatch, rows: [Int]) { count += rows.count }

  /// Counts `records` more, which were counted without being handed over.
  public func add(_ records: Int) { count += records }

  /// The count `source` makes without handing its records over (a Parquet footer's, a
  /// database's `count(*)`), when it can.
  public func summary(
    from source: any RecordSource, _ query: BoundQuery, parameters: [String: Value],
    now: Instant
  ) throws -> Int? {
    guard let count = try source.count(query, parameters: parameters, now: now) else { return nil }
    add(count)
    return count
  }

  /// Writes `NAME:COUNT`, when counting per source.
  public func endOfSource(_ name: String) {
    guard perSource else { return }
    out?.write("\(name):\(count - countBefore)\n")
    out?.flush()
    countBefore = count
  }

  /// Writes the count, unless it was written per source.
  public func finish() {
    if !perSource { out?.write("\(count)\n") }
    out?.flush()
  }

  /// Why the count can no longer be written, or nil.
  public var failure: String? { out?.failure }
}

/// Keeps the records a scan matched, in order (``Scan/records()``).
public final class RecordCollector: RecordSink {
  /// The records, in the order the scan handed them on.
  public private(set) var records: [DataRecord] = []

  /// An empty collector.
  public init() {}

  /// How many records were kept.
  public var count: Int { records.count }
  /// Keeps `record`.
  public func write(_ record: DataRecord) { records.append(record) }
  /// Nothing to end.
  public func finish() {}
}
