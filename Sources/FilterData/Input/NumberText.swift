import FilterDSL

/// Numbers and UTF-8 in raw bytes, without making strings on the common paths.
enum NumberText {
  /// The double nearest to the decimal number in `bytes[start..<end]` (well formed: an
  /// optional `-`, digits, an optional fraction and exponent).
  ///
  /// Numbers with at most 15 significant digits and a small exponent are exact in one
  /// multiplication or division by a power of ten (Clinger's fast path); the rest go to the
  /// standard library's correctly rounded parser.
  static func double(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double {
    var cursor = start
    var negative = false
    if cursor < end, bytes[cursor] == 0x2D {
      negative = true
      cursor += 1
    } else if cursor < end, bytes[cursor] == 0x2B {
      cursor += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var scale = 0
    var seenPoint = false
    var fast = true
    while cursor < end {
      let byte = bytes[cursor]
      if byte &- 0x30 < 10 {
        if mantissa == 0 && byte == 0x30 {
          if seenPoint { scale -= 1 }
        } else if digits < 15 {
          mantissa = mantissa * 10 + UInt64(byte &- 0x30)
          digits += 1
          if seenPoint { scale -= 1 }
        } else {
          fast = false
          break
        }
      } else if byte == 0x2E && !seenPoint {
        seenPoint = true
      } else {
        break
      }
      cursor += 1
    }
    if fast && cursor < end && bytes[cursor] | 0x20 == 0x65 {
      cursor += 1
      var exponentNegative = false
      if cursor < end, bytes[cursor] == 0x2B || bytes[cursor] == 0x2D {
        exponentNegative = bytes[cursor] == 0x2D
        cursor += 1
      }
      var exponent = 0
      while cursor < end, bytes[cursor] &- 0x30 < 10 {
        if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[cursor] &- 0x30) }
        cursor += 1
      }
      scale += exponentNegative ? -exponent : exponent
    }
    if fast && cursor == end && (-22...22).contains(scale) {
      var value = Double(mantissa)
      if scale < 0 { value /= powerOfTen(-scale) } else { value *= powerOfTen(scale) }
      return negative ? -value : value
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    // Well-formed decimal text always parses; out-of-range magnitudes give infinities.
    return Double(text) ?? .nan
  }

  /// 10 to the power `exponent`, from 0 to 22 (exact as doubles). Constants, not a global
  /// array: each read of one was a call to check that it was made (2% of a load).
  @inline(__always) private static func powerOfTen(_ exponent: Int) -> Double {
    switch exponent {
    case 0: 1e0
    case 1: 1e1
    case 2: 1e2
    case 3: 1e3
    case 4: 1e4
    case 5: 1e5
    case 6: 1e6
    case 7: 1e7
    case 8: 1e8
    case 9: 1e9
    case 10: 1e10
    case 11: 1e11
    case 12: 1e12
    case 13: 1e13
    case 14: 1e14
    case 15: 1e15
    case 16: 1e16
    case 17: 1e17
    case 18: 1e18
    case 19: 1e19
    case 20: 1e20
    case 21: 1e21
    default: 1e22
    }
  }

  /// Whether `bytes` spell an integer the way JSON writes one (`-?(0|[1-9][0-9]*)`) that fits
  /// in 64 bits, and its value.
  static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
    var cursor = start
    let negative = cursor < end && bytes[cursor] == 0x2D
    if negative { cursor += 1 }
    guard cursor < end, end - cursor <= 19 else { return nil }
    if bytes[cursor] == 0x30 && end - cursor > 1 { return nil }
    var value: Int64 = 0
    while cursor < end {
      let digit = bytes[cursor] &- 0x30
      guard digit < 10 else { return nil }
      let (times, o1) = value.multipliedReportingOverflow(by: 10)
      let (next, o2) =
        negative
        ? times.subtractingReportingOverflow(Int64(digit))
        : times.addingReportingOverflow(Int64(digit))
      guard !o1 && !o2 else { return nil }
      value = next
      cursor += 1
    }
    return value
  }

  /// An integer spelled with leading zeros or without (`004` is 4), as a type the user fixed
  /// reads it (``integer(_:_:_:)`` reads none: `01234` is a code, not a number).
  static func integer(leadingZeros bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
    -> Int64?
  {
    let sign = start < end && bytes[start] == 0x2D ? 1 : 0
    var cursor = start + sign
    while cursor + 1 < end && bytes[cursor] == 0x30 { cursor += 1 }
    guard cursor > start + sign else { return integer(bytes, start, end) }
    // (The digits after the zeros are at most Int64.max: negated, in range.)
    return integer(bytes, cursor, end).map { sign == 1 ? -$0 : $0 }
  }

  /// Whether `bytes` spell a decimal number the way JSON writes one (with a fraction or an
  /// exponent), and its value. Infinities are not numbers here.
  static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
    var cursor = start
    if cursor < end, bytes[cursor] == 0x2D { cursor += 1 }
    let digitsStart = cursor
    while cursor < end, bytes[cursor] &- 0x30 < 10 { cursor += 1 }
    guard cursor > digitsStart else { return nil }
    if cursor - digitsStart > 1 && bytes[digitsStart] == 0x30 { return nil }
    if cursor < end, bytes[cursor] == 0x2E {
      cursor += 1
      let fraction = cursor
      while cursor < end, bytes[cursor] &- 0x30 < 10 { cursor += 1 }
      guard cursor > fraction else { return nil }
    }
    if cursor < end, bytes[cursor] | 0x20 == 0x65 {
      cursor += 1
      if cursor < end, bytes[cursor] == 0x2B || bytes[cursor] == 0x2D { cursor += 1 }
      let exponent = cursor
      while cursor < end, bytes[cursor] &- 0x30 < 10 { cursor += 1 }
      guard cursor > exponent else { return nil }
    }
    guard cursor == end else { return nil }
    let value = double(bytes, start, end)
    return value.isFinite ? value : nil
  }
}

extension NumberText {
  /// The exact decimal the number in `bytes[start..<end]` spells (`2.50`, `1.5e3`), or nil
  /// (not a number, or beyond 38 digits).
  static func exactDecimal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
    -> ExactDecimal?
  {
    guard start < end, end - start <= 128,
      integer(bytes, start, end) != nil || decimal(bytes, start, end) != nil
    else { return nil }
    return ExactDecimal(
      scientific: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    )
  }

  /// Whether the number in `bytes[start..<end]` (as JSON writes one) is an integer, written
  /// without point or exponent, beyond 2^53: the first a double cannot tell from its neighbour
  /// (`9007199254740993` is read as `...992`).
  static func isWideInteger(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
    -> Bool
  {
    let digits = start < end && bytes[start] == 0x2D ? start + 1 : start
    guard end - digits >= 16 else { return false }
    var magnitude: UInt64 = 0
    for cursor in digits..<end {
      let digit = bytes[cursor] &- 0x30
      guard digit < 10 else { return false }
      let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
      let (next, o2) = times.addingReportingOverflow(UInt64(digit))
      if o1 || o2 { return true }
      magnitude = next
    }
    return magnitude > 1 << 53
  }

  /// Whether an exact decimal holds the number in `bytes[start..<end]` (as JSON writes one):
  /// at most 38 digits, an exponent only where the value still fits (`1.5e3`, not `1e300`).
  static func fitsDecimal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
    -> Bool
  {
    var digits = 0
    var leading = true
    for cursor in start..<end {
      let byte = bytes[cursor]
      if byte | 0x20 == 0x65 { return exactDecimal(bytes, start, end) != nil }
      guard byte &- 0x30 < 10 else { continue }
      if leading && byte == 0x30 { continue }
      leading = false
      digits += 1
    }
    return digits <= ExactDecimal.maximumDigits
  }

  /// The number `text` spells (an integer or a decimal as JSON writes them, spaces around
  /// allowed, as `int(x)` and `double(x)` allow them), or nil.
  static func number(_ text: String) -> Value? {
    var text = text
    return text.withUTF8 { bytes in
      var start = 0
      var end = bytes.count
      while start < end, bytes[start] == 0x20 { start += 1 }
      while end > start, bytes[end - 1] == 0x20 { end -= 1 }
      guard start < end, end - start <= 64 else { return nil }
      if let integer = integer(bytes, start, end) { return .int(integer) }
      return decimal(bytes, start, end).map(Value.double)
    }
  }
}

/// UTF-8 validation over raw bytes.
enum UTF8Validation {
  /// The offset of the first byte in `start..<end` that is not part of well-formed UTF-8.
  static func firstInvalid(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
    var cursor = start
    while cursor < end {
      let lead = bytes[cursor]
      if lead < 0x80 {
        cursor += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return cursor
      }
      guard cursor + length <= end else { return cursor }
      let second = bytes[cursor + 1]
      guard second >= low && second <= high else { return cursor }
      for i in 2..<length where bytes[cursor + i] & 0xC0 != 0x80 { return cursor }
      cursor += length
    }
    return nil
  }
}
