import FilterDSL

/// Values as binary formats store them (Parquet, Arrow): the dates and times flt holds, half
/// floats, scaled decimals, UUIDs; each conversion checked, so that a stored value flt cannot
/// hold is nil (the format's reader says so), never a trap or a value clamped to another.
enum StoredValues {
  /// The days from 1970-01-01 of the dates flt holds: the years 0000 to 9999.
  static let days: ClosedRange<Int64> = {
    let first = CalendarDate(year: 0, month: 1, day: 1)?.daysSinceEpoch ?? 0
    let last = CalendarDate(year: 9999, month: 12, day: 31)?.daysSinceEpoch ?? 0
    return first...last
  }()

  /// The seconds from 1970 of the times flt holds: within the years 0000 to 9999.
  static let seconds: ClosedRange<Int64> =
    (days.lowerBound * 86_400)...(days.upperBound * 86_400 + 86_399)

  /// The date `days` days from 1970-01-01, nil outside the years 0000-9999.
  static func date(days: Int64) -> Value? {
    Self.days.contains(days) ? .date(CalendarDate(daysSinceEpoch: days)) : nil
  }

  /// The point in time `count` `perSecond`ths of a second (a power of 10 up to 10^9) from
  /// 1970-01-01T00:00:00Z, nil outside the years 0000-9999.
  static func instant(_ count: Int64, perSecond: Int64) -> Value? {
    guard perSecond > 0, perSecond <= 1_000_000_000 else { return nil }
    var (seconds, fraction) = count.quotientAndRemainder(dividingBy: perSecond)
    if fraction < 0 { (seconds, fraction) = (seconds - 1, fraction + perSecond) }
    guard Self.seconds.contains(seconds) else { return nil }
    return .dateTime(
      Instant(seconds: seconds, nanoseconds: Int32(fraction * (1_000_000_000 / perSecond))))
  }

  /// The time of day `count` `perSecond`ths of a second after midnight (24:00:00 included,
  /// as SQL allows), nil outside the day.
  static func time(_ count: Int64, perSecond: Int64) -> Value? {
    guard perSecond > 0, perSecond <= 1_000_000_000, (0...86_400 * perSecond).contains(count),
      let time = TimeOfDay(nanosecondsSinceMidnight: count * (1_000_000_000 / perSecond))
    else { return nil }
    return .time(time)
  }

  /// The length of time `count` `perSecond`ths of a second, nil past flt's durations.
  static func duration(_ count: Int64, perSecond: Int64) -> Value? {
    guard perSecond > 0, perSecond <= 1_000_000_000 else { return nil }
    let (nanoseconds, overflow) = count.multipliedReportingOverflow(
      by: 1_000_000_000 / perSecond)
    return overflow ? nil : .duration(TimeSpan(nanoseconds: nanoseconds))
  }

  /// A UUID's 16 bytes as its text: `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
  static func uuid(_ raw: UnsafeRawBufferPointer) -> String {
    let hex = raw.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }
    guard hex.count == 16 else { return hex.joined() }
    return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
  }

  /// `unscaled` / 10^`scale`, rounded once where 10^`scale` is exact.
  static func scaled(_ unscaled: Double, _ scale: Int) -> Double {
    guard scale > 0 else { return scale == 0 ? unscaled : unscaled * pow10(-scale) }
    return unscaled / pow10(scale)
  }

  private static func pow10(_ exponent: Int) -> Double {
    var result = 1.0
    for _ in 0..<Swift.min(exponent, 400) { result *= 10 }
    return result
  }

  /// An IEEE half-precision float.
  static func half(_ bits: UInt16) -> Float {
    let sign: Float = bits & 0x8000 != 0 ? -1 : 1
    let exponent = Int((bits >> 10) & 0x1F)
    let fraction = Float(bits & 0x3FF)
    switch exponent {
    case 0: return sign * fraction * 0x1p-24
    case 31: return fraction == 0 ? sign * .infinity : .nan
    default:
      return sign * (1 + fraction / 1024)
        * Float(sign: .plus, exponent: exponent - 15, significand: 1)
    }
  }
}
