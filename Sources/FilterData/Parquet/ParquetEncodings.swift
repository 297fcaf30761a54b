import FilterDSL

/// The RLE / bit-packed hybrid Parquet writes levels, dictionary indices and booleans in:
/// runs of one repeated value, and groups of eight values packed `bitWidth` bits each,
/// least significant bit first.
enum RLEHybrid {
  /// The first `count` values of `bytes`, each `bitWidth` (0-32) bits wide.
  static func decode(_ bytes: UnsafeRawBufferPointer, bitWidth: Int, count: Int)
    throws(ParquetError) -> [UInt32]
  {
    var reader = try RLEHybridReader(bytes, bitWidth: bitWidth)
    var out: [UInt32] = []
    // Reserved for what the bytes hold bit-packed (runs, which take a few bytes for any
    // number of values, grow it): `count` is what a page claims.
    out.reserveCapacity(Swift.min(count, bytes.count &* 8))
    try reader.read(count, into: &out)
    return out
  }
}

/// Reads the RLE / bit-packed hybrid a part at a time: a run, a few bytes in a file however
/// many values it repeats, is expanded only as far as values are asked for.
struct RLEHybridReader {
  private let bytes: [UInt8]
  private let bitWidth: Int
  private let mask: UInt64
  /// Where the next run's header is.
  private var position = 0
  /// What is left of the run being read: repeated values of `value`, or bit-packed ones
  /// from bit `bit` of ``bytes``.
  private var repeated = 0
  private var value: UInt32 = 0
  private var packed = 0
  private var bit = 0

  /// A reader of `bytes` (copied), values `bitWidth` (0-32) bits wide.
  init(_ bytes: UnsafeRawBufferPointer, bitWidth: Int) throws(ParquetError) {
    guard (0...32).contains(bitWidth) else { throw ParquetError("has a bit width of \(bitWidth)") }
    self.bytes = Array(bytes)
    self.bitWidth = bitWidth
    mask = bitWidth == 32 ? 0xFFFF_FFFF : (1 << UInt64(bitWidth)) - 1
  }

  /// Appends the next `count` values to `out`.
  mutating func read(_ count: Int, into out: inout [UInt32]) throws(ParquetError) {
    let held = bytes
    let result: Result<Void, ParquetError> = held.withUnsafeBytes { bytes in
      Result { () throws(ParquetError) in try read(count, bytes, into: &out) }
    }
    try result.get()
  }

  /// ``read(_:into:)`` over ``bytes``, held.
  private mutating func read(
    _ count: Int, _ bytes: UnsafeRawBufferPointer, into out: inout [UInt32]
  ) throws(ParquetError) {
    var left = count
    while left > 0 {
      if repeated > 0 {
        let n = Swift.min(repeated, left)
        out.append(contentsOf: repeatElement(value, count: n))
        (repeated, left) = (repeated - n, left - n)
      } else if packed > 0 {
        let n = Swift.min(packed, left)
        if bitWidth == 0 {
          out.append(contentsOf: repeatElement(0, count: n))
        } else {
          for index in 0..<n {
            let value = PackedBits.value(bytes, bit: bit + index * bitWidth, width: bitWidth)
            out.append(UInt32(truncatingIfNeeded: value & mask))
          }
          bit += n * bitWidth
        }
        (packed, left) = (packed - n, left - n)
      } else {
        try next(bytes)
      }
    }
  }

  /// Reads the next run's header (and a repeated value).
  private mutating func next(_ bytes: UnsafeRawBufferPointer) throws(ParquetError) {
    let header = try PackedBits.varint(bytes, &position, "has levels or indices that end early")
    if header & 1 == 0 {
      // A run: its length, then its value in whole bytes.
      let width = (bitWidth + 7) / 8
      guard width <= bytes.count - position else {
        throw ParquetError("has levels or indices that end early")
      }
      var value: UInt64 = 0
      for index in 0..<width { value |= UInt64(bytes[position + index]) << UInt64(8 * index) }
      position += width
      self.value = UInt32(truncatingIfNeeded: value & mask)
      repeated = Int(Swift.min(header >> 1, UInt64(Int.max)))
      return
    }
    // Groups of eight values, bit-packed. Of width 0 they take no byte (arrow-rs writes a
    // one-value dictionary's indices so): every value is 0.
    let groups = header >> 1
    if bitWidth == 0 {
      packed = Int(Swift.min(groups, UInt64(Int.max / 8))) * 8
      return
    }
    guard groups <= UInt64(bytes.count - position) else {
      throw ParquetError("has levels or indices that end early")
    }
    let length = Int(groups) * bitWidth
    guard length <= bytes.count - position else {
      throw ParquetError("has levels or indices that end early")
    }
    (bit, packed) = (position * 8, Int(groups) * 8)
    position += length
  }
}

/// What Parquet's packed encodings (the hybrid, the delta encodings) are made of: unsigned
/// LEB128 numbers, and values of a few bits packed least significant bit first.
enum PackedBits {
  /// The LEB128 number at `position` (at most 64 bits), consumed; `missing` says what ended
  /// early otherwise.
  static func varint(_ bytes: UnsafeRawBufferPointer, _ position: inout Int, _ missing: String)
    throws(ParquetError) -> UInt64
  {
    var (result, shift): (UInt64, UInt64) = (0, 0)
    while true {
      guard position < bytes.count, shift < 64 else { throw ParquetError(missing) }
      let byte = bytes[position]
      position += 1
      result |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return result }
      shift += 7
    }
  }

  /// Appends `value` as a LEB128 number (the writers' counterpart of ``varint(_:_:_:)``).
  static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      out.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    out.append(UInt8(value))
  }

  /// `width` bits (up to 64) from bit `bit` of `bytes`, least significant first; the caller
  /// has checked they are within `bytes`.
  static func value(_ bytes: UnsafeRawBufferPointer, bit: Int, width: Int) -> UInt64 {
    var value: UInt64 = 0
    var taken = 0
    while taken < width {
      let at = bit + taken
      value |= (UInt64(bytes[at / 8]) >> UInt64(at % 8)) << UInt64(taken)
      taken += 8 - at % 8
    }
    return width == 64 ? value : value & ((1 << UInt64(width)) - 1)
  }
}

/// Values in Parquet's PLAIN encoding, read one at a time as `column` converts them:
/// little-endian numbers, booleans a bit each, byte arrays after their 4-byte length, fixed
/// arrays of the column's length.
struct PlainValues {
  private let bytes: UnsafeRawBufferPointer
  private let column: ParquetColumn
  /// Where the next value is (a page read in parts goes on from there).
  private(set) var position = 0
  /// For booleans: the next bit.
  private(set) var bit = 0

  /// A reader of `bytes`, from byte `position` (and for booleans, its bit `bit`).
  init(_ bytes: UnsafeRawBufferPointer, column: ParquetColumn, position: Int = 0, bit: Int = 0) {
    (self.bytes, self.column, self.position, self.bit) = (bytes, column, position, bit)
  }

  private mutating func take(_ count: Int) throws(ParquetError) -> UnsafeRawBufferPointer {
    guard count >= 0, count <= bytes.count - position else {
      throw ParquetError("has a page whose values end early")
    }
    defer { position += count }
    return UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
  }

  private mutating func word<T: FixedWidthInteger>(_: T.Type) throws(ParquetError) -> T {
    try take(MemoryLayout<T>.size).loadUnaligned(as: T.self).littleEndian
  }

  /// A BYTE_ARRAY's bytes, or a FIXED_LEN_BYTE_ARRAY's.
  private mutating func array() throws(ParquetError) -> UnsafeRawBufferPointer {
    if column.physical == .fixedLengthByteArray { return try take(column.typeLength) }
    return try take(Int(try word(UInt32.self)))
  }

  /// An integer value (``ParquetColumn/Storage/ints``).
  mutating func int() throws(ParquetError) -> Int64 {
    switch (column.physical, column.conversion) {
    case (.int32, .uint32): return Int64(UInt32(bitPattern: try word(Int32.self)))
    case (.int32, _): return Int64(try word(Int32.self))
    case (_, .uint64):
      let value = try word(UInt64.self)
      guard let exact = Int64(exactly: value) else {
        throw ParquetError(
          "holds the unsigned integer \(value), beyond flt's integers (up to 2^63 - 1)")
      }
      return exact
    default: return try word(Int64.self)
    }
  }

  /// A decimal value (``ParquetColumn/Storage/doubles``).
  mutating func double() throws(ParquetError) -> Double {
    switch column.conversion {
    case .float: return Double(Float(bitPattern: try word(UInt32.self)))
    case .float16: return Double(StoredValues.half(try word(UInt16.self)))
    case .decimal(let scale):
      let unscaled: Double
      switch column.physical {
      case .int32: unscaled = Double(try word(Int32.self))
      case .int64: unscaled = Double(try word(Int64.self))
      default: unscaled = PlainValues.bigEndianSigned(try array())
      }
      return StoredValues.scaled(unscaled, scale)
    default: return Double(bitPattern: try word(UInt64.self))
    }
  }

  /// A date or time (`what`) stored as `stored` that flt's cannot hold: an error, never a
  /// value clamped to another.
  static func outOfRange(_ what: String, _ stored: Int64) -> ParquetError {
    ParquetError(
      "holds \(what) outside the years 0000-9999 (stored as \(stored)), which flt's dates and times hold"
    )
  }

  /// How many of `unit` make a second.
  static func perSecond(_ unit: ParquetMetadata.TimeUnit) -> Int64 {
    switch unit {
    case .milliseconds: 1_000
    case .microseconds: 1_000_000
    case .nanoseconds: 1_000_000_000
    }
  }

  /// Any other value (``ParquetColumn/Storage/values``).
  mutating func value() throws(ParquetError) -> Value {
    switch column.conversion {
    case .bool:
      guard bit / 8 < bytes.count - position else {
        throw ParquetError("has a page whose values end early")
      }
      defer { bit += 1 }
      return .bool(bytes[position + bit / 8] >> UInt8(bit % 8) & 1 == 1)
    case .date:
      let days = Int64(try word(Int32.self))
      guard let date = StoredValues.date(days: days) else {
        throw PlainValues.outOfRange("a date", days)
      }
      return date
    case .timestamp(let unit):
      let count = try word(Int64.self)
      guard let instant = StoredValues.instant(count, perSecond: PlainValues.perSecond(unit))
      else { throw PlainValues.outOfRange("a time", count) }
      return instant
    case .int96:
      let nanos = try word(Int64.self)
      let julian = Int64(try word(Int32.self))
      // Julian day 2,440,588 is 1970-01-01.
      let (extra, within) = nanos.quotientAndRemainder(dividingBy: 1_000_000_000)
      let (seconds, overflow) = (julian - 2_440_588).multipliedReportingOverflow(by: 86_400)
      guard !overflow, within >= 0, StoredValues.seconds.contains(seconds &+ extra) else {
        throw ParquetError(
          "holds an INT96 time outside the years 0000-9999, which flt's times hold")
      }
      return .dateTime(Instant(seconds: seconds &+ extra, nanoseconds: Int32(within)))
    case .timeOfDay(let unit):
      let count = column.physical == .int32 ? Int64(try word(Int32.self)) : try word(Int64.self)
      // (24:00:00 itself is a time of day SQL allows.)
      guard let time = StoredValues.time(count, perSecond: PlainValues.perSecond(unit)) else {
        throw ParquetError("holds a time of day outside 00:00-24:00 (stored as \(count))")
      }
      return time
    case .interval:
      let raw = try array()
      guard raw.count == 12 else { throw ParquetError("holds an INTERVAL that is not 12 bytes") }
      let (months, days, milliseconds) = (
        raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self).littleEndian,
        raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian,
        raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
      )
      guard months == 0 else {
        throw ParquetError(
          "holds an interval of \(months) month\(months == 1 ? "" : "s"), which flt reads only as a length of time (a month's length varies)"
        )
      }
      let (span, overflow) = Int64(days).multipliedReportingOverflow(by: 86_400_000_000_000)
      let (total, past) = span.addingReportingOverflow(Int64(milliseconds) * 1_000_000)
      guard !overflow, !past else {
        throw ParquetError("holds an interval of \(days) days, longer than flt's durations")
      }
      return .duration(TimeSpan(nanoseconds: total))
    case .exactDecimal(let scale):
      let unscaled: Int128?
      switch column.physical {
      case .int32: unscaled = Int128(try word(Int32.self))
      case .int64: unscaled = Int128(try word(Int64.self))
      default: unscaled = PlainValues.bigEndianInt128(try array())
      }
      guard let unscaled, let exact = ExactDecimal(significand: unscaled, scale: scale) else {
        throw ParquetError("holds a decimal beyond the 38 digits of flt's decimals")
      }
      return .decimal(exact)
    case .uuid:
      return .string(StoredValues.uuid(try array()))
    default:
      return .string(String(decoding: try array(), as: UTF8.self))
    }
  }

  /// A big-endian two's-complement integer, if it fits 128 bits (bytes past 16 only repeat
  /// the sign).
  static func bigEndianInt128(_ bytes: UnsafeRawBufferPointer) -> Int128? {
    guard let first = bytes.first else { return 0 }
    let negative = first & 0x80 != 0
    let extra = Swift.max(0, bytes.count - 16)
    for byte in bytes.prefix(extra) where byte != (negative ? 0xFF : 0) { return nil }
    var value: Int128 = negative ? -1 : 0
    for byte in bytes.dropFirst(extra) { value = value << 8 | Int128(byte) }
    return (value < 0) == negative ? value : nil
  }

  /// A big-endian two's-complement integer of any length, as a double.
  static func bigEndianSigned(_ bytes: UnsafeRawBufferPointer) -> Double {
    guard let first = bytes.first else { return 0 }
    let negative = first & 0x80 != 0
    var magnitude = 0.0
    for byte in bytes { magnitude = magnitude * 256 + Double(negative ? ~byte : byte) }
    return negative ? -(magnitude + 1) : magnitude
  }
}
