/// Data files as sources: the one place a path becomes the source that reads it.
public enum FileSource {
  /// The source reading the file at `path` (standard input for nil or `-`) in `format`, else
  /// the registered format (``DataFormat/all``) its extension names, else the one its first
  /// bytes say; standard input with no format is sniffed by ``DataReader`` (JSON, JSON Lines,
  /// CSV or TSV). Read with `options`; the records get the fields `partitions` (the
  /// hive-style folders the file lies in) where the format takes them. A folder is read as
  /// one source when its files are all of one format that reads folders (Parquet: a
  /// ``ParquetFolder``).
  public static func open(
    _ path: String?, format: DataFormat? = nil, options: ReadOptions = ReadOptions(),
    partitions: [DataFolder.Partition] = []
  )
    throws(DataError) -> any RecordSource
  {
    guard let path, path != "-" else {
      if let format { return try format.open(DataFormat.Input(path: nil, options: options)) }
      return try openStandardInput(options)
    }
    if DataFolder.isFolder(path) { return try openFolder(path) }
    let input = DataFormat.Input(path: path, options: options, partitions: partitions)
    if let named = format ?? DataFormat(path: path) { return try named.open(input) }
    // A name that says nothing: the file's first bytes may (opened here, to say why not).
    let first = try ByteInput(path: path).prefix(16)
    guard let sniffed = DataFormat.sniffed(first) else {
      throw DataError.file(
        path,
        "has no known extension (\(DataFormat.extensionList)); say which format it is with --input-format"
      )
    }
    return try sniffed.open(input)
  }

  /// Standard input, in the format its first bytes say: a registered binary format (Arrow's
  /// stream) by its magic bytes, else a text format ``DataReader`` tells (JSON, JSON Lines,
  /// CSV or TSV).
  private static func openStandardInput(_ options: ReadOptions) throws(DataError)
    -> any RecordSource
  {
    let bytes = try ByteInput(path: nil)
    let first = try bytes.peek(16)
    guard let sniffed = DataFormat.sniffed(first), !DataFormat.texts.contains(sniffed) else {
      return try DataReader(
        path: nil, format: nil, options: options, blockSize: DataReader.defaultBlockSize,
        input: bytes)
    }
    guard sniffed.readsStreams else {
      throw DataError.file(
        "<stdin>",
        "begins as \(sniffed.title) does, which is read from a file, not a stream; save it to a file first"
      )
    }
    var input = DataFormat.Input(path: nil, options: options)
    input.bytes = bytes
    return try sniffed.open(input)
  }

  /// The folder at `path` as one source: its data files must all be of one format, one that
  /// reads folders.
  private static func openFolder(_ path: String) throws(DataError) -> any RecordSource {
    let folder = try DataFolder(path)
    let formats = folder.files.compactMap { DataFormat(path: $0.path) }
    guard let first = formats.first else {
      throw DataError.file(path, "is a folder with no data files in it")
    }
    if let other = formats.firstIndex(where: { $0 != first }) {
      throw DataError.file(
        path,
        "holds \(folder.files[other].path), which is not \(first.title) as \(folder.files[0].path) is; a folder is read when its files are all of one format (give other files by name: flt QUERY \(path)/*.\(formats[other].extensions.first ?? ""))"
      )
    }
    return try first.open(folder: folder, name: path)
  }
}
