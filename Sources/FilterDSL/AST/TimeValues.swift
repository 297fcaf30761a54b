/// A calendar day in the proleptic Gregorian calendar, years 0000 to 9999: `2022-09-16`.
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Days since 1970-01-01 (negative before it).
  public let daysSinceEpoch: Int64

  /// The day `daysSinceEpoch` days after 1970-01-01.
  public init(daysSinceEpoch: Int64) { self.daysSinceEpoch = daysSinceEpoch }

  /// The day `year-month-day`, or nil when no such day exists or the year is outside 0...9999.
  public init?(year: Int, month: Int, day: Int) {
    guard (0...9999).contains(year), (1...12).contains(month),
      (1...CalendarDate.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    self.daysSinceEpoch = CalendarDate.days(year: Int64(year), month: Int64(month), day: Int64(day))
  }

  /// Year, month and day.
  public var components: (year: Int, month: Int, day: Int) {
    CalendarDate.civil(fromDays: daysSinceEpoch)
  }

  /// `YYYY-MM-DD`.
  public var description: String {
    let (y, m, d) = components
    return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
  }

  /// Earlier days first.
  public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
    a.daysSinceEpoch < b.daysSinceEpoch
  }

  static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  // Howard Hinnant's days_from_civil / civil_from_days. Inputs are bounded (years 0...9999
  // give |days| < 3,000,000), so no arithmetic here can overflow.
  static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
    let z = days.clamped(to: -1_000_000_000...1_000_000_000) + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
    return (Int(y), Int(m), Int(d))
  }
}

/// A point in time, UTC, with nanosecond precision: `2022-09-16T10:00:00Z`.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Whole seconds since 1970-01-01T00:00:00Z.
  public let seconds: Int64
  /// Nanoseconds within the second, 0..<1_000_000_000.
  public let nanoseconds: Int32

  /// An instant; `nanoseconds` outside 0..<1_000_000_000 is clamped into it.
  public init(seconds: Int64, nanoseconds: Int32 = 0) {
    self.seconds = seconds
    self.nanoseconds = nanoseconds.clamped(to: 0...999_999_999)
  }

  /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, the fraction without trailing zeros.
  public var description: String {
    var (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
    if secondOfDay < 0 {
      days -= 1
      secondOfDay += 86_400
    }
    let time = TimeOfDay(wrapping: secondOfDay * 1_000_000_000 + Int64(nanoseconds))
    return CalendarDate(daysSinceEpoch: days).description + "T" + time.description + "Z"
  }

  /// Earlier instants first.
  public static func < (a: Instant, b: Instant) -> Bool {
    (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
  }
}

/// A length of time with nanosecond precision: `7d`, `1h30m`, `500ms`.
public struct TimeSpan: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The length in nanoseconds; negative spans point backwards.
  public let nanoseconds: Int64

  /// A length of `nanoseconds` nanoseconds.
  public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

  /// The units a duration literal may use, longest first, with their length in nanoseconds.
  public static let units: [(suffix: String, nanoseconds: Int64)] = [
    ("w", 604_800_000_000_000), ("d", 86_400_000_000_000), ("h", 3_600_000_000_000),
    ("m", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000),
    ("ns", 1),
  ]

  /// The canonical literal: largest units first, weeks not used (`7d`, not `1w`), `0s` for zero.
  public var description: String {
    if nanoseconds == 0 { return "0s" }
    var rest = nanoseconds.magnitude
    var text = nanoseconds < 0 ? "-" : ""
    for (suffix, size) in TimeSpan.units where suffix != "w" {
      let count = rest / UInt64(size)
      if count > 0 {
        text += String(count) + suffix
        rest -= count * UInt64(size)
      }
    }
    return text
  }

  /// Shorter spans first.
  public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.nanoseconds < b.nanoseconds }
}

/// A time of day, without a date or a time zone, with nanosecond precision: `22:00`,
/// `09:30:15.25` (SQL's `time`, Parquet's `TIME`). As in SQL, `24:00:00`, the end of the day,
/// is one too, after every other.
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Nanoseconds since midnight, 0 to 86,400,000,000,000 (`24:00:00`).
  public let nanosecondsSinceMidnight: Int64

  /// The number of nanoseconds in a day.
  public static let nanosecondsPerDay: Int64 = 86_400_000_000_000

  /// The time `nanoseconds` after midnight, or nil outside a day (0 to 24 hours).
  public init?(nanosecondsSinceMidnight nanoseconds: Int64) {
    guard nanoseconds >= 0, nanoseconds <= TimeOfDay.nanosecondsPerDay else { return nil }
    self.nanosecondsSinceMidnight = nanoseconds
  }

  /// The time `hour:minute:second` and `nanoseconds` more, or nil when no such time exists
  /// (`24:00:00` does).
  public init?(hour: Int, minute: Int, second: Int = 0, nanoseconds: Int64 = 0) {
    guard (0...23).contains(hour) || (hour == 24 && minute == 0 && second == 0 && nanoseconds == 0),
      (0...59).contains(minute), (0...59).contains(second),
      (0..<1_000_000_000).contains(nanoseconds)
    else { return nil }
    let seconds = Int64(hour * 3600 + minute * 60 + second)
    self.nanosecondsSinceMidnight = seconds * 1_000_000_000 + nanoseconds
  }

  /// The time `nanoseconds` after midnight, wrapped into a day (a day later or earlier is the
  /// same time, and `24:00:00` is midnight): what adding a duration to a time gives.
  public init(wrapping nanoseconds: Int64) {
    let rest = nanoseconds % TimeOfDay.nanosecondsPerDay
    self.nanosecondsSinceMidnight = rest < 0 ? rest + TimeOfDay.nanosecondsPerDay : rest
  }

  /// Whole seconds since midnight.
  public var secondOfDay: Int64 { nanosecondsSinceMidnight / 1_000_000_000 }

  /// `HH:MM:SS`, with a fraction of a second when there is one (without trailing zeros).
  public var description: String {
    let second = Int(secondOfDay)
    var text = pad(second / 3600, 2) + ":" + pad(second / 60 % 60, 2) + ":" + pad(second % 60, 2)
    let nanoseconds = Int(nanosecondsSinceMidnight % 1_000_000_000)
    if nanoseconds > 0 {
      var fraction = pad(nanoseconds, 9)
      while fraction.hasSuffix("0") { fraction.removeLast() }
      text += "." + fraction
    }
    return text
  }

  /// Earlier times of the day first.
  public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool {
    a.nanosecondsSinceMidnight < b.nanosecondsSinceMidnight
  }
}

/// `value` in decimal with at least `width` digits.
func pad(_ value: Int, _ width: Int) -> String {
  let digits = String(value.magnitude)
  let sign = value < 0 ? "-" : ""
  return sign + String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
}

extension Comparable {
  func clamped(to range: ClosedRange<Self>) -> Self {
    Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
  }
}
