/// A source that hands over again the records at given places among its records (a file read
/// at offsets, as Parquet is): a query that sorts and keeps a few records (`order by price
/// limit 5`) then reads only the fields it filters and sorts by, and fetches the records it
/// keeps whole at the end (late decoding, as DuckDB does), instead of decoding every field of
/// every record. The batches it hands over number their rows (``RecordBatch/ordinals``).
public protocol FetchingSource: RecordSource {
  /// The records at `ordinals` (places among the source's records, as its batches number
  /// them), every field decoded, in that order; their text made from their values when
  /// `makingText`.
  func records(at ordinals: [Int], makingText: Bool) throws -> [DataRecord]
}
