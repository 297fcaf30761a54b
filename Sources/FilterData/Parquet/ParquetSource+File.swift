import FilterDSL

/// A Parquet file's bytes: its footer, and what its footer and page indexes say is where,
/// read with `pread` once checked against the file's size.
extension ParquetSource {
  /// The bytes of `chunk`'s pages, as the file holds them.
  func bytes(of chunk: ParquetMetadata.ColumnChunk, _ column: ParquetColumn)
    throws(ParquetError) -> [UInt8]
  {
    guard chunk.type == column.physical else {
      throw ParquetError("has values of another type than its schema says")
    }
    var start = chunk.dataPageOffset
    if let dictionary = chunk.dictionaryPageOffset, dictionary > 0, dictionary < start {
      start = dictionary
    }
    let length = chunk.compressedSize
    guard start >= 4, length >= 0, length <= Int64(size) - start else {
      throw ParquetError("lies outside the file")
    }
    return try ParquetSource.bytes(file, at: Int(start), count: Int(length))
  }

  /// `count` bytes of the file at `offset`: an error, with nothing reserved, when the file
  /// does not hold them (offsets and lengths come from its footer and page indexes).
  static func bytes(_ file: RandomAccessFile, at offset: Int, count: Int) throws(ParquetError)
    -> [UInt8]
  {
    guard let bytes = file.bytes(at: offset, count: count) else {
      throw ParquetError("cannot be read (the file ends early)")
    }
    return bytes
  }

  /// The metadata in the file's footer, and its schema.
  static func footer(_ file: RandomAccessFile, size: Int) throws(ParquetError)
    -> (ParquetMetadata, ParquetSchema)
  {
    guard size >= 12 else { throw ParquetError("is too short to be a Parquet file") }
    let head = try bytes(file, at: 0, count: 4)
    let tail = try bytes(file, at: size - 8, count: 8)
    let magic: [UInt8] = Array("PAR1".utf8)
    guard head == magic, Array(tail[4...]) == magic else {
      throw ParquetError("is not a Parquet file (it does not begin and end with PAR1)")
    }
    let length = Int(tail[0]) | Int(tail[1]) << 8 | Int(tail[2]) << 16 | Int(tail[3]) << 24
    guard length > 0, length <= size - 12 else {
      throw ParquetError("has a footer longer than the file")
    }
    let raw = try bytes(file, at: size - 8 - length, count: length)
    var parsed: Result<ParquetMetadata, ThriftReader.ThriftError> = .failure(.init(message: ""))
    raw.withUnsafeBytes { raw in
      var reader = ThriftReader(raw)
      parsed = Result { () throws(ThriftReader.ThriftError) in try ParquetMetadata(&reader) }
    }
    let metadata: ParquetMetadata
    do {
      metadata = try parsed.get()
    } catch {
      throw ParquetError("has a footer that cannot be read: \(error.message)")
    }
    return (metadata, try ParquetSchema(metadata.schema))
  }
}
