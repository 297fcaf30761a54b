/// A constant written in the source: `256`, `6.1`, `"Space Black"`, `true`, `null`,
/// `2022-09-16`, `2022-09-16T10:00:00Z`, `22:00`, `7d`.
///
/// A bare word in value position (`color == Midnight`) is a ``string(_:)`` literal.
public enum Literal: Hashable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number: `256`.
  case int(Int64)
  /// A binary floating-point number, written with an exponent (`1e3`); always finite when
  /// produced by the parser.
  case double(Double)
  /// An exact decimal, written with a point and no exponent: `6.1`.
  indirect case decimal(ExactDecimal)
  /// Text: `"Space Black"`, or a bare word in value position.
  case string(String)
  /// A calendar day: `2022-09-16`.
  case date(CalendarDate)
  /// A point in time: `2022-09-16T10:00:00Z`.
  case dateTime(Instant)
  /// A time of day: `22:00`, `09:30:15.5`.
  case time(TimeOfDay)
  /// A length of time: `7d`, `90m`, `1h30m`.
  case duration(TimeSpan)
}
