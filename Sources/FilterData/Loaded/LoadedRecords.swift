import FilterDSL

/// Every record of a data file in memory: by column (a `ColumnTable`) for filters, facets
/// and sorting, and where each record's text is, for output: its bytes in the file, read
/// back when it is printed (the file stays open; text read from standard input, a pipe or
/// gzip data is copied instead). Rows are numbered in file order; queries over ``table``
/// return row numbers, and ``records(_:)`` makes the records of some for printing.
public struct LoadedRecords: Sendable {
  /// The records' values, by column.
  public let table: ColumnTable
  private let texts: RecordTexts
  private let format: RecordFields

  /// How many records.
  public var count: Int { table.count }

  /// No records, with the fields of `schema`.
  public init(schema: Schema) {
    table = ColumnTable(schema: schema, rows: [])
    (texts, format) = (RecordTexts(file: nil), .json)
  }

  /// Reads every record `reader` has (warnings, such as values that do not convert to a
  /// type the options fix, go to `warn`). The schema grows while the file is read (a decimal
  /// in a column of integers, a field first seen late); the records read before it grew are
  /// then read again from their text, so that every row fits the final schema. `stop` is
  /// asked after each block; once it says true the reading ends there (the caller, which
  /// asked, drops the partial data). Only the columns a record has a value in grow with it:
  /// records that each bring new keys cost what their values do (see `Column`).
  ///
  /// The reader reads records straight into columns, a buffer in two parts at once where it
  /// can (`DataReader.nextRows`); their rows join the table's here.
  public init(
    reading reader: DataReader, until stop: () -> Bool = { false },
    warn: (String) -> Void = { _ in }
  ) throws(DataError) {
    let file = reader.recordFile()
    var builder = ColumnBuilder()
    var texts = RecordTexts(file: file)
    // The rows before `stale` were read under a schema whose fields have since widened (a
    // field first seen later is null in them already: they need not be read again).
    var stale = 0
    var stopped = false
    // The rows with keys present with null (JSON), for `exists`.
    var nulls = FieldPresence.values
    while true {
      stopped = stop()
      guard !stopped,
        try reader.nextRows({ rows in
          if builder.count == 0, let expected = Self.expectedRows(reader.size, rows.texts) {
            builder.reserve(rows: expected)
            texts.reserve(expected)
          }
          nulls.append(rows.presentNulls(reader.schema), offset: builder.count)
          builder.append(rowsOf: &rows.builder)
          texts.append(rows.texts, of: reader.buffer, at: reader.bufferOffset)
        })
      else { break }
      // (The schema grows after a block, for the records after it.)
      if reader.takeSchemaChanges().contains(where: { !$0.isNewField }) { stale = builder.count }
      for warning in reader.takeWarnings() { warn(warning.description) }
    }
    for warning in reader.takeWarnings() { warn(warning.description) }
    for line in reader.conversionSummary { warn(line) }
    file?.seal()
    let format = reader.recordFields
    texts.forEach(Array(0..<stale)) { row, text in
      guard let text else { return }
      let old = DataRecord(values: [], text: text, format: format)
      builder.replace(row: row, with: reader.redecoded(old).values)
    }
    // Every record read: a text field's distinct values are known, whatever the sample saw.
    let table = builder.finish(reader.schema).withPresence(
      format.header == nil ? nulls : .columns)
    self.init(
      table: stopped ? table : table.knowingValues(limit: TypeTally.knownValuesLimit),
      texts: texts, format: format)
  }

  /// Reads every record `source` hands over: a data file as ``init(reading:until:warn:)``
  /// reads it; any other source (a table, a source of your own) by its blocks, every field,
  /// its records' text made from their values when printed. A source whose schema may still
  /// grow is asked for its whole schema first. `stop` and `warn` as for a file.
  public init(
    loading source: any RecordSource, until stop: () -> Bool = { false },
    warn: (String) -> Void = { _ in }
  ) throws {
    if let reader = source as? DataReader {
      try self.init(reading: reader, until: stop, warn: warn)
      return
    }
    if !source.isSchemaFinal { try source.inferWhole() }
    source.prepare(decoding: nil)
    var builder = ColumnBuilder()
    var stopped = false
    try source.read { block in
      switch block {
      case .records(let records): for record in records { builder.append(record.values) }
      case .batches(let batches):
        for batch in batches {
          for row in batch.table.rows { builder.append(batch.table.row(row)) }
        }
      }
      for warning in source.takeWarnings() { warn(warning.description) }
      stopped = stop()
      return !stopped
    }
    for line in source.closingWarnings { warn(line) }
    // (Records made from values have every field of the schema: see ``RecordBatch``.)
    let table = builder.finish(source.schema).withPresence(.columns)
    self.init(
      table: stopped ? table : table.knowingValues(limit: TypeTally.knownValuesLimit),
      texts: RecordTexts(file: nil), format: .json)
  }

  private init(table: ColumnTable, texts: RecordTexts, format: RecordFields) {
    // (Held and queried again and again: with the zones a sorted query skips blocks by.)
    (self.table, self.texts, self.format) = (table.withSortZones(), texts, format)
  }

  /// How many records a file of `size` bytes holds, about, if the rest are as long as those
  /// whose texts are at `texts` (the first): a tenth more, so that columns rarely grow past
  /// it. Nil when the size is not known.
  private static func expectedRows(_ size: Int?, _ texts: [Range<Int>]) -> Int? {
    guard let size, let first = texts.first, let last = texts.last,
      last.upperBound > first.lowerBound
    else { return nil }
    let perRecord = Double(last.upperBound - first.lowerBound) / Double(texts.count)
    return Int(Swift.min(Double(size) / perRecord * 1.1, Double(1 << 32)))
  }

  /// The records of rows `rows`, in that order: their values and their text (empty for a
  /// row outside the table). When the file changed since it was loaded
  /// (``changedOnDisk``), a record's text is made from its values.
  public func records(_ rows: [Int]) -> [DataRecord] {
    var records: [DataRecord] = []
    records.reserveCapacity(rows.count)
    texts.forEach(rows) { row, text in
      guard row >= 0, row < count else {
        records.append(DataRecord(values: [], text: [], format: format))
        return
      }
      guard let text else {
        records.append(DataRecord(table.row(row), schema: table.schema))
        return
      }
      records.append(DataRecord(values: table.row(row), text: text, format: format))
    }
    return records
  }

  /// The record of row `row` (see ``records(_:)``).
  public func record(_ row: Int) -> DataRecord {
    records([row]).first ?? DataRecord(values: [], text: [], format: format)
  }

  /// Whether the file was changed (or replaced in place) since it was loaded: records are
  /// then printed from their loaded values, not as the file had them.
  public var changedOnDisk: Bool { texts.changedOnDisk }

  /// Whether the records' text is read back from the file when printed (else it is a copy in
  /// memory: the input was standard input, a pipe or gzip data).
  public var textInFile: Bool {
    if case .file = texts.source { true } else { false }
  }

  /// About how many bytes the records' text takes in memory (kept for output): where each
  /// starts and ends in the file, or a copy of it.
  public var textBytes: Int { texts.bytes }

  /// About how many bytes the records take: their columns and their text.
  public var bytes: Int { table.columns.reduce(textBytes) { $0 + $1.bytes } }
}
