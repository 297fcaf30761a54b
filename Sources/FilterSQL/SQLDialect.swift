import FilterDSL

/// The SQL dialects flt translates to. Each one says how it quotes names, writes placeholders
/// and booleans, and which column type holds each of flt's types.
public enum SQLDialect: String, Hashable, Sendable, CaseIterable {
  /// PostgreSQL (and what speaks its protocol: CockroachDB, YugabyteDB, Citus).
  case postgresql
  /// SQLite 3.30 or later.
  case sqlite

  /// `name` as a quoted identifier: in double quotes, inner quotes doubled. A NUL, which no
  /// identifier may hold, becomes U+FFFD, so the name can only ever fail to match.
  public func quote(_ name: String) -> String {
    var quoted = "\""
    for scalar in name.unicodeScalars {
      switch scalar {
      case "\"": quoted += "\"\""
      case "\u{0}": quoted += "\u{FFFD}"
      default: quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted + "\""
  }

  /// The placeholder of parameter `number` (from 1), cast to the column type of `type` where
  /// the dialect needs to be told.
  func placeholder(_ number: Int, _ type: ValueType) -> String {
    switch self {
    case .sqlite: return "?\(number)"
    case .postgresql:
      guard let cast = columnType(type) else { return "$\(number)" }
      return "$\(number)::\(cast)"
    }
  }

  /// A constant truth: `TRUE` / `FALSE`, or 1 / 0 where there is no boolean type.
  func literal(_ truth: Bool) -> String {
    switch self {
    case .postgresql: truth ? "TRUE" : "FALSE"
    case .sqlite: truth ? "1" : "0"
    }
  }

  /// The column type holding values of `type` (nil for `null`, which has no values).
  public func columnType(_ type: ValueType) -> String? {
    switch (self, type) {
    case (_, .null): nil
    // SQLite's names say what the column holds, so that reading the table's declaration
    // gives the schema back; each has the storage its values need (BOOLEAN, DATE, DATETIME,
    // TIME, DURATION and JSON have NUMERIC affinity, which keeps integers, and text that is
    // not a number, as they are).
    case (.sqlite, .bool): "BOOLEAN"
    case (.sqlite, .int): "INTEGER"
    case (.sqlite, .double): "REAL"
    // (NUMERIC affinity: a decimal is kept as an integer where it is one, else as a real.)
    case (.sqlite, .decimal): "DECIMAL"
    case (.sqlite, .string): "TEXT"
    case (.sqlite, .date): "DATE"
    case (.sqlite, .dateTime): "DATETIME"
    case (.sqlite, .time): "TIME"
    case (.sqlite, .duration): "DURATION"
    case (.sqlite, .list), (.sqlite, .record), (.sqlite, .any): "JSON"
    case (.postgresql, .bool): "boolean"
    case (.postgresql, .int): "bigint"
    case (.postgresql, .double): "double precision"
    case (.postgresql, .decimal): "numeric"
    case (.postgresql, .string): "text"
    case (.postgresql, .date): "date"
    case (.postgresql, .dateTime): "timestamptz"
    case (.postgresql, .time): "time"
    case (.postgresql, .duration): "interval"
    case (.postgresql, .list), (.postgresql, .record), (.postgresql, .any): "jsonb"
    }
  }

  /// A column read as `column` (its quoted name, or an expression), of `type`, as a select
  /// list reads it back: as it is, except in PostgreSQL date-times as fixed ISO text in UTC
  /// and durations as nanoseconds.
  func selected(_ column: String, _ type: ValueType) -> String {
    switch (self, type) {
    case (.postgresql, .dateTime):
      return #"to_char(\#(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"#
    case (.postgresql, .duration):
      return "(extract(epoch FROM \(column)) * 1000000000)::bigint"
    default:
      return column
    }
  }

  /// Whether the dialect stores values of `type` so that comparing them in SQL orders them as
  /// flt does. (PostgreSQL keeps date-times and durations in microseconds, as flt reads them
  /// back; a value between two microseconds has no parameter, so a test with one stays in
  /// flt.) SQLite's times of day are text, which other programs write in forms of their own
  /// (`22:00` beside flt's `22:00:00.000000000`, equal times whose texts differ): flt
  /// compares them.
  func comparesExactly(_ type: ValueType) -> Bool {
    switch (self, type) {
    case (_, .list), (_, .record), (_, .any), (.sqlite, .time): false
    default: true
    }
  }

  /// The type of a column declared as `declared` (`INTEGER`, `varchar(20)`, `timestamptz`),
  /// for the scalar types; nil for JSON columns, whose lists and records are read from the
  /// values. Unknown names are text.
  public func fieldType(declared: String) -> ValueType? {
    let name = String(declared.lowercased().prefix { $0 != "(" }).trimmingSpaces
    switch name {
    case "bool", "boolean": return .bool
    case "date": return .date
    case "datetime", "timestamp", "timestamptz", "timestamp with time zone": return .dateTime
    case "time", "time without time zone": return .time
    case "duration", "interval": return .duration
    case "json", "jsonb": return nil
    // PostgreSQL's decimals are exact; SQLite keeps a DECIMAL column's values as reals.
    case "numeric" where self == .postgresql, "decimal" where self == .postgresql:
      return .decimal
    default:
      if name.contains("int") { return .int }
      for real in ["real", "floa", "doub", "numeric", "decimal"] where name.contains(real) {
        return .double
      }
      return .string
    }
  }
}

extension String {
  /// This text without spaces at either end.
  var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
