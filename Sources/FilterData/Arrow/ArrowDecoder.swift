import FilterDSL

/// Makes flt's values of a record batch's arrays, a range of rows at a time: every buffer,
/// offset and index is checked against what holds it before it is read, so a damaged file is
/// an error, never a trap.
struct ArrowDecoder {
  /// The batch's buffers, decompressed (nil: not needed by the fields read).
  let buffers: [ArrowBuffer?]
  /// The values of each dictionary, by id.
  let dictionaries: [Int64: [Value]]
  /// The most values the elements of a range of lists may claim, and a dictionary: what the
  /// batch's bytes can account for (elements of a null type have no bytes: a million of them).
  let bound: Int
  /// The most memory the process may hold (resident bytes) while values are made; nil: no
  /// limit.
  var memoryLimit: Int? = nil

  /// The top-level column of `array`'s `rows`: integers and floats as flat buffers,
  /// dictionary-coded values as codes, the others as values.
  func column(_ array: ArrowArray, rows: Range<Int>) throws(ArrowError) -> Column {
    try check(array, rows)
    let nulls = try nullFlags(array, rows)
    if array.field.dictionary == nil {
      switch array.field.type {
      case .int, .uint:
        return .ints(try integers(array, array.field.type, rows, nulls), nulls: nulls)
      case .float:
        return .doubles(try floats(array, rows), nulls: nulls)
      case .null:
        // (Coded, as a column not read is: a test on it runs once, not once a row.)
        if let column = Column.coded([UInt32](repeating: 0, count: rows.count), values: [.null]) {
          return column
        }
      default: break
      }
    } else if let id = array.field.dictionary, let dictionary = dictionaries[id] {
      let indexes = try integers(array, array.field.indexType ?? .int(bits: 32), rows, nulls)
      var codes = [UInt32](repeating: 0, count: indexes.count)
      for (row, index) in indexes.enumerated() where nulls?[row] != true {
        guard index >= 0, index < dictionary.count else { throw badIndex(array, index) }
        codes[row] = UInt32(index + 1)
      }
      if let column = Column.coded(codes, values: [.null] + dictionary) { return column }
    }
    return .values(try values(array, rows, nulls))
  }

  /// The values of `array`'s `rows`.
  func values(_ array: ArrowArray, rows: Range<Int>) throws(ArrowError) -> [Value] {
    try check(array, rows)
    return try values(array, rows, try nullFlags(array, rows))
  }

  /// The values of `array`'s `rows` (checked), `nulls` saying which are null.
  private func values(_ array: ArrowArray, _ rows: Range<Int>, _ nulls: [Bool]?)
    throws(ArrowError) -> [Value]
  {
    var values = try present(array, rows, nulls)
    if let nulls {
      for (row, isNull) in nulls.enumerated() where isNull { values[row] = .null }
    }
    return values
  }

  /// The values of `rows`, null rows (`nulls`) among them made as if they had a value (their
  /// slots may hold anything), or null.
  private func present(_ array: ArrowArray, _ rows: Range<Int>, _ nulls: [Bool]?)
    throws(ArrowError) -> [Value]
  {
    let field = array.field
    if let id = field.dictionary {
      guard let dictionary = dictionaries[id] else {
        throw ArrowError(
          "column '\(field.name)' is coded by dictionary \(id), which the data does not hold")
      }
      let indexes = try integers(array, field.indexType ?? .int(bits: 32), rows, nulls)
      var values: [Value] = []
      values.reserveCapacity(indexes.count)
      for (row, index) in indexes.enumerated() {
        if nulls?[row] == true {
          values.append(.null)
          continue
        }
        guard index >= 0, index < dictionary.count else { throw badIndex(array, index) }
        values.append(dictionary[Int(index)])
      }
      return values
    }
    switch field.type {
    case .null:
      return [Value](repeating: .null, count: rows.count)
    case .bool:
      let data = try buffer(array, 1, holding: rows.upperBound, bits: 1)
      return try data.withBytes { raw in
        rows.map { .bool(raw[$0 >> 3] >> UInt8($0 & 7) & 1 == 1) }
      }
    case .int, .uint:
      return try integers(array, field.type, rows, nulls).map { .int($0) }
    case .float:
      return try floats(array, rows).map { .double($0) }
    case .decimal(_, let scale, let bits):
      let exact = (try? field.valueType()) == .decimal
      return try fixed(array, rows, nulls, bytes: bits / 8) { (raw) throws(ArrowError) in
        exact
          ? try ArrowDecoder.decimal(raw, scale: scale, field.name)
          : .double(StoredValues.scaled(ArrowDecoder.littleEndianDouble(raw), scale))
      }
    case .date(let milliseconds):
      return try counts(
        array, rows, nulls, bytes: milliseconds ? 8 : 4, "a date outside the years 0000-9999"
      ) {
        StoredValues.date(days: milliseconds ? ArrowDecoder.floorDivide($0, 86_400_000) : $0)
      }
    case .time(let perSecond, let bits):
      return try counts(array, rows, nulls, bytes: bits / 8, "a time of day outside 00:00-24:00") {
        StoredValues.time($0, perSecond: perSecond)
      }
    case .timestamp(let perSecond):
      return try counts(array, rows, nulls, bytes: 8, "a time outside the years 0000-9999") {
        StoredValues.instant($0, perSecond: perSecond)
      }
    case .duration(let perSecond):
      return try counts(array, rows, nulls, bytes: 8, "a duration longer than flt's") {
        StoredValues.duration($0, perSecond: perSecond)
      }
    case .interval(let monthDayNano):
      return try fixed(array, rows, nulls, bytes: monthDayNano ? 16 : 8) {
        (raw) throws(ArrowError) in
        try ArrowDecoder.interval(raw, monthDayNano: monthDayNano, field.name)
      }
    case .fixedBinary(let width):
      let uuid = field.extensionName == "arrow.uuid" && width == 16
      return try fixed(array, rows, nulls, bytes: width) { (raw) throws(ArrowError) in
        .string(uuid ? StoredValues.uuid(raw) : String(decoding: raw, as: UTF8.self))
      }
    case .utf8(let layout), .binary(let layout):
      return try texts(array, rows, layout, nulls)
    case .list(let layout):
      return try lists(array, rows, layout, nulls)
    case .map:
      return try lists(array, rows, .offsets, nulls)
    case .fixedList(let size):
      guard let child = array.children.first else {
        throw ArrowError("column '\(field.name)' is a list with no element array")
      }
      let (start, overflow) = rows.lowerBound.multipliedReportingOverflow(by: size)
      let (end, past) = rows.upperBound.multipliedReportingOverflow(by: size)
      guard !overflow, !past else { throw tooMany(array, Int.max) }
      try checkValues(array, end - start)
      let elements = try values(child, rows: start..<end)
      return (0..<rows.count).map { row in
        .list(Array(elements[(row * size)..<(row * size + size)]))
      }
    case .structure:
      var columns: [[Value]] = []
      for child in array.children { columns.append(try values(child, rows: rows)) }
      return (0..<rows.count).map { row in .record(columns.map { $0[row] }) }
    case .unsupported(let name):
      throw ArrowError("column '\(field.name)' is of Arrow's \(name) type, which flt does not read")
    }
  }

  // MARK: Buffers

  /// Checks that `rows` lie within `array` and that its length is one the batch can hold.
  private func check(_ array: ArrowArray, _ rows: Range<Int>) throws(ArrowError) {
    guard rows.lowerBound >= 0, rows.upperBound <= array.length else {
      throw ArrowError(
        "column '\(array.field.name)' has \(array.length) values where \(rows.upperBound) are needed"
      )
    }
  }

  /// The error for `array` claiming `count` values (or elements of its lists) where its
  /// batch's bytes cannot account for them.
  func tooMany(_ array: ArrowArray, _ count: Int) -> ArrowError {
    ArrowError(
      "column '\(array.field.name)' claims \(count) values, more than the \(bound) its batch's bytes account for, which flt reads at most"
    )
  }

  /// Throws unless `count` values of `array` (a dictionary, or the elements of a range of
  /// its lists) are as many as its batch's bytes account for, and fit under the memory limit
  /// once made.
  func checkValues(_ array: ArrowArray, _ count: Int) throws(ArrowError) {
    guard count <= bound else { throw tooMany(array, count) }
    guard let memoryLimit,
      let (_, resident) = ProcessMemory.values(
        count, of: MemoryLayout<Value>.stride, past: memoryLimit)
    else { return }
    throw ArrowError(
      "column '\(array.field.name)' has \(count) values to make, past the memory limit of \(ProcessMemory.describe(memoryLimit)) (flt holds \(ProcessMemory.describe(resident))); raise the limit (--max-memory, set memory), or read fewer fields"
    )
  }

  private func badIndex(_ array: ArrowArray, _ index: Int64) -> ArrowError {
    ArrowError(
      "column '\(array.field.name)' holds the dictionary index \(index), past its dictionary")
  }

  /// Buffer `index` of `array`'s, checked to hold `count` values of `bits` bits each.
  private func buffer(_ array: ArrowArray, _ index: Int, holding count: Int, bits: Int)
    throws(ArrowError) -> ArrowBuffer
  {
    guard index < array.buffers.count, array.buffers[index] < buffers.count,
      let buffer = buffers[array.buffers[index]]
    else { throw ArrowError("column '\(array.field.name)' lacks a buffer") }
    let (needed, overflow) = count.multipliedReportingOverflow(by: bits)
    guard !overflow, buffer.count >= (needed + 7) / 8 else {
      throw ArrowError(
        "column '\(array.field.name)' has a buffer of \(buffer.count) bytes, too short for its \(count) values"
      )
    }
    return buffer
  }

  /// Which of `rows` are null, nil when none is.
  private func nullFlags(_ array: ArrowArray, _ rows: Range<Int>) throws(ArrowError) -> [Bool]? {
    // (Null arrays have no validity buffer; nor have arrays without nulls, often.)
    guard array.nulls > 0, case let type = array.field.type,
      type != .null || array.field.dictionary != nil,
      let first = array.buffers.first, first < buffers.count, let validity = buffers[first],
      validity.count > 0
    else { return nil }
    let bits = try buffer(array, 0, holding: rows.upperBound, bits: 1)
    return try bits.withBytes { raw in rows.map { raw[$0 >> 3] >> UInt8($0 & 7) & 1 == 0 } }
  }

  /// `rows` of an array of fixed-width values, `bytes` each, each made by `make`.
  private func fixed(
    _ array: ArrowArray, _ rows: Range<Int>, _ nulls: [Bool]?, bytes: Int,
    _ make: (UnsafeRawBufferPointer) throws(ArrowError) -> Value
  ) throws(ArrowError) -> [Value] {
    let data = try buffer(array, 1, holding: rows.upperBound, bits: 8 * bytes)
    return try data.withBytes { (raw) throws(ArrowError) in
      var values: [Value] = []
      values.reserveCapacity(rows.count)
      for (slot, row) in rows.enumerated() {
        guard nulls?[slot] != true else {
          values.append(.null)
          continue
        }
        values.append(
          try make(UnsafeRawBufferPointer(rebasing: raw[(row * bytes)..<(row * bytes + bytes)])))
      }
      return values
    }
  }

  /// `rows` of an array of signed integers of `bytes` bytes (4 or 8), each the value `make`
  /// makes of it; one it makes none of is an error saying the column holds `what`.
  private func counts(
    _ array: ArrowArray, _ rows: Range<Int>, _ nulls: [Bool]?, bytes: Int, _ what: String,
    _ make: (Int64) -> Value?
  ) throws(ArrowError) -> [Value] {
    try fixed(array, rows, nulls, bytes: bytes) { (raw) throws(ArrowError) in
      let count = ArrowDecoder.signed(raw)
      guard let value = make(count) else {
        throw ArrowError("column '\(array.field.name)' holds \(what) (stored as \(count))")
      }
      return value
    }
  }

  /// `rows` of an array of integers of `type` (an index type too), as 64-bit integers (an
  /// unsigned one past 2^63 - 1 is an error).
  private func integers(
    _ array: ArrowArray, _ type: ArrowType, _ rows: Range<Int>, _ nulls: [Bool]?
  ) throws(ArrowError) -> [Int64] {
    let (bits, signed): (Int, Bool) =
      switch type {
      case .int(let bits): (bits, true)
      case .uint(let bits): (bits, false)
      default: (64, true)
      }
    let data = try buffer(array, 1, holding: rows.upperBound, bits: bits)
    return try data.withBytes { (raw) throws(ArrowError) in
      func read<T: FixedWidthInteger>(_: T.Type) -> [Int64] {
        rows.map {
          Int64(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: $0 * (bits / 8), as: T.self))
        }
      }
      switch (bits, signed) {
      case (8, true): return read(Int8.self)
      case (8, false): return read(UInt8.self)
      case (16, true): return read(Int16.self)
      case (16, false): return read(UInt16.self)
      case (32, true): return read(Int32.self)
      case (32, false): return read(UInt32.self)
      case (64, true): return read(Int64.self)
      default:
        var values: [Int64] = []
        values.reserveCapacity(rows.count)
        for (slot, row) in rows.enumerated() {
          let value = raw.loadUnaligned(fromByteOffset: row * 8, as: UInt64.self)
          guard let exact = Int64(exactly: value) else {
            guard nulls?[slot] == true else {
              throw ArrowError(
                "column '\(array.field.name)' holds the unsigned integer \(value), beyond flt's integers (up to 2^63 - 1)"
              )
            }
            values.append(0)
            continue
          }
          values.append(exact)
        }
        return values
      }
    }
  }

  /// `rows` of an array of floats, as doubles.
  private func floats(_ array: ArrowArray, _ rows: Range<Int>) throws(ArrowError) -> [Double] {
    guard case .float(let bits) = array.field.type else { return [] }
    let data = try buffer(array, 1, holding: rows.upperBound, bits: bits)
    return try data.withBytes { raw in
      switch bits {
      case 16:
        rows.map {
          Double(StoredValues.half(raw.loadUnaligned(fromByteOffset: $0 * 2, as: UInt16.self)))
        }
      case 32: rows.map { Double(raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self)) }
      default: rows.map { raw.loadUnaligned(fromByteOffset: $0 * 8, as: Double.self) }
      }
    }
  }

  /// Where each of `rows` begins in its array's data or child, and where the last ends: the
  /// `rows.count + 1` offsets of buffer 1, each checked to be no less than the one before.
  private func offsets(_ array: ArrowArray, _ rows: Range<Int>, large: Bool) throws(ArrowError)
    -> [Int]
  {
    if rows.isEmpty { return [0] }
    let width = large ? 8 : 4
    let data = try buffer(array, 1, holding: rows.upperBound + 1, bits: 8 * width)
    let offsets = try data.withBytes { raw in
      (rows.lowerBound...rows.upperBound).map { row -> Int in
        large
          ? Int(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: row * 8, as: Int64.self))
          : Int(raw.loadUnaligned(fromByteOffset: row * 4, as: Int32.self))
      }
    }
    guard offsets[0] >= 0, zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }) else {
      throw ArrowError("column '\(array.field.name)' has offsets that go backwards")
    }
    return offsets
  }

  /// `rows` of an array of text or bytes (bytes are read as text, as Parquet's are).
  private func texts(
    _ array: ArrowArray, _ rows: Range<Int>, _ layout: ArrowLayout, _ nulls: [Bool]?
  ) throws(ArrowError) -> [Value] {
    let name = array.field.name
    if layout == .views { return try views(array, rows, nulls) }
    let offsets = try offsets(array, rows, large: layout == .largeOffsets)
    guard 2 < array.buffers.count, array.buffers[2] < buffers.count,
      let data = buffers[array.buffers[2]]
    else { throw ArrowError("column '\(name)' lacks its data buffer") }
    guard let last = offsets.last, last <= data.count else {
      throw ArrowError("column '\(name)' has offsets past its data (\(data.count) bytes)")
    }
    return try data.withBytes { raw in
      (0..<rows.count).map { slot in
        .string(String(decoding: raw[offsets[slot]..<offsets[slot + 1]], as: UTF8.self))
      }
    }
  }

  /// `rows` of an array of text views: each 16 bytes, its length, then the text itself (12
  /// bytes or fewer) or its first 4 bytes, the data buffer holding it and where.
  private func views(_ array: ArrowArray, _ rows: Range<Int>, _ nulls: [Bool]?)
    throws(ArrowError) -> [Value]
  {
    let name = array.field.name
    var data: [ArrowBuffer] = []
    for index in array.buffers.dropFirst(2) {
      guard index < buffers.count, let buffer = buffers[index] else {
        throw ArrowError("column '\(name)' lacks a data buffer")
      }
      data.append(buffer)
    }
    return try fixed(array, rows, nulls, bytes: 16) { (view) throws(ArrowError) in
      let length = Int(view.loadUnaligned(as: Int32.self))
      guard length >= 0 else { throw ArrowError("column '\(name)' has a view of \(length) bytes") }
      if length <= 12 {
        return .string(String(decoding: view[4..<(4 + length)], as: UTF8.self))
      }
      let index = Int(view.loadUnaligned(fromByteOffset: 8, as: Int32.self))
      let start = Int(view.loadUnaligned(fromByteOffset: 12, as: Int32.self))
      guard index >= 0, index < data.count, start >= 0, length <= data[index].count - start else {
        throw ArrowError("column '\(name)' has a view past its data")
      }
      return try data[index].withBytes { bytes in
        .string(String(decoding: bytes[start..<(start + length)], as: UTF8.self))
      }
    }
  }

  /// `rows` of an array of lists (or of a map's entries): each row the elements its offsets
  /// (or its offset and size, for views) take from the child array.
  private func lists(
    _ array: ArrowArray, _ rows: Range<Int>, _ layout: ArrowLayout, _ nulls: [Bool]?
  ) throws(ArrowError) -> [Value] {
    guard let child = array.children.first else {
      throw ArrowError("column '\(array.field.name)' is a list with no element array")
    }
    var ranges: [Range<Int>] = []
    if layout == .views {
      let starts = try buffer(array, 1, holding: rows.upperBound, bits: 32)
      let sizes = try buffer(array, 2, holding: rows.upperBound, bits: 32)
      for (slot, row) in rows.enumerated() {
        let start = try starts.withBytes {
          Int($0.loadUnaligned(fromByteOffset: row * 4, as: Int32.self))
        }
        let size = try sizes.withBytes {
          Int($0.loadUnaligned(fromByteOffset: row * 4, as: Int32.self))
        }
        guard nulls?[slot] != true, size > 0 else {
          ranges.append(0..<0)
          continue
        }
        guard start >= 0, start <= child.length - size else {
          throw ArrowError("column '\(array.field.name)' has a list view past its elements")
        }
        ranges.append(start..<(start + size))
      }
    } else {
      let offsets = try offsets(array, rows, large: layout == .largeOffsets)
      ranges = zip(offsets, offsets.dropFirst()).map { $0..<$1 }
    }
    let low = ranges.filter { !$0.isEmpty }.map(\.lowerBound).min() ?? 0
    let high = ranges.map(\.upperBound).max() ?? 0
    try checkValues(array, high - low)
    let elements = try values(child, rows: low..<Swift.max(low, high))
    return ranges.map { range in
      .list(
        range.isEmpty ? [] : Array(elements[(range.lowerBound - low)..<(range.upperBound - low)]))
    }
  }
}
