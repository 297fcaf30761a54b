import FilterDSL

/// Reading a column chunk's data pages, a part at a time: a page's levels (v1: after its
/// decompression, each with a 4-byte length; v2: before its values, uncompressed), its values
/// in their encoding, and the rows they make (a null where the definition level is below the
/// highest).
extension ParquetChunk {
  /// A data page read a part at a time: its levels and its values, each read on from where
  /// the last part ended (a page of a few bytes may hold a run of a billion nulls).
  struct DataPage {
    /// The entries still to read.
    var entries: Int
    var repetitions: RLEHybridReader?
    var definitions: RLEHybridReader?
    var values: PageValues
  }

  /// Where a data page's values are read from.
  enum PageValues {
    /// PLAIN values (the delta encodings' made PLAIN first), the next from byte `position`
    /// (and bit `bit`, for booleans).
    case plain([UInt8], position: Int, bit: Int)
    /// Indices into the dictionary.
    case indices(RLEHybridReader)
    /// Booleans as the hybrid of width 1.
    case booleans(RLEHybridReader)
  }

  /// A v1 data page of `rows - read` entries at most, to read in parts: after its
  /// decompression, the repetition levels, then the definition levels, each a 4-byte length
  /// and the RLE / bit-packed hybrid, then the values.
  func dataPage(
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
  func dataPageV2(
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
    guard let limit = memoryLimit,
      ProcessMemory.values(count, of: ParquetSource.bytesPerValue, past: limit) != nil
    else { return }
    throw ParquetError(
      "has a page of \(count) values packed in a few bytes: expanded, they would pass the memory limit of \(ProcessMemory.describe(limit)); raise it (--max-memory, set memory)"
    )
  }

  /// Reads the current data page on, as far as the first `wanted` entries of the chunk.
  mutating func readPart(upTo wanted: Int) throws(ParquetError) {
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
  static func withBytes<T>(
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
