/// Parquet's other value encodings, each rewritten as the PLAIN bytes of the same values, so
/// that one reader (`PlainValues`) converts every encoding's values: DELTA_BINARY_PACKED
/// (integers as bit-packed differences), DELTA_LENGTH_BYTE_ARRAY (byte arrays' lengths so,
/// then their bytes), DELTA_BYTE_ARRAY (each byte array as a prefix of the one before and a
/// suffix) and BYTE_STREAM_SPLIT (the k-th bytes of every value together, for each k).
enum ParquetDeltaEncodings {
  /// What a page may grow to when its arrays share prefixes (DELTA_BYTE_ARRAY), in bytes.
  static let largestPage = 256 << 20

  /// `count` values in `encoding` (5, 6, 7 or 9) as PLAIN bytes for `column`.
  static func plain(
    _ raw: UnsafeRawBufferPointer, encoding: Int32, column: ParquetColumn, count: Int
  ) throws(ParquetError) -> [UInt8] {
    switch encoding {
    case 5:
      let width: Int
      switch column.physical {
      case .int32: width = 4
      case .int64: width = 8
      default: throw ParquetError("has DELTA_BINARY_PACKED values in a column of another type")
      }
      var position = 0
      let values = try deltas(raw, &position, count: count)
      var out: [UInt8] = []
      out.reserveCapacity(values.count * width)
      for value in values {
        for byte in 0..<width { out.append(UInt8(truncatingIfNeeded: value >> Int64(8 * byte))) }
      }
      return out
    case 6, 7:
      guard column.physical == .byteArray else {
        throw ParquetError("has byte arrays encoded so in a column of another type")
      }
      var position = 0
      let arrays =
        encoding == 6
        ? try lengthPrefixed(raw, &position, count: count)
        : try sharedPrefixes(raw, &position, count: count)
      var out: [UInt8] = []
      for array in arrays {
        let length = UInt32(array.count)
        for byte in 0..<4 { out.append(UInt8(truncatingIfNeeded: length >> UInt32(8 * byte))) }
        out += array
      }
      return out
    default:
      let width: Int
      switch column.physical {
      case .int32, .float: width = 4
      case .int64, .double: width = 8
      case .fixedLengthByteArray: width = column.typeLength
      default: throw ParquetError("has BYTE_STREAM_SPLIT values in a column of another type")
      }
      guard width > 0, raw.count >= count * width else {
        throw ParquetError("has a page whose values end early")
      }
      var out = [UInt8](repeating: 0, count: count * width)
      for stream in 0..<width {
        for value in 0..<count { out[value * width + stream] = raw[stream * count + value] }
      }
      return out
    }
  }

  /// A zigzag LEB128 number (0, -1, 1, -2, ... as 0, 1, 2, 3, ...).
  private static func zigzag(_ raw: UnsafeRawBufferPointer, _ position: inout Int)
    throws(ParquetError) -> Int64
  {
    let value = try PackedBits.varint(raw, &position, "has delta-encoded values that end early")
    return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }

  /// DELTA_BINARY_PACKED: a header (values in a block, miniblocks in a block, the number of
  /// values, the first), then blocks of a minimum difference, each miniblock's bit width and
  /// the miniblocks' differences from that minimum, bit-packed. Sums wrap, as the format says.
  static func deltas(_ raw: UnsafeRawBufferPointer, _ position: inout Int, count: Int)
    throws(ParquetError) -> [Int64]
  {
    let missing = "has delta-encoded values that end early"
    let blockSize = try PackedBits.varint(raw, &position, missing)
    let miniblocks = try PackedBits.varint(raw, &position, missing)
    let total = try PackedBits.varint(raw, &position, missing)
    var value = try zigzag(raw, &position)
    guard blockSize > 0, blockSize % 128 == 0, blockSize <= 1 << 20, miniblocks > 0,
      blockSize % miniblocks == 0, (blockSize / miniblocks) % 32 == 0,
      total >= UInt64(count)
    else { throw ParquetError("has a DELTA_BINARY_PACKED header that is not one") }
    let perMiniblock = Int(blockSize / miniblocks)
    var out: [Int64] = []
    // (`count` is what the page claims: reserved as far as its bytes hold values of a bit.)
    out.reserveCapacity(Swift.min(count, raw.count &* 8))
    if count > 0 { out.append(value) }
    while out.count < count {
      let minimum = try zigzag(raw, &position)
      guard UInt64(raw.count - position) >= miniblocks else {
        throw ParquetError("has delta-encoded values that end early")
      }
      let widths = (0..<Int(miniblocks)).map { Int(raw[position + $0]) }
      position += Int(miniblocks)
      for width in widths where out.count < count {
        guard width <= 64 else { throw ParquetError("has a delta bit width of \(width)") }
        let length = perMiniblock * width / 8
        guard length <= raw.count - position else {
          throw ParquetError("has delta-encoded values that end early")
        }
        for index in 0..<Swift.min(perMiniblock, count - out.count) {
          let delta = PackedBits.value(raw, bit: position * 8 + index * width, width: width)
          value = value &+ minimum &+ Int64(bitPattern: delta)
          out.append(value)
        }
        position += length
      }
    }
    return out
  }

  /// DELTA_LENGTH_BYTE_ARRAY: the lengths, delta-encoded, then the arrays' bytes.
  static func lengthPrefixed(_ raw: UnsafeRawBufferPointer, _ position: inout Int, count: Int)
    throws(ParquetError) -> [[UInt8]]
  {
    let lengths = try deltas(raw, &position, count: count)
    var arrays: [[UInt8]] = []
    arrays.reserveCapacity(lengths.count)
    for length in lengths {
      guard length >= 0, length <= raw.count - position else {
        throw ParquetError("has byte arrays that end early")
      }
      arrays.append(Array(raw[position..<(position + Int(length))]))
      position += Int(length)
    }
    return arrays
  }

  /// DELTA_BYTE_ARRAY: the lengths of the prefixes each shares with the one before,
  /// delta-encoded, then the suffixes as DELTA_LENGTH_BYTE_ARRAY.
  static func sharedPrefixes(_ raw: UnsafeRawBufferPointer, _ position: inout Int, count: Int)
    throws(ParquetError) -> [[UInt8]]
  {
    let prefixes = try deltas(raw, &position, count: count)
    let suffixes = try lengthPrefixed(raw, &position, count: count)
    var arrays: [[UInt8]] = []
    arrays.reserveCapacity(suffixes.count)
    var previous: [UInt8] = []
    var total = 0
    for (prefix, suffix) in zip(prefixes, suffixes) {
      guard prefix >= 0, prefix <= previous.count else {
        throw ParquetError("has a byte array whose prefix is longer than the one before")
      }
      previous = Array(previous[..<Int(prefix)]) + suffix
      total += previous.count
      guard total <= largestPage else {
        throw ParquetError("has byte arrays that grow past \(largestPage >> 20) MiB in one page")
      }
      arrays.append(previous)
    }
    return arrays
  }
}
