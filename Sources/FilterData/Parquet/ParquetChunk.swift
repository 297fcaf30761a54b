import FilterDSL

/// Reads one column chunk (a column's values in one row group): its pages in order (a
/// dictionary page, then data pages v1 or v2), each decompressed, its levels read, its values
/// decoded (PLAIN, the delta encodings, or indices into the dictionary) and converted to flt's
/// values. A top-level leaf becomes a `Column` (a row per entry, nulls where the definition
/// level says so); a nested leaf keeps its levels and its values, which ``ParquetAssembler``
/// makes records and lists of. Every length, count and index is checked against the page: a
/// corrupt file throws a ``ParquetError``, never reads out of bounds.
struct ParquetChunk {
  let column: ParquetColumn
  /// 0 none, 1 snappy, 2 gzip, 5 LZ4 (Hadoop's frames), 6 zstd, 7 LZ4_RAW; LZO and Brotli
  /// are refused.
  let codec: Int32

  // (What follows is read and written by the page reading, `ParquetChunk+Pages.swift`, and
  // by nothing outside this type.)

  /// The values read so far, by ``ParquetColumn/storage``, a placeholder for each null.
  var ints: [Int64] = []
  var doubles: [Double] = []
  var values: [Value] = []
  /// For values read from the dictionary only: their codes (the dictionary's index, or its
  /// count for null), made a coded column at the end without a value per row. Nil once a page
  /// is not in the dictionary (the codes are then made values).
  var codes: [UInt32]? = []
  var nulls: [Bool] = []
  var anyNull = false
  /// For a nested leaf: each entry's definition and repetition level (an entry is a value,
  /// or a null or an empty list on the way to one); the values are those of the entries at
  /// the highest definition level, in order.
  var definitions: [UInt8] = []
  var repetitions: [UInt8] = []
  /// The dictionary page's values, when the chunk has one.
  var dictionary: (ints: [Int64], doubles: [Double], values: [Value])?
  /// Where the next page's header is in the chunk's bytes.
  private var offset = 0
  /// The data page being read, when a part of its entries is still to read.
  var page: DataPage?
  /// The entries handed over (``take(_:)``) and forgotten.
  private var dropped = 0
  /// The most bytes a page's values may take once they are expanded from the delta
  /// encodings (nil: no limit).
  var memoryLimit: Int?

  init(_ column: ParquetColumn, codec: Int32) throws(ParquetError) {
    guard (0...7).contains(codec), codec != 3, codec != 4 else {
      let name = [3: "LZO", 4: "Brotli"][codec] ?? "codec \(codec)"
      throw ParquetError(
        "is compressed with \(name), which flt does not read yet (it reads snappy, gzip, zstd, LZ4 and uncompressed files)"
      )
    }
    (self.column, self.codec) = (column, codec)
  }

  /// The entries read so far, those handed over included.
  var read: Int { dropped + count }

  /// The entries read and not handed over.
  private var count: Int {
    if column.isNested { return definitions.count }
    return switch column.storage {
    case .ints: ints.count
    case .doubles: doubles.count
    case .values: codes?.count ?? values.count
    }
  }

  /// Reads the pages of the `rows` entries that start at `bytes`' start (for a top-level
  /// leaf, an entry is a row), as far as the first `wanted` (all when nil): a data page is
  /// read only as far as they go, and the next call goes on from there. ``column(_:)`` or
  /// ``take(_:)`` then make columns of them, or ``nestedValues()`` gives a nested leaf's
  /// values.
  mutating func read(_ bytes: UnsafeRawBufferPointer, rows: Int, upTo wanted: Int? = nil)
    throws(ParquetError)
  {
    let wanted = Swift.min(wanted ?? rows, rows)
    while read < wanted {
      if page != nil {
        try readPart(upTo: wanted)
        continue
      }
      guard offset < bytes.count else {
        throw ParquetError(
          "ends after \(read) of its \(rows) \(column.isNested ? "values" : "rows")")
      }
      var reader = ThriftReader(bytes, from: offset)
      let header: ParquetMetadata.PageHeader
      do {
        header = try ParquetMetadata.PageHeader(&reader)
      } catch {
        throw ParquetError("has a page header that cannot be read: \(error.message)")
      }
      let start = reader.position
      let size = Int(header.compressedSize)
      guard size >= 0, size <= bytes.count - start, header.uncompressedSize >= 0 else {
        throw ParquetError("has a page that runs past the end of its column")
      }
      let data = UnsafeRawBufferPointer(rebasing: bytes[start..<start + size])
      offset = start + size
      switch header.type {
      case 2: try readDictionary(data, header)
      case 0: page = try dataPage(data, header, rows: rows)
      case 3: page = try dataPageV2(data, header, rows: rows)
      default: continue
      }
    }
    guard wanted < rows || read == rows else {
      throw ParquetError(
        column.isNested
          ? "has \(read) values where its metadata says \(rows)"
          : "has \(read) values where the row group has \(rows) rows")
    }
  }

  /// Hands over the first `rows` entries read and not handed over yet (a top-level leaf's
  /// rows) as a column, and forgets them.
  mutating func take(_ rows: Int) -> Column {
    let rows = Swift.min(Swift.max(rows, 0), count)
    let taken = column(0..<rows)
    switch column.storage {
    case .ints: ints.removeFirst(rows)
    case .doubles: doubles.removeFirst(rows)
    case .values:
      if codes != nil { codes?.removeFirst(rows) } else { values.removeFirst(rows) }
    }
    if !nulls.isEmpty { nulls.removeFirst(Swift.min(rows, nulls.count)) }
    dropped += rows
    return taken
  }

  /// Keeps the rows `ranges` (of those read, a top-level leaf's) alone, in order.
  mutating func keep(_ ranges: [Range<Int>]) {
    func kept<T>(_ array: [T]) -> [T] {
      var out: [T] = []
      out.reserveCapacity(ranges.reduce(0) { $0 + $1.count })
      for range in ranges where range.upperBound <= array.count { out += array[range] }
      return out
    }
    switch column.storage {
    case .ints: ints = kept(ints)
    case .doubles: doubles = kept(doubles)
    case .values:
      if let current = codes { codes = kept(current) } else { values = kept(values) }
    }
    if !nulls.isEmpty { nulls = kept(nulls) }
  }

  /// A nested leaf's values (its entries with a value), in order.
  func nestedValues() -> [Value] {
    switch column.storage {
    case .ints: return ints.map(Value.int)
    case .doubles: return doubles.map(Value.double)
    case .values:
      guard let codes, let dictionary else { return values }
      // (Every code is within the dictionary: indices past it were refused.)
      return codes.map { Int($0) < dictionary.values.count ? dictionary.values[Int($0)] : .null }
    }
  }

  /// The column of the rows `rows` of those read.
  func column(_ rows: Range<Int>) -> Column {
    switch column.storage {
    case .ints: return .ints(Array(ints[rows]), nulls: anyNull ? Array(nulls[rows]) : nil)
    case .doubles: return .doubles(Array(doubles[rows]), nulls: anyNull ? Array(nulls[rows]) : nil)
    case .values:
      guard let codes, let dictionary else { return .values(Array(values[rows])) }
      let slice = Array(codes[rows])
      return Self.coded(slice, dictionary.values)
        ?? .values(
          slice.map { Int($0) < dictionary.values.count ? dictionary.values[Int($0)] : .null })
    }
  }

  /// The column of `codes` into `dictionary` (its count standing for null), its values made
  /// distinct (a corrupt file's dictionary may repeat one, which would count twice in facets).
  private static func coded(_ codes: [UInt32], _ dictionary: [Value]) -> Column? {
    var distinct: [Value] = []
    var index: [Value: UInt32] = [:]
    var remap: [UInt32] = []
    for value in dictionary + [.null] {
      if let known = index[value] {
        remap.append(known)
      } else {
        index[value] = UInt32(distinct.count)
        remap.append(UInt32(distinct.count))
        distinct.append(value)
      }
    }
    let same = remap.enumerated().allSatisfy { $0.offset == Int($0.element) }
    return Column.coded(same ? codes : codes.map { remap[Int($0)] }, values: distinct)
  }

  /// `page`'s bytes decompressed, `size` of them.
  func decompressed(_ page: UnsafeRawBufferPointer, size: Int) throws(ParquetError)
    -> [UInt8]
  {
    switch codec {
    case 1:
      do {
        return try Snappy.decompress(page, expected: size)
      } catch {
        throw ParquetError("has a page whose snappy data is corrupt: \(error.message)")
      }
    case 6:
      do {
        return try Zstd.decompress(page, expected: size)
      } catch {
        throw ParquetError("has a page whose zstd data is corrupt: \(error.message)")
      }
    case 5, 7:
      do {
        return codec == 7
          ? try LZ4.decompress(page, expected: size)
          : try LZ4.decompressHadoop(page, expected: size)
      } catch {
        throw ParquetError("has a page whose LZ4 data is corrupt: \(error.message)")
      }
    case 2:
      var decoder = GzipDecoder(Array(page))
      var out: [UInt8] = []
      do {
        while let chunk = try decoder.nextChunk() {
          out += chunk
          guard out.count <= size else { break }
        }
      } catch {
        throw ParquetError("has a page whose gzip data is corrupt")
      }
      guard out.count == size else {
        throw ParquetError("has a page that inflates to \(out.count) bytes, not \(size)")
      }
      return out
    default:
      guard page.count == size else {
        throw ParquetError("has a page of \(page.count) bytes where its header says \(size)")
      }
      return Array(page)
    }
  }

  private mutating func readDictionary(
    _ page: UnsafeRawBufferPointer, _ header: ParquetMetadata.PageHeader
  ) throws(ParquetError) {
    guard header.encoding == 0 || header.encoding == 2 else {
      throw ParquetError("has a dictionary page in encoding \(header.encoding)")
    }
    guard dictionary == nil else { throw ParquetError("has two dictionary pages") }
    let bytes = try decompressed(page, size: Int(header.uncompressedSize))
    var entries = (ints: [Int64](), doubles: [Double](), values: [Value]())
    try ParquetChunk.withBytes(bytes) { (raw) throws(ParquetError) in
      var plain = PlainValues(raw, column: column)
      for _ in 0..<Swift.max(0, Int(header.valueCount)) {
        switch column.storage {
        case .ints: entries.ints.append(try plain.int())
        case .doubles: entries.doubles.append(try plain.double())
        case .values: entries.values.append(try plain.value())
        }
      }
    }
    dictionary = entries
  }
}
