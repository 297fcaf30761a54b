/// The two bit orders of Zstandard (RFC 8878): table descriptions are read forward, from the
/// lowest bit of the first byte; Huffman and FSE streams backward, from the highest set bit of
/// the last byte (a marker) down to the first bit. Reading past either end gives zero bits,
/// and the caller checks where it stopped: nothing is read out of bounds.
struct ZstdForwardBits {
  let data: UnsafeRawBufferPointer
  /// The next bit's index, counted from the first byte's lowest bit.
  private(set) var position: Int

  init(_ data: UnsafeRawBufferPointer, from byte: Int) {
    (self.data, position) = (data, byte * 8)
  }

  /// The next `count` bits (at most 32), not consumed.
  func peek(_ count: Int) -> Int {
    Int(ZstdBits.value(data, at: position, count: count))
  }

  /// The next `count` bits (at most 32), consumed.
  mutating func read(_ count: Int) -> Int {
    defer { position += count }
    return peek(count)
  }

  mutating func skip(_ count: Int) { position += count }

  /// The index of the first byte not read from.
  var nextByte: Int { (position + 7) / 8 }
}

/// A stream read backward (see ``ZstdForwardBits``), within `data[start..<end]`.
struct ZstdBackwardBits {
  let data: UnsafeRawBufferPointer
  let start: Int
  /// Bits left to read, above `start`'s first bit.
  private(set) var remaining: Int

  /// The stream `data[start..<end]`; nil when its last byte holds no marker (zero), or it is
  /// empty.
  init?(_ data: UnsafeRawBufferPointer, _ start: Int, _ end: Int) {
    guard end > start, end <= data.count, data[end - 1] != 0 else { return nil }
    let last = Int(data[end - 1])
    let marker = Int.bitWidth - 1 - last.leadingZeroBitCount
    (self.data, self.start, remaining) = (data, start, (end - 1 - start) * 8 + marker)
  }

  /// The next `count` bits (at most 56), the first read the most significant; zeros past the
  /// stream's start.
  func peek(_ count: Int) -> UInt64 {
    let low = remaining - count
    if low >= 0 { return ZstdBits.value(data, at: start * 8 + low, count: count, end: start) }
    // Bits below the stream's first are zeros.
    guard count + low > 0 else { return 0 }
    return ZstdBits.value(data, at: start * 8, count: count + low, end: start) << UInt64(-low)
  }

  /// The next `count` bits, consumed.
  mutating func read(_ count: Int) -> UInt64 {
    defer { remaining -= count }
    return peek(count)
  }

  mutating func skip(_ count: Int) { remaining -= count }

  /// Whether every bit was read, and no more.
  var isFinished: Bool { remaining == 0 }
  /// Whether more bits were read than the stream has.
  var isOverread: Bool { remaining < 0 }
}

enum ZstdBits {
  /// `count` bits (at most 56) from bit `bit` of `data`, lowest first; bytes past the end of
  /// `data` read as zeros (`end` is the first byte that may be read, for streams read
  /// backward).
  static func value(_ data: UnsafeRawBufferPointer, at bit: Int, count: Int, end: Int = 0)
    -> UInt64
  {
    guard count > 0 else { return 0 }
    let first = bit >> 3
    var word: UInt64 = 0
    for index in 0..<8 where first + index < data.count && first + index >= end {
      word |= UInt64(data[first + index]) << UInt64(8 * index)
    }
    return (word >> UInt64(bit & 7)) & ((1 << UInt64(count)) - 1)
  }
}
