import FilterDSL

/// Pages ruled out within a row group by the page index (``ParquetPageIndex``): which rows a
/// filter may match, and reading only the pages that hold them.
extension ParquetSource {
  /// The rows of `group` (the `index`th, of `rows` rows) `filter` may match by the page
  /// indexes of the columns it reads, when every field decoded has an offset index (so that
  /// each can read those rows' pages alone); nil to read every row. And how many pages of
  /// the columns it tests it rules out.
  func selectedRows(
    _ filter: BoundExpr, _ statistics: ParquetStatistics, _ group: ParquetMetadata.RowGroup,
    index: Int, rows: Int
  ) throws(DataError) -> ([Range<Int>]?, Int) {
    let decoded = fields.filter { decoding?.contains($0.name) ?? true }
    guard
      decoded.allSatisfy({ $0.isFlat && group.columns[$0.leaves.lowerBound].offsetIndex != nil })
    else { return (nil, 0) }
    var indexes: [Int: ParquetPageIndex] = [:]
    let tested = Set(filter.fields.filter(\.isTopLevel).map(\.slot))
    for slot in tested.sorted() where slot < fields.count && fields[slot].isFlat {
      let leaf = fields[slot].leaves.lowerBound
      guard group.columns[leaf].offsetIndex != nil else { continue }
      indexes[slot] = try pageIndex(group, leaf: leaf, index: index, rows: rows)
    }
    guard !indexes.isEmpty else { return (nil, 0) }
    let selected = statistics.rows(filter, rows: rows, pages: { indexes[$0] })
    guard selected != [0..<rows] else { return (nil, 0) }
    let skipped = indexes.values.flatMap(\.pages).filter {
      RowRanges.intersection(selected, [$0.rows]).isEmpty
    }
    return (selected, skipped.count)
  }

  /// The page index of the chunk of leaf `leaf` in `group` (the `index`th, of `rows` rows).
  func pageIndex(_ group: ParquetMetadata.RowGroup, leaf: Int, index: Int, rows: Int)
    throws(DataError) -> ParquetPageIndex
  {
    let chunk = group.columns[leaf]
    do throws(ParquetError) {
      guard let (offset, length) = chunk.offsetIndex, offset >= 4,
        Int64(length) <= Int64(size) - offset
      else { throw ParquetError("has an offset index outside the file") }
      let offsets = try ParquetSource.bytes(file, at: Int(offset), count: Int(length))
      var columnIndex: [UInt8]? = nil
      if let (offset, length) = chunk.columnIndex, offset >= 4,
        Int64(length) <= Int64(size) - offset
      {
        columnIndex = try ParquetSource.bytes(file, at: Int(offset), count: Int(length))
      }
      let result: Result<ParquetPageIndex, ParquetError> = offsets.withUnsafeBytes { offsets in
        (columnIndex ?? []).withUnsafeBytes { columns in
          Result { () throws(ParquetError) in
            try ParquetPageIndex(
              offsets: offsets, columns: columnIndex == nil ? nil : columns, rows: rows,
              fileSize: size)
          }
        }
      }
      return try result.get()
    } catch {
      throw DataError.file(
        name, "column '\(columns[leaf].name)' of row group \(index + 1) \(error.message)")
    }
  }

  /// The rows `selection` keeps of `chunk`: its dictionary page and the data pages of
  /// `pages` that hold some of them, read and decoded, the other rows of those pages dropped;
  /// and the bytes read.
  func read(
    _ chunk: ParquetMetadata.ColumnChunk, of column: ParquetColumn, pages: ParquetPageIndex,
    keeping selection: [Range<Int>]
  ) throws(ParquetError) -> (ParquetChunk, Int) {
    guard chunk.type == column.physical, let first = pages.pages.first else {
      throw ParquetError("has values of another type than its schema says")
    }
    // The dictionary page, before the first data page.
    var bytes: [UInt8] = []
    if let dictionary = chunk.dictionaryPageOffset ?? Optional(chunk.dataPageOffset),
      dictionary >= 4, dictionary < first.offset
    {
      bytes = try ParquetSource.bytes(
        file, at: Int(dictionary), count: Int(first.offset - dictionary))
    }
    var kept: [Range<Int>] = []
    var rows = 0
    for page in pages.pages {
      let wanted = RowRanges.intersection(selection, [page.rows])
      guard !wanted.isEmpty else { continue }
      bytes += try ParquetSource.bytes(file, at: Int(page.offset), count: page.size)
      // Where the wanted rows are among those the pages read so far hold.
      kept += wanted.map {
        ($0.lowerBound - page.rows.lowerBound + rows)..<($0.upperBound - page.rows.lowerBound + rows)
      }
      rows += page.rows.count
    }
    var decoder = try Self.decode(bytes, column, codec: chunk.codec, rows: rows)
    decoder.keep(kept)
    return (decoder, bytes.count)
  }

  /// The values of `chunk`, read from the file and decoded, and the bytes read.
}
