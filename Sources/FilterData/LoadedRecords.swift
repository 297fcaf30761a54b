import FilterDSL

/// Every record of a data file in memory: by column (a ``ColumnTable``) for filters, facets
/// and sorting, and each record's text, exactly as the file had it, for output. Rows are
/// numbered in file order; queries over ``table`` return row numbers, and ``record(_:)``
/// makes the record of one for printing.
public struct LoadedRecords: Sendable {
  /// The records' values, by column.
  public let table: ColumnTable
  /// Every record's text, one after another.
  private let text: [UInt8]
  /// Where each record's text ends in ``text`` (it starts where the one before ends).
  private let ends: [Int]
  private let format: RecordFields

  /// How many records.
  public var count: Int { table.count }

  /// No records, with the fields of `schema`.
  public init(schema: Schema) {
    table = ColumnTable(schema: schema, rows: [])
    (text, ends, format) = ([], [], .json)
  }

  /// Reads every record `reader` has (warnings, such as values that do not convert to a
  /// type the options fix, go to `warn`). The schema grows while the file is read (a decimal
  /// in a column of integers, a field first seen late); the records read before it grew are
  /// then read again from their text, so that every row fits the final schema. `stop` is
  /// asked after each block; once it says true the reading ends there (the caller, which
  /// asked, drops the partial data).
  public init(
    reading reader: DataReader, until stop: () -> Bool = { false },
    warn: (String) -> Void = { _ in }
  ) throws(DataError) {
    var builder = ColumnBuilder()
    var text: [UInt8] = []
    if let size = reader.size { text.reserveCapacity(Swift.min(size, 1 << 32)) }
    var ends: [Int] = []
    var format = RecordFields.json
    // The rows before `stale` were read under an older schema than the current one.
    var stale = 0
    var version = reader.schemaVersion
    while !stop(), let block = try reader.next() {
      if reader.schemaVersion != version {
        (stale, version) = (builder.count, reader.schemaVersion)
      }
      if let first = block.first { format = first.format }
      for record in block {
        builder.append(record.values)
        text += record.text
        ends.append(text.count)
      }
      for warning in reader.takeWarnings() { warn(warning.description) }
    }
    for warning in reader.takeWarnings() { warn(warning.description) }
    for line in reader.conversionSummary { warn(line) }
    for row in 0..<stale {
      let start = row == 0 ? 0 : ends[row - 1]
      let old = DataRecord(values: [], text: text[start..<ends[row]], format: format)
      builder.replace(row: row, with: reader.redecoded(old).values)
    }
    _ = reader.takeSchemaChanges()
    self.table = builder.finish(reader.schema)
    self.text = text
    self.ends = ends
    self.format = format
  }

  /// The record of row `row`: its values and its text (empty outside the table).
  public func record(_ row: Int) -> DataRecord {
    guard row >= 0, row < ends.count else {
      return DataRecord(values: [], text: [], format: format)
    }
    let start = row == 0 ? 0 : ends[row - 1]
    return DataRecord(values: table.row(row), text: text[start..<ends[row]], format: format)
  }

  /// About how many bytes the records' text takes (kept for output), with where each ends.
  public var textBytes: Int { text.capacity + ends.capacity * 8 }

  /// About how many bytes the records take: their columns and their text.
  public var bytes: Int { table.columns.reduce(textBytes) { $0 + $1.bytes } }
}
