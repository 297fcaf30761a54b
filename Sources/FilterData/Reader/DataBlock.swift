import FilterDSL

/// A block of a file's records as a reader returns it: records, or batches of them read by
/// column, which a query filters over their columns, making records of its matches only.
///
/// ```swift
/// var execution = QueryExecution(query)
/// while !execution.isComplete, let block = try reader.nextBlock(byColumn: true) {
///   for record in execution.consume(block) { print(record) }
/// }
/// for record in execution.finish() { print(record) }
/// ```
public enum DataBlock: Sendable {
  /// Records, each with its values (see ``DataReader/next()``).
  case records([DataRecord])
  /// Batches read by column (see ``DataReader/nextBatches()``).
  case batches([RecordBatch])

  /// How many records the block holds.
  public var count: Int {
    switch self {
    case .records(let records): records.count
    case .batches(let batches): batches.reduce(0) { $0 + $1.count }
    }
  }
}

extension DataReader {
  /// The next block, or nil at the end of the input: read by column (``nextBatches()``) or
  /// as records (``next()``).
  public func nextBlock(byColumn: Bool) throws(DataError) -> DataBlock? {
    byColumn ? try nextBatches().map(DataBlock.batches) : try next().map(DataBlock.records)
  }
}

extension QueryExecution where Root == DataRecord {
  /// Filters `block` and hands the matches to write now to `sink`, in order (see
  /// ``QueryExecution/consume(_:until:)``). A batch read by column is filtered by this query
  /// compiled for its table: a query that does not sort hands the sink the batch and the rows
  /// that match (``RecordSink/write(_:rows:)``, which makes records of them only when the sink
  /// reads records); one that sorts keeps records of its matches (of a sort with a limit,
  /// only those that may come first, once the schema is final).
  public mutating func consume(_ block: DataBlock, into sink: any RecordSink) {
    switch block {
    case .records(let records):
      for record in consume(records) { sink.write(record) }
    case .batches(let batches):
      for batch in batches {
        let compiled = query.compiled(for: batch.table.recordType)
        if let rows = select(batch.table.rows, compiledAs: compiled) {
          if !rows.isEmpty { sink.write(batch, rows: rows) }
          continue
        }
        let records = consume(
          batch.table.rows, compiledAs: compiled,
          making: { batch.records($0, makingText: sink.readsRecordText) },
          pruning: batch.schemaIsFinal)
        for record in records { sink.write(record) }
      }
    }
  }

  /// Filters `block`; returns the records to hand on now, in order (as
  /// ``consume(_:into:)`` writes them).
  public mutating func consume(_ block: DataBlock) -> [DataRecord] {
    let collector = RecordCollector()
    consume(block, into: collector)
    return collector.records
  }
}
