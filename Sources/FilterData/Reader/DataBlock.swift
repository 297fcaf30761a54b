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
  /// Filters `block`; returns the records to hand on now, in order (see
  /// ``QueryExecution/consume(_:until:)``). A batch read by column is filtered by this query
  /// compiled for its table, and only its matches become records (of a sort with a limit,
  /// only those that may come first, once the schema is final).
  ///
  /// With `makingRecords` false, for a count of a query that does not sort, a match read by
  /// column is handed back as an empty record (a source whose records are made from their
  /// values would otherwise make each match's text for nothing); with `makingText` false, a
  /// record made from its values gets no text (for a sink that writes values alone).
  public mutating func consume(
    _ block: DataBlock, makingRecords: Bool = true, makingText: Bool = true
  ) -> [DataRecord] {
    switch block {
    case .records(let records):
      return consume(records)
    case .batches(let batches):
      let counting = !makingRecords && !query.sorts
      var matches: [DataRecord] = []
      for batch in batches {
        let compiled = query.compiled(for: batch.table.recordType)
        matches += consume(
          batch.table.rows, compiledAs: compiled,
          making: counting
            ? { rows in rows.map { _ in DataRecord(values: [], text: [], format: .json) } }
            : { batch.records($0, makingText: makingText) },
          pruning: batch.schemaIsFinal)
      }
      return matches
    }
  }
}
