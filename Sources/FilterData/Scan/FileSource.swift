/// Data files as sources: the one place a path becomes the source that reads it.
public enum FileSource {
  /// The source reading the file at `path` (standard input for nil or `-`) in `format`, else
  /// the format its extension names (or, for standard input, its first bytes say): a
  /// ``ParquetSource`` for Parquet, a ``DataReader`` for JSON, JSON Lines, CSV and TSV (gzip
  /// or not), read with `options`. A Parquet file's records get the fields `partitions` (the
  /// hive-style folders it lies in; other formats do not take them yet). A folder of Parquet
  /// files is a ``ParquetFolder``.
  public static func open(
    _ path: String?, format: DataFormat? = nil, options: ReadOptions = ReadOptions(),
    partitions: [DataFolder.Partition] = []
  )
    throws(DataError) -> any RecordSource
  {
    if let path, path != "-", DataFolder.isFolder(path) {
      return try ParquetFolder(DataFolder(path), name: path)
    }
    let named = format ?? path.flatMap(DataFormat.init(path:))
    guard named == .parquet else {
      return try DataReader(path: path, format: format, options: options)
    }
    guard let path, path != "-" else {
      throw DataError.file(
        "<stdin>", "cannot be read as Parquet, whose footer is at the end; save it to a file first")
    }
    return try ParquetSource(path: path, partitions: partitions)
  }
}
