/// Scanning and decoding of ISO-8601 date and date-time literals:
/// `2022-09-16`, `2022-09-16T10:00`, `2022-09-16T10:00:00.5Z`, `2022-09-16T10:00:00+02:00`.
///
/// A date-time without an offset is read as UTC.
enum DateLiteral {
  /// Whether a date literal starts at `index`: four digits, `-`, a digit.
  static func startsAt(_ bytes: [UInt8], _ index: Int) -> Bool {
    guard index + 5 < bytes.count else { return false }
    for i in 0..<4 where !isDigit(bytes[index + i]) { return false }
    if bytes[index + 4] == UInt8(ascii: "-") && isDigit(bytes[index + 5]) { return true }
    return longYear(bytes, index) != nil
  }

  /// For a date whose year has more than four digits (`20222-01-01`, a typo), where its year
  /// ends. Only the whole shape `YYYYY-MM-DD` counts, so that `12345-6` stays arithmetic.
  static func longYear(_ bytes: [UInt8], _ index: Int) -> Int? {
    var end = index
    while end < bytes.count, isDigit(bytes[end]) { end += 1 }
    guard end - index > 4, end + 5 < bytes.count else { return nil }
    let dash = UInt8(ascii: "-")
    let shape = [dash, nil, nil, dash, nil].enumerated().allSatisfy { offset, byte in
      byte.map { bytes[end + offset] == $0 } ?? isDigit(bytes[end + offset])
    }
    return shape ? end : nil
  }

  /// Scans the literal at `start` (where ``startsAt(_:_:)`` holds): where it ends, and its
  /// value or what is wrong with it. With `spaceBeforeTime`, a space may stand for the `T`
  /// (`2010-03-24 09:51:00`, as SQL databases, pandas and most CSV exports write date-times);
  /// data is read so, filters are not (there a space ends the literal).
  static func scan(_ bytes: [UInt8], at start: Int, spaceBeforeTime: Bool = false) -> (
    end: Int, value: Result<Literal, LiteralDecoder.Problem>
  ) {
    if let yearEnd = longYear(bytes, start) {
      let end = run(bytes, from: start) {
        isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":")
          || $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "Z") || $0 == UInt8(ascii: ".")
      }
      let year = String(decoding: bytes[start..<yearEnd], as: UTF8.self)
      return (
        end,
        .failure(
          problem(
            "year \(year) is out of range: dates have years 0000 to 9999", start..<end,
            help: "dates are written YYYY-MM-DD, as in 2022-09-16"))
      )
    }
    var cursor = Cursor(bytes: bytes, index: start)
    let year = cursor.digits(4)
    guard let year, cursor.take("-"), let month = cursor.digits(2), cursor.take("-"),
      let day = cursor.digits(2), !cursor.atDigit
    else {
      // Something like 2022-9-16: swallow the run and say how dates are written.
      let end = run(bytes, from: start) { isDigit($0) || $0 == UInt8(ascii: "-") }
      return (end, .failure(malformed(start..<end)))
    }
    guard let date = CalendarDate(year: year, month: month, day: day) else {
      let end = cursor.index
      let message =
        (1...12).contains(month)
        ? "\(day) is not a day of \(monthNames[month - 1]) \(pad(year, 4))"
        : "month \(pad(month, 2)) does not exist"
      return (
        end,
        .failure(
          problem(message, start..<end, help: "dates are written YYYY-MM-DD, as in 2022-09-16"))
      )
    }
    guard cursor.at("T") || cursor.at("t") || (spaceBeforeTime && cursor.at(" ")),
      cursor.peek(1).map(isDigit) == true
    else {
      return finish(cursor.index, .date(date), bytes)
    }
    cursor.index += 1
    let clock: TimeOfDay
    switch readClock(&cursor, literalStart: start, in: "date-time", help: timeHelp) {
    case .success(let time): clock = time
    case .failure(let failure): return (failure.end, .failure(failure.problem))
    }
    var offsetSeconds = 0
    if cursor.at("Z") || cursor.at("z") {
      cursor.index += 1
    } else if cursor.at("+") || cursor.at("-") {
      // An offset only if it is well formed: `2022-09-16T10:00-7d` is a subtraction.
      var probe = cursor
      let sign = probe.at("-") ? -1 : 1
      probe.index += 1
      if let h = probe.digits(2) {
        var m = 0
        var ok = true
        if probe.at(":") {
          probe.index += 1
          if let mm = probe.digits(2) { m = mm } else { ok = false }
        } else if let mm = probe.digits(2) {
          m = mm
        }
        if ok, !probe.atDigit, h <= 23, m <= 59 {
          offsetSeconds = sign * (h * 3600 + m * 60)
          cursor = probe
        }
      }
    }
    let seconds = date.daysSinceEpoch * 86_400 + clock.secondOfDay - Int64(offsetSeconds)
    guard seconds >= minimumSeconds, seconds <= maximumSeconds else {
      return (
        cursor.index,
        .failure(
          problem("date-time is outside the years 0000 to 9999", start..<cursor.index, help: nil))
      )
    }
    return finish(
      cursor.index,
      .dateTime(
        Instant(
          seconds: seconds, nanoseconds: Int32(clock.nanosecondsSinceMidnight % 1_000_000_000))),
      bytes)
  }

  /// Whether a time-of-day literal starts at `index`: one or two digits, `:`, a digit. (One
  /// digit is read only to say that hours take two: `9:30` is written `09:30`.)
  static func timeStartsAt(_ bytes: [UInt8], _ index: Int) -> Bool {
    var colon = index
    while colon < bytes.count, colon - index < 3, isDigit(bytes[colon]) { colon += 1 }
    return (1...2).contains(colon - index) && colon + 1 < bytes.count
      && bytes[colon] == UInt8(ascii: ":") && isDigit(bytes[colon + 1])
  }

  /// Scans the time of day at `start` (where ``timeStartsAt(_:_:)`` holds): `HH:MM`,
  /// `HH:MM:SS`, with a fraction of a second (`22:00:00.5`).
  static func scanTime(_ bytes: [UInt8], at start: Int) -> (
    end: Int, value: Result<Literal, LiteralDecoder.Problem>
  ) {
    var cursor = Cursor(bytes: bytes, index: start)
    switch readClock(&cursor, literalStart: start, in: "time of day", help: clockHelp) {
    case .success(let time): return finish(cursor.index, .time(time), bytes)
    case .failure(let failure): return (failure.end, .failure(failure.problem))
    }
  }

  /// What is wrong with a clock reading, and where the literal ends.
  private struct ClockFailure: Error {
    let end: Int
    let problem: LiteralDecoder.Problem
  }

  /// Reads `HH:MM[:SS[.fraction]]` at the cursor (a time of day, or a date-time's time);
  /// `noun` ("time of day", "date-time") and `help` name the literal in messages.
  private static func readClock(
    _ cursor: inout Cursor, literalStart start: Int, in noun: String, help: String
  ) -> Result<TimeOfDay, ClockFailure> {
    let bytes = cursor.bytes
    let timeStart = cursor.index
    guard let hour = cursor.digits(2), cursor.take(":"), let minute = cursor.digits(2),
      !cursor.atDigit
    else {
      let end = run(bytes, from: timeStart) { isDigit($0) || $0 == UInt8(ascii: ":") }
      let text = String(decoding: bytes[timeStart..<end], as: UTF8.self)
      // `9:30`: the hour takes two digits.
      let message =
        text.firstIndex(of: ":") == text.index(after: text.startIndex)
        ? "the hour takes two digits: write 0\(text)" : "malformed hours and minutes in \(noun)"
      return .failure(
        ClockFailure(end: end, problem: problem(message, start..<end, help: help)))
    }
    var second = 0
    var nanos: Int64 = 0
    if cursor.at(":") {
      cursor.index += 1
      guard let s = cursor.digits(2), !cursor.atDigit else {
        let end = run(bytes, from: cursor.index) { isDigit($0) }
        return .failure(
          ClockFailure(
            end: end, problem: problem("malformed seconds in \(noun)", start..<end, help: help)))
      }
      second = s
      if cursor.at("."), cursor.peek(1).map(isDigit) == true {
        cursor.index += 1
        var scale: Int64 = 100_000_000
        while cursor.atDigit {
          if scale > 0 { nanos += Int64(bytes[cursor.index] - UInt8(ascii: "0")) * scale }
          scale /= 10
          cursor.index += 1
        }
      }
    }
    guard let time = TimeOfDay(hour: hour, minute: minute, second: second, nanoseconds: nanos)
    else {
      let message = "time \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)) does not exist"
      return .failure(
        ClockFailure(
          end: cursor.index, problem: problem(message, start..<cursor.index, help: help)))
    }
    return .success(time)
  }

  /// A literal must not run into letters or digits: `2022-09-16x` and `22:00x` are malformed.
  private static func finish(_ end: Int, _ literal: Literal, _ bytes: [UInt8]) -> (
    end: Int, value: Result<Literal, LiteralDecoder.Problem>
  ) {
    guard end < bytes.count, CharacterClass.table[Int(bytes[end])].contains(.identifierPart) else {
      return (end, .success(literal))
    }
    let stop = run(bytes, from: end) { CharacterClass.table[Int($0)].contains(.identifierPart) }
    guard case .time = literal else { return (stop, .failure(malformed(end..<stop))) }
    return (stop, .failure(problem("malformed time of day", end..<stop, help: clockHelp)))
  }

  private static let minimumSeconds = CalendarDate.days(year: 0, month: 1, day: 1) * 86_400
  private static let maximumSeconds =
    CalendarDate.days(year: 9999, month: 12, day: 31) * 86_400 + 86_399

  private static let timeHelp =
    "times are written THH:MM or THH:MM:SS, with an optional fraction and offset, as in 2022-09-16T10:00:00Z"

  private static let clockHelp =
    "times of day are written HH:MM or HH:MM:SS, with an optional fraction, as in 22:00 or 09:30:15.5"

  private static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]

  private static func malformed(_ range: Range<Int>) -> LiteralDecoder.Problem {
    problem(
      "malformed date", range,
      help: "dates are written YYYY-MM-DD, as in 2022-09-16; put spaces around '-' to subtract")
  }

  private static func problem(_ message: String, _ range: Range<Int>, help: String?)
    -> LiteralDecoder.Problem
  {
    LiteralDecoder.Problem(code: .invalidDate, message: message, help: help, range: range)
  }

  private static func run(_ bytes: [UInt8], from start: Int, while include: (UInt8) -> Bool) -> Int
  {
    var end = start
    while end < bytes.count, include(bytes[end]) { end += 1 }
    return end
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// A position in the bytes with small, bounds-checked reading steps.
  private struct Cursor {
    let bytes: [UInt8]
    var index: Int

    func peek(_ ahead: Int) -> UInt8? {
      index + ahead < bytes.count ? bytes[index + ahead] : nil
    }

    func at(_ ascii: Unicode.Scalar) -> Bool { peek(0) == UInt8(ascii: ascii) }

    var atDigit: Bool { peek(0).map(isDigit) ?? false }

    mutating func take(_ ascii: Unicode.Scalar) -> Bool {
      guard at(ascii) else { return false }
      index += 1
      return true
    }

    /// Exactly `count` digits, as a number.
    mutating func digits(_ count: Int) -> Int? {
      var value = 0
      for i in 0..<count {
        guard let byte = peek(i), isDigit(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      index += count
      return value
    }
  }
}
