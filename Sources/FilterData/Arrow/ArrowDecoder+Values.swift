import FilterDSL

/// The values Arrow stores in fixed widths, as flt's: little-endian integers, decimals and
/// intervals.
extension ArrowDecoder {

  /// A little-endian signed integer of 4 or 8 bytes.
  static func signed(_ raw: UnsafeRawBufferPointer) -> Int64 {
    raw.count == 4
      ? Int64(raw.loadUnaligned(as: Int32.self)) : raw.loadUnaligned(as: Int64.self)
  }

  /// `a` / `b` rounded down (`b` > 0).
  static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let (quotient, remainder) = a.quotientAndRemainder(dividingBy: b)
    return remainder < 0 ? quotient - 1 : quotient
  }

  /// A little-endian two's-complement decimal of 4, 8 or 16 bytes, exactly.
  static func decimal(_ raw: UnsafeRawBufferPointer, scale: Int, _ name: String)
    throws(ArrowError) -> Value
  {
    var unscaled: Int128 = raw.last.map { $0 & 0x80 != 0 ? -1 : 0 } ?? 0
    for byte in raw.reversed() { unscaled = unscaled << 8 | Int128(byte) }
    guard let exact = ExactDecimal(significand: unscaled, scale: scale) else {
      throw ArrowError("column '\(name)' holds a decimal beyond the 38 digits of flt's decimals")
    }
    return .decimal(exact)
  }

  /// A little-endian two's-complement integer of any length, as a double.
  static func littleEndianDouble(_ raw: UnsafeRawBufferPointer) -> Double {
    guard let last = raw.last else { return 0 }
    let negative = last & 0x80 != 0
    var magnitude = 0.0
    for byte in raw.reversed() { magnitude = magnitude * 256 + Double(negative ? ~byte : byte) }
    return negative ? -(magnitude + 1) : magnitude
  }

  /// An interval (days and milliseconds; or months, days and nanoseconds) as a duration; one
  /// of months is an error (a month's length varies).
  static func interval(_ raw: UnsafeRawBufferPointer, monthDayNano: Bool, _ name: String)
    throws(ArrowError) -> Value
  {
    let months = monthDayNano ? raw.loadUnaligned(as: Int32.self) : 0
    let days = Int64(raw.loadUnaligned(fromByteOffset: monthDayNano ? 4 : 0, as: Int32.self))
    let rest =
      monthDayNano
      ? raw.loadUnaligned(fromByteOffset: 8, as: Int64.self)
      : Int64(raw.loadUnaligned(fromByteOffset: 4, as: Int32.self)) * 1_000_000
    guard months == 0 else {
      throw ArrowError(
        "column '\(name)' holds an interval of \(months) month\(months == 1 ? "" : "s"), which flt reads only as a length of time (a month's length varies)"
      )
    }
    let (span, overflow) = days.multipliedReportingOverflow(by: 86_400_000_000_000)
    let (total, past) = span.addingReportingOverflow(rest)
    guard !overflow, !past else {
      throw ArrowError("column '\(name)' holds an interval longer than flt's durations")
    }
    return .duration(TimeSpan(nanoseconds: total))
  }
}
