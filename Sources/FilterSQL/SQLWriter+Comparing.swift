import FilterDSL

/// Comparisons written so that SQL orders values as flt does.
extension SQLWriter {
  /// Whether SQL can compare values of types `a` and `b` as flt does (text by code points:
  /// flt's order for text in Unicode's composed form, NFC), each side written by
  /// ``compared(_:_:with:)``.
  func comparable(_ a: ValueType, _ b: ValueType) -> Bool {
    if a == .null || b == .null { return true }
    guard dialect.comparesExactly(a), dialect.comparesExactly(b) else { return false }
    switch (a, b) {
    case (.int, .int), (.double, .double), (.string, .string), (.bool, .bool), (.date, .date),
      (.dateTime, .dateTime), (.time, .time), (.duration, .duration), (.int, .double),
      (.double, .int),
      (.decimal, .decimal), (.int, .decimal), (.decimal, .int), (.double, .decimal),
      (.decimal, .double):
      return true
    default:
      return false
    }
  }

  /// `x`, a value of `type`, as it is compared with a value of type `other`. SQLite compares
  /// an integer with a real exactly. PostgreSQL would convert the integer to a double, which
  /// rounds past 2^53 (`9007199254740993 = 9007199254740992.0` would be true), so there the
  /// integer becomes a `numeric` and the double a `numeric` that orders the same way against
  /// every integer: its integral part plus half its fraction's sign (flt's own rule, in
  /// `NumberComparison`), beyond every integer where it is beyond `bigint`. NaN, which flt
  /// does not order, is NULL.
  func compared(_ x: String, _ type: ValueType, with other: ValueType) -> String {
    guard dialect == .postgresql else { return x }
    switch (type, other) {
    case (.double, .double):
      // PostgreSQL orders NaN above every number, and as equal to itself; flt not at all.
      return "NULLIF(\(x), 'NaN')"
    case (.int, .double), (.int, .decimal):
      return "(\(x))::numeric"
    case (.double, .decimal):
      return "NULLIF(\(x), 'NaN')"
    case (.decimal, .double):
      // A decimal with a double compares as its nearest double.
      return "(\(x))::float8"
    case (.double, .int):
      return once(x) { x in
        "(CASE WHEN \(x) = 'NaN' THEN NULL WHEN \(x) >= 9.223372036854775808e18::float8 THEN 9223372036854775808 "
          + "WHEN \(x) < -9.223372036854775808e18::float8 THEN -9223372036854775809 "
          + "ELSE trunc(\(x))::bigint::numeric + sign(\(x) - trunc(\(x)))::numeric / 2 END)"
      }
    default:
      return x
    }
  }

  /// `x`, a value of `type`, as it is ordered by flt: text by code points, which in
  /// PostgreSQL is the "C" collation (the database's own, often a language's, would sort `a`
  /// before `B`); SQLite compares text by its bytes unless told otherwise.
  func ordered(_ x: String, _ type: ValueType) -> String {
    guard dialect == .postgresql && type == .string else { return x }
    let collated = byteOrdered(x)
    return collated == x ? x : "(\(collated))"
  }

  /// Text `x` under PostgreSQL's "C" collation (code point order, ASCII case rules): `x`
  /// itself when it is a column declared so (`SQLTable/byteOrderedColumns`), which keeps the
  /// test one `postgres_fdw` sends to a shard; else `x COLLATE "C"`.
  func byteOrdered(_ x: String) -> String {
    table.byteOrderedColumns.contains(where: { dialect.quote($0) == x }) ? x : "\(x) COLLATE \"C\""
  }
}
