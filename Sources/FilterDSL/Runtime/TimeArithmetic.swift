/// Dates, date-times, times of day and durations: conversions and arithmetic that cannot trap.
enum TimeArithmetic {
  static let secondsPerDay: Int64 = 86_400

  /// The UTC calendar day of an instant.
  static func day(of instant: Instant) -> CalendarDate {
    var (days, seconds) = instant.seconds.quotientAndRemainder(dividingBy: secondsPerDay)
    if seconds < 0 { days -= 1 }
    return CalendarDate(daysSinceEpoch: days)
  }

  /// Midnight UTC at the start of `date`.
  static func instant(of date: CalendarDate) -> Instant? {
    let (seconds, overflow) = date.daysSinceEpoch.multipliedReportingOverflow(by: secondsPerDay)
    return overflow ? nil : Instant(seconds: seconds)
  }

  /// `instant` moved by `span` (subtracted when `negate`).
  static func add(_ instant: Instant, _ span: TimeSpan, negate: Bool) -> Result<Instant, Fault> {
    let (wholeSeconds, nanos) = span.nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
    var seconds = instant.seconds
    var nanoseconds = Int64(instant.nanoseconds)
    let sign: Int64 = negate ? -1 : 1
    let (s, o1) = seconds.addingReportingOverflow(sign * wholeSeconds)
    seconds = s
    nanoseconds += sign * nanos
    if nanoseconds < 0 {
      nanoseconds += 1_000_000_000
      seconds = seconds &- 1
    } else if nanoseconds >= 1_000_000_000 {
      nanoseconds -= 1_000_000_000
      seconds = seconds &+ 1
    }
    guard !o1, (minimumSeconds...maximumSeconds).contains(seconds) else {
      return .failure(.dateOutOfRange)
    }
    return .success(Instant(seconds: seconds, nanoseconds: Int32(nanoseconds)))
  }

  /// `date` moved by whole days of `span`; a span with a time part gives a date-time.
  static func add(_ date: CalendarDate, _ span: TimeSpan, negate: Bool) -> Result<Value, Fault> {
    let nanosPerDay: Int64 = 86_400_000_000_000
    let (days, rest) = span.nanoseconds.quotientAndRemainder(dividingBy: nanosPerDay)
    if rest == 0 {
      let (d, overflow) = date.daysSinceEpoch.addingReportingOverflow(negate ? -days : days)
      let result = CalendarDate(daysSinceEpoch: d)
      guard !overflow, (minimumDay...maximumDay).contains(result.daysSinceEpoch) else {
        return .failure(.dateOutOfRange)
      }
      return .success(.date(result))
    }
    guard let start = instant(of: date) else { return .failure(.dateOutOfRange) }
    return add(start, span, negate: negate).map { .dateTime($0) }
  }

  /// `time` moved by `span` (back when `negate`) around the clock: 23:00 + 2h is 01:00, as
  /// in SQL. Never overflows: both parts are less than a day.
  static func add(_ time: TimeOfDay, _ span: TimeSpan, negate: Bool) -> TimeOfDay {
    let shift = span.nanoseconds % TimeOfDay.nanosecondsPerDay
    return TimeOfDay(wrapping: time.nanosecondsSinceMidnight + (negate ? -shift : shift))
  }

  /// The time of day of an instant, UTC.
  static func time(of instant: Instant) -> TimeOfDay {
    let second = instant.seconds % secondsPerDay
    return TimeOfDay(wrapping: second * 1_000_000_000 + Int64(instant.nanoseconds))
  }

  /// The span from `b` to `a`.
  static func difference(_ a: Instant, _ b: Instant) -> Result<TimeSpan, Fault> {
    let (seconds, o1) = a.seconds.subtractingReportingOverflow(b.seconds)
    let (nanos, o2) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (total, o3) = nanos.addingReportingOverflow(Int64(a.nanoseconds) - Int64(b.nanoseconds))
    return o1 || o2 || o3 ? .failure(.dateOutOfRange) : .success(TimeSpan(nanoseconds: total))
  }

  static let minimumDay = CalendarDate.days(year: 0, month: 1, day: 1)
  static let maximumDay = CalendarDate.days(year: 9999, month: 12, day: 31)
  static let minimumSeconds = minimumDay * 86_400
  static let maximumSeconds = maximumDay * 86_400 + 86_399
}
