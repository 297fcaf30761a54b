import FilterDSL

/// A value as it goes to a database and comes back: a bound parameter, or one cell of a row.
/// Dates, times and everything else a dialect has no storage class for travel as text.
public enum SQLValue: Hashable, Sendable, CustomStringConvertible {
  /// SQL's NULL.
  case null
  /// An integer (`bigint`, SQLite's INTEGER).
  case int(Int64)
  /// A floating-point number.
  case double(Double)
  /// Text, and every value a dialect keeps as text (dates in SQLite, for one).
  case text(String)

  /// The value as a SQL literal would show it (for messages and `flt sql`; never spliced into
  /// a statement).
  public var description: String {
    switch self {
    case .null: "NULL"
    case .int(let i): String(i)
    case .double(let d): String(d)
    case .text(let s): "'" + s.replacingAll("'", with: "''") + "'"
    }
  }
}

extension String {
  /// This text with every `target` character replaced by `replacement`.
  func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for c in self { if c == target { result += replacement } else { result.append(c) } }
    return result
  }
}

extension SQLDialect {
  /// `value` as the dialect stores a value of its kind, or nil when it cannot hold it exactly
  /// (a NaN, text with a NUL in PostgreSQL, a date outside years 0 to 9999, a date-time or
  /// duration between two microseconds in PostgreSQL). Lists, records and the values of
  /// mixed fields are stored as JSON by the caller.
  public func encode(_ value: Value) -> SQLValue? {
    switch value {
    case .null: return .null
    case .bool(let b): return self == .sqlite ? .int(b ? 1 : 0) : .text(b ? "true" : "false")
    case .int(let i): return .int(i)
    case .double(let d): return d.isNaN ? nil : .double(d)
    case .decimal(let d):
      // SQLite has no decimals: a real, where it compares with every integer (and so with
      // every real) as the decimal does.
      guard self == .sqlite else { return .text(d.description) }
      return d.standIn(against: .int).map(SQLValue.double)
    case .string(let s):
      return self == .postgresql && s.utf8.contains(0) ? nil : .text(s)
    case .date(let d):
      return SQLTimeText.years.contains(d.daysSinceEpoch) ? .text(d.description) : nil
    case .dateTime(let t):
      guard self == .sqlite else {
        // PostgreSQL keeps microseconds: an instant between two of them has no exact form.
        return t.nanoseconds % 1000 == 0 ? .text(t.description) : nil
      }
      return SQLTimeText.instant(t).map(SQLValue.text)
    case .time(let t):
      guard self == .sqlite else {
        // PostgreSQL's `time` keeps microseconds.
        return t.nanosecondsSinceMidnight % 1000 == 0 ? .text(t.description) : nil
      }
      return .text(SQLTimeText.time(t))
    case .duration(let span):
      guard self == .sqlite else {
        return span.nanoseconds % 1000 == 0
          ? .text("\(span.nanoseconds / 1000) microseconds") : nil
      }
      return .int(span.nanoseconds)
    case .list, .record, .object: return nil
    }
  }

  /// `value` as a column of the dialect stores it, for loading data: as ``encode(_:)``, but in
  /// PostgreSQL date-times, times and durations are cut to the microseconds `timestamptz`,
  /// `time` and `interval` keep. Nil as for ``encode(_:)``.
  public func stored(_ value: Value) -> SQLValue? {
    switch (self, value) {
    case (.postgresql, .dateTime(let t)):
      encode(.dateTime(Instant(seconds: t.seconds, nanoseconds: t.nanoseconds / 1000 * 1000)))
    case (.postgresql, .duration(let span)):
      encode(.duration(TimeSpan(nanoseconds: span.nanoseconds / 1000 * 1000)))
    case (.postgresql, .time(let t)):
      TimeOfDay(nanosecondsSinceMidnight: t.nanosecondsSinceMidnight / 1000 * 1000).flatMap {
        encode(.time($0))
      }
    default: encode(value)
    }
  }

  /// A cell read back as a value of `type`; nil when it does not hold one. Cells may come as
  /// text (PostgreSQL's text results) or in their own storage class (SQLite).
  public func decode(_ cell: SQLValue, as type: ValueType) -> Value? {
    if case .null = cell { return .null }
    switch (type, cell) {
    case (.bool, .int(let i)): return i == 0 || i == 1 ? .bool(i == 1) : nil
    case (.bool, .text(let s)):
      return ["t", "true"].contains(s)
        ? .bool(true) : ["f", "false"].contains(s) ? .bool(false) : nil
    case (.int, .int(let i)): return .int(i)
    case (.int, .text(let s)): return Int64(s).map(Value.int)
    case (.double, .double(let d)): return .double(d)
    case (.double, .int(let i)): return .double(Double(i))
    case (.double, .text(let s)):
      // A `numeric` beyond a double's range (`1e400`) is no double: never read as infinity
      // (which output writes as null), only `Infinity` itself is.
      guard let d = Double(s), !d.isInfinite || s.lowercased().hasSuffix("infinity") else {
        return nil
      }
      return .double(d)
    case (.decimal, .int(let i)): return .decimal(ExactDecimal(i))
    case (.decimal, .double(let d)): return ExactDecimal(d).map(Value.decimal)
    case (.decimal, .text(let s)): return ExactDecimal(s).map(Value.decimal)
    case (.string, .text(let s)): return .string(s)
    case (.date, .text(let s)), (.dateTime, .text(let s)):
      guard let value = Value.isoDate(Array(s.utf8)) else { return nil }
      switch (type, value) {
      case (.date, .date), (.dateTime, .dateTime): return value
      default: return nil
      }
    case (.time, .text(let s)): return Value.isoTime(Array(s.utf8)).map(Value.time)
    // (A mixed value's JSON text is decoded by the caller; SQLite keeps a JSON number in a
    // column of NUMERIC affinity as a number.)
    case (.any, .int(let i)): return .int(i)
    case (.any, .double(let d)): return .double(d)
    case (.duration, .int(let ns)): return .duration(TimeSpan(nanoseconds: ns))
    case (.duration, .text(let ns)): return Int64(ns).map { .duration(TimeSpan(nanoseconds: $0)) }
    default: return nil
    }
  }
}

/// Dates and times as text that sorts as they do: ISO 8601, fixed width.
enum SQLTimeText {
  /// The days of years 0000 to 9999: dates whose text is ten characters.
  static let years: ClosedRange<Int64> = {
    let first = CalendarDate(year: 0, month: 1, day: 1)?.daysSinceEpoch ?? 0
    let last = CalendarDate(year: 9999, month: 12, day: 31)?.daysSinceEpoch ?? 0
    return first...last
  }()

  /// `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`: always nine digits of fraction, so that the texts of
  /// two instants compare as the instants do. Nil outside years 0 to 9999.
  static func instant(_ t: Instant) -> String? {
    let (days, _) = t.seconds.quotientAndRemainder(dividingBy: 86_400)
    let day = t.seconds < 0 && t.seconds % 86_400 != 0 ? days - 1 : days
    guard years.contains(day) else { return nil }
    let whole = Instant(seconds: t.seconds).description.dropLast()  // without the "Z"
    let digits = String(t.nanoseconds)
    return whole + "." + String(repeating: "0", count: 9 - digits.count) + digits + "Z"
  }

  /// `HH:MM:SS.nnnnnnnnn`: always nine digits of fraction, so that the texts of two times
  /// compare as the times do (`24:00:00` after every other).
  static func time(_ t: TimeOfDay) -> String {
    func pad(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
    let second = Int(t.secondOfDay)
    let digits = String(t.nanosecondsSinceMidnight % 1_000_000_000)
    return pad(second / 3600) + ":" + pad(second / 60 % 60) + ":" + pad(second % 60) + "."
      + String(repeating: "0", count: 9 - digits.count) + digits
  }
}

extension SQLValue {
  /// The value as a literal of `dialect`, for scripts that load data (`flt -f sql`); queries
  /// never carry literals, only parameters.
  public func literal(_ dialect: SQLDialect) -> String {
    switch self {
    case .null: return "NULL"
    case .int(let i): return String(i)
    case .double(let d):
      if d.isFinite { return String(d) }
      switch dialect {
      case .sqlite: return d < 0 ? "-9e999" : "9e999"
      case .postgresql: return d < 0 ? "'-Infinity'" : "'Infinity'"
      }
    case .text(let text):
      if dialect == .sqlite && text.utf8.contains(0) {
        // A NUL cannot be written inside quotes: the bytes in hexadecimal.
        let digits = Array("0123456789ABCDEF")
        var hex = ""
        for byte in text.utf8 {
          hex.append(digits[Int(byte >> 4)])
          hex.append(digits[Int(byte & 15)])
        }
        return "CAST(X'\(hex)' AS TEXT)"
      }
      let quoted = "'" + text.replacingAll("'", with: "''") + "'"
      // PostgreSQL reads a backslash in '...' as an escape when standard_conforming_strings is
      // off (a value ending in a backslash would end the literal and run the rest as SQL).
      // E'...' reads escapes under either setting, and so does psql's lexer, so the text
      // stays one literal and no backslash can start a psql meta-command.
      guard dialect == .postgresql, text.utf8.contains(UInt8(ascii: "\\")) else { return quoted }
      return "E" + quoted.replacingAll("\\", with: "\\\\")
    }
  }
}
