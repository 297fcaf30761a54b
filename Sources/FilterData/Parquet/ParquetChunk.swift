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

  /// The values read so far, by ``ParquetColumn/storage``, a placeholder for each null.
  private var ints: [Int64] = []
  private var doubles: [Double] = []
  private var values: [Value] = []
  /// For values read from the dictionary only: their codes (the dictionary's index, or its
  /// count for null), made a coded column at the end without a value per row. Nil once a page
  /// is not in the dictionary (the codes are then made values).
  private var codes: [UInt32]? = []
  private var nulls: [Bool] = []
  private var anyNull = false
  /// For a nested leaf: each entry's definition and repetition level (an entry is a value,
  /// or a null or an empty list on the way to one); the values are those of the entries at
  /// the highest definition level, in order.
  private(set) var definitions: [UInt8] = []
  private(set) var repetitions: [UInt8] = []
  /// The dictionary page's values, when the chunk has one.
  private var dictionary: (ints: [Int64], doubles: [Double], values: [Value])?
  /// Where the next page's header is in the chunk's bytes.
  private var offset = 0
  /// The data page being read, when a part of its entries is still to read.
  private var page: DataPage?
  /// The entries handed over (``take(_:)``) and forgotten.
  private var dropped = 0
  /// The most bytes a page's values may take once they are expanded from the delta
  /// encodings (nil: no limit).
  var memoryLimit: Int?

  /// A data page read a part at a time: its levels and its values, each read on from where
  /// the last part ended (a page of a few bytes may hold a run of a billion nulls).
  private struct DataPage {
    /// The entries still to read.
    var entries: Int
    var repetitions: RLEHybridReader?
    var definitions: RLEHybridReader?
    var values: PageValues
  }

  /// Where a data page's values are read from.
  private enum PageValues {
    /// PLAIN values (the delta encodings' made PLAIN first), the next from byte `position`
    /// (and bit `bit`, for booleans).
    case plain([UInt8], position: Int, bit: Int)
    /// Indices into the dictionary.
    case indices(RLEHybridReader)
    /// Booleans as the hybrid of width 1.
    case booleans(RLEHybridReader)
  }

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
  private func decompressed(_ page: UnsafeRawBufferPointer, size: Int) throws(ParquetError)
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

  /// A v1 data page of `rows - read` entries at most, to read in parts: after its
  /// decompression, the repetition levels, then the definition levels, each a 4-byte length
  /// and the RLE / bit-packed hybrid, then the values.
  private func dataPage(
    _ data: UnsafeRawBufferPointer, _ header: ParquetMetadata.PageHeader, rows: Int
  ) throws(ParquetError) -> DataPage {
    let bytes = try decompressed(data, size: Int(header.uncompressedSize))
    let entries = try entries(header, rows: rows)
    var offset = 0
    var levels: [RLEHybridReader?] = []
    try ParquetChunk.withBytes(bytes) { (raw) throws(ParquetError) in
      for (max, kind) in [
        (column.maxRepetition, "repetition"), (column.maxDefinition, "definition"),
      ] {
        guard max > 0 else {
          levels.append(nil)
          continue
        }
        guard raw.count - offset >= 4 else {
          throw ParquetError("has a page too short for its levels")
        }
        let length = Int(
          UnsafeRawBufferPointer(rebasing: raw[offset...]).loadUnaligned(as: UInt32.self)
            .littleEndian)
        guard length <= raw.count - offset - 4 else {
          throw ParquetError("has \(kind) levels that run past their page")
        }
        levels.append(
          try RLEHybridReader(
            UnsafeRawBufferPointer(rebasing: raw[offset + 4..<offset + 4 + length]),
            bitWidth: Self.bitWidth(max)))
        offset += 4 + length
      }
    }
    return try dataPage(
      entries: entries, repetitions: levels[0], definitions: levels[1], values: bytes,
      from: offset, header.encoding)
  }

  /// A v2 data page of `rows - read` entries at most, to read in parts: its levels, not
  /// compressed and without lengths of their own, then its values, compressed or not.
  private func dataPageV2(
    _ data: UnsafeRawBufferPointer, _ header: ParquetMetadata.PageHeader, rows: Int
  ) throws(ParquetError) -> DataPage {
    let entries = try entries(header, rows: rows)
    let (repetition, definition) =
      (Int(header.repetitionLevelsLength), Int(header.definitionLevelsLength))
    guard repetition >= 0, definition >= 0, repetition + definition <= data.count else {
      throw ParquetError("has a v2 page whose levels do not fit it")
    }
    let repetitions =
      column.maxRepetition > 0
      ? try RLEHybridReader(
        UnsafeRawBufferPointer(rebasing: data[0..<repetition]),
        bitWidth: Self.bitWidth(column.maxRepetition)) : nil
    let definitions =
      column.maxDefinition > 0
      ? try RLEHybridReader(
        UnsafeRawBufferPointer(rebasing: data[repetition..<repetition + definition]),
        bitWidth: Self.bitWidth(column.maxDefinition)) : nil
    let rest = UnsafeRawBufferPointer(rebasing: data[(repetition + definition)...])
    let size = Int(header.uncompressedSize) - repetition - definition
    let bytes = header.isCompressed ? try decompressed(rest, size: size) : Array(rest)
    return try dataPage(
      entries: entries, repetitions: repetitions, definitions: definitions, values: bytes,
      from: 0, header.encoding)
  }

  /// The entries `header` says its page holds: no more than the `rows - read` left.
  private func entries(_ header: ParquetMetadata.PageHeader, rows: Int) throws(ParquetError)
    -> Int
  {
    let entries = Swift.max(0, Int(header.valueCount))
    guard entries <= rows - read else {
      throw ParquetError("has a page of \(entries) values past its row group's \(rows) rows")
    }
    return entries
  }

  /// The bits a level up to `max` takes.
  private static func bitWidth(_ max: Int) -> Int { Int.bitWidth - max.leadingZeroBitCount }

  /// A page of `entries` entries with these levels, whose values are `bytes` from `start`
  /// on, in `encoding`.
  private func dataPage(
    entries: Int, repetitions: RLEHybridReader?, definitions: RLEHybridReader?,
    values bytes: [UInt8], from start: Int, _ encoding: Int32
  ) throws(ParquetError) -> DataPage {
    guard start <= bytes.count else { throw ParquetError("has a page too short for its levels") }
    var page = DataPage(
      entries: entries, repetitions: repetitions, definitions: definitions,
      values: .plain(bytes, position: start, bit: 0))
    guard encoding != 0 else { return page }
    page.values = try Self.withBytes(bytes) { (whole) throws(ParquetError) -> PageValues in
      let raw = UnsafeRawBufferPointer(rebasing: whole[start...])
      switch encoding {
      case 5, 6, 7, 9:
        // The page's values made PLAIN bytes, read as those are: as many as the definition
        // levels say are present (counted a part at a time).
        var present = entries
        if var levels = definitions {
          let highest = UInt32(column.maxDefinition)
          var (counted, part) = (0, [UInt32]())
          while counted < entries {
            part.removeAll(keepingCapacity: true)
            let n = Swift.min(entries - counted, 1 << 16)
            try levels.read(n, into: &part)
            present -= part.lazy.filter { $0 != highest }.count
            counted += n
          }
        }
        try checkExpansion(present)
        let plain = try ParquetDeltaEncodings.plain(
          raw, encoding: encoding, column: column, count: present)
        return .plain(plain, position: 0, bit: 0)
      case 2, 8:
        guard dictionary != nil else {
          throw ParquetError("has dictionary indices but no dictionary page")
        }
        guard let width = raw.first, width <= 32 else {
          throw ParquetError("has dictionary indices of an impossible width")
        }
        return .indices(
          try RLEHybridReader(UnsafeRawBufferPointer(rebasing: raw[1...]), bitWidth: Int(width)))
      case 3 where column.conversion == .bool:
        // Booleans as the hybrid of width 1, after a 4-byte length.
        guard raw.count >= 4 else { throw ParquetError("has a page too short for its values") }
        let length = Int(raw.loadUnaligned(as: UInt32.self).littleEndian)
        guard length <= raw.count - 4 else { throw ParquetError("has values past their page") }
        return .booleans(
          try RLEHybridReader(UnsafeRawBufferPointer(rebasing: raw[4..<4 + length]), bitWidth: 1))
      default:
        let names = [3: "RLE", 4: "BIT_PACKED"]
        throw ParquetError(
          "is written in the \(names[Int(encoding)] ?? "\(encoding)") encoding, which flt does not read yet"
        )
      }
    }
    return page
  }

  /// Throws when `count` values expanded from a page (the delta encodings hold a long
  /// sequence in a few bytes) would take the process past ``memoryLimit``.
  private func checkExpansion(_ count: Int) throws(ParquetError) {
    guard let limit = memoryLimit else { return }
    let resident = ProcessMemory.resident ?? 0
    let (need, overflow) = count.multipliedReportingOverflow(by: ParquetSource.bytesPerValue)
    guard overflow || need > limit - Swift.min(resident, limit) else { return }
    throw ParquetError(
      "has a page of \(count) values packed in a few bytes: expanded, they would pass the memory limit of \(ProcessMemory.describe(limit)); raise it (--max-memory, set memory)"
    )
  }

  /// Reads the current data page on, as far as the first `wanted` entries of the chunk.
  private mutating func readPart(upTo wanted: Int) throws(ParquetError) {
    guard var current = page else { return }
    page = nil
    let n = Swift.min(current.entries, Swift.max(0, wanted - read))
    var (repetitions, definitions): ([UInt8]?, [UInt8]?) = (nil, nil)
    if var levels = current.repetitions {
      repetitions = try Self.levels(&levels, n, max: column.maxRepetition)
      current.repetitions = levels
    }
    if var levels = current.definitions {
      definitions = try Self.levels(&levels, n, max: column.maxDefinition)
      current.definitions = levels
    }
    try readValues(
      &current.values, entries: n, definitions: definitions, repetitions: repetitions)
    current.entries -= n
    if current.entries > 0 { page = current }
  }

  /// The next `count` levels of `reader`, each at most `max`.
  private static func levels(_ reader: inout RLEHybridReader, _ count: Int, max: Int)
    throws(ParquetError) -> [UInt8]
  {
    var decoded: [UInt32] = []
    decoded.reserveCapacity(count)
    try reader.read(count, into: &decoded)
    var levels: [UInt8] = []
    levels.reserveCapacity(decoded.count)
    for level in decoded {
      guard level <= max else {
        throw ParquetError("has a level (\(level)) above its column's highest (\(max))")
      }
      levels.append(UInt8(level))
    }
    return levels
  }

  /// Reads `entries` entries of a page with these levels (nil: none written, as for a
  /// required column) and their values from `source`: a nested leaf keeps the levels and
  /// its values; a top-level leaf has a row per entry, null where the definition level is
  /// below the highest.
  private mutating func readValues(
    _ source: inout PageValues, entries: Int, definitions: [UInt8]?, repetitions: [UInt8]?
  ) throws(ParquetError) {
    let highest = UInt8(column.maxDefinition)
    guard column.isNested else {
      try readValues(
        &source, entries: entries, defined: definitions.map { $0.map { $0 == highest } })
      return
    }
    let present = definitions.map { $0.lazy.filter { $0 == highest }.count } ?? entries
    try readValues(&source, entries: present, defined: nil)
    self.definitions += definitions ?? [UInt8](repeating: highest, count: entries)
    self.repetitions += repetitions ?? [UInt8](repeating: 0, count: entries)
  }

  /// Appends `entries` rows: a value for each row `defined` says has one (every row when
  /// nil), read from `source`; a null for the others.
  private mutating func readValues(
    _ source: inout PageValues, entries: Int, defined: [Bool]?
  ) throws(ParquetError) {
    let present = defined.map { $0.lazy.filter { $0 }.count } ?? entries
    switch source {
    case .plain(let bytes, let position, let bit):
      var next = (position, bit)
      try Self.withBytes(bytes) { (raw) throws(ParquetError) in
        // (`present` is what the levels or the page claim: reserved as far as the bytes hold
        // values of a byte, the least any type but booleans takes.)
        var plain = PlainValues(raw, column: column, position: position, bit: bit)
        let room = Swift.min(present, raw.count - position)
        switch column.storage {
        case .ints:
          var page: [Int64] = []
          page.reserveCapacity(room)
          for _ in 0..<present { page.append(try plain.int()) }
          scatter(page, into: &ints, defined, null: 0)
        case .doubles:
          var page: [Double] = []
          page.reserveCapacity(room)
          for _ in 0..<present { page.append(try plain.double()) }
          scatter(page, into: &doubles, defined, null: 0)
        case .values:
          var page: [Value] = []
          page.reserveCapacity(room)
          for _ in 0..<present { page.append(try plain.value()) }
          appendValues(page, defined)
        }
        next = (plain.position, plain.bit)
      }
      source = .plain(bytes, position: next.0, bit: next.1)
    case .indices(var reader):
      guard let dictionary else {
        throw ParquetError("has dictionary indices but no dictionary page")
      }
      var indices: [UInt32] = []
      indices.reserveCapacity(present)
      try reader.read(present, into: &indices)
      source = .indices(reader)
      let size: Int =
        switch column.storage {
        case .ints: dictionary.ints.count
        case .doubles: dictionary.doubles.count
        case .values: dictionary.values.count
        }
      if let largest = indices.max(), Int(largest) >= size { throw .badIndex(Int(largest)) }
      switch column.storage {
      case .ints: scatter(indices.map { dictionary.ints[Int($0)] }, into: &ints, defined, null: 0)
      case .doubles:
        scatter(indices.map { dictionary.doubles[Int($0)] }, into: &doubles, defined, null: 0)
      case .values:
        if var current = codes {
          codes = nil
          scatter(indices, into: &current, defined, null: UInt32(size))
          codes = current
        } else {
          appendValues(indices.map { dictionary.values[Int($0)] }, defined)
        }
      }
    case .booleans(var reader):
      var bits: [UInt32] = []
      bits.reserveCapacity(present)
      try reader.read(present, into: &bits)
      source = .booleans(reader)
      appendValues(bits.map { .bool($0 == 1) }, defined)
    }
    if column.optional && !column.isNested {
      if let defined, present > 0, present < entries {
        nulls += defined.lazy.map { !$0 }
        anyNull = true
      } else if defined != nil, present == 0, entries > 0 {
        nulls += repeatElement(true, count: entries)
        anyNull = true
      } else {
        nulls += repeatElement(false, count: entries)
      }
    }
  }

  /// Appends `page`, values not from the dictionary: the codes so far become values first.
  private mutating func appendValues(_ page: [Value], _ defined: [Bool]?) {
    if let codes, let dictionary {
      let all = dictionary.values + [.null]
      values = codes.map { all[Int($0)] }
    }
    codes = nil
    scatter(page, into: &values, defined, null: .null)
  }

  /// Appends the rows of a page whose present values are `page`: each row `defined` says has
  /// one takes the next, the others `null`.
  private func scatter<T>(_ page: [T], into target: inout [T], _ defined: [Bool]?, null: T) {
    // (Every row has a value, or none has: a run of nulls, a few bytes in a file, fills
    // batches of them.)
    guard let defined, page.count != defined.count else {
      target += page
      return
    }
    if page.isEmpty {
      target.append(contentsOf: repeatElement(null, count: defined.count))
      return
    }
    // (No reserveCapacity here: called per page, it would grow the array by a page at a
    // time, copying it whole each time.)
    var next = 0
    for has in defined {
      if has {
        target.append(page[next])
        next += 1
      } else {
        target.append(null)
      }
    }
  }
}

extension ParquetChunk {
  /// `body` over `bytes`, its typed error kept.
  fileprivate static func withBytes<T>(
    _ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(ParquetError) -> T
  ) throws(ParquetError) -> T {
    let result: Result<T, ParquetError> = bytes.withUnsafeBytes { raw in
      Result { () throws(ParquetError) in try body(raw) }
    }
    return try result.get()
  }
}

extension ParquetError {
  static func badIndex(_ code: Int) -> ParquetError {
    ParquetError("has a dictionary index (\(code)) past its dictionary")
  }
}
