import FilterDSL

/// A source that hands over again the records at given places among its records (a file read
/// at offsets, as Parquet and Arrow files are): a query that sorts and keeps a few records
/// (`order by price limit 5`) then reads only the fields it filters and sorts by, and fetches
/// the records it keeps whole at the end (late decoding, as DuckDB does), instead of decoding
/// every field of every record. The batches it hands over number their rows
/// (``RecordBatch/ordinals``).
public protocol FetchingSource: RecordSource {
  /// Whether the records can be fetched (an Arrow stream, read once, cannot).
  var fetches: Bool { get }
  /// The records at `ordinals` (places among the source's records, as its batches number
  /// them), every field decoded, in that order; their text made from their values when
  /// `makingText`.
  func records(at ordinals: [Int], makingText: Bool) throws -> [DataRecord]
}

extension FetchingSource {
  /// Records of `rows` (each the values of the schema's fields, in order), as a batch of the
  /// source's makes them; nil when a value does not fit its field's type.
  func records(made rows: [[Value]], makingText: Bool) -> [DataRecord]? {
    let columns = schema.fields.indices.map { field in
      Column.values(rows.map { field < $0.count ? $0[field] : .null })
    }
    guard let table = ColumnTable(schema: schema, columns: columns, sortZones: false) else {
      return nil
    }
    return RecordBatch(table, source: name).records(Array(rows.indices), makingText: makingText)
  }
}
