/// A constant written in the source: `256`, `6.1`, `"Space Black"`, `true`, `null`,
/// `2022-09-16`, `2022-09-16T10:00:00Z`, `7d`.
///
/// A bare word in value position (`color == Midnight`) is a ``string(_:)`` literal.
public enum Literal: Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  /// Always finite when produced by the parser.
  case double(Double)
  case string(String)
  case date(CalendarDate)
  case dateTime(Instant)
  case duration(TimeSpan)
}
