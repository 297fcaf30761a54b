/// The type of a field, parameter or expression.
public indirect enum ValueType: Hashable, Sendable, CustomStringConvertible {
  /// True or false.
  case bool
  /// A whole number (64 bits).
  case int
  /// A binary floating-point number (IEEE double).
  case double
  /// An exact decimal (SQL's `DECIMAL`).
  case decimal
  /// Text.
  case string
  /// A calendar day: `2022-09-16`.
  case date
  /// A point in time: `2022-09-16T10:00:00Z`.
  case dateTime
  /// A time of day: `22:00`.
  case time
  /// A length of time: `7d`.
  case duration
  /// A list whose elements have the given type.
  case list(ValueType)
  /// A nested record.
  case record(Schema)
  /// Values of any kind: a field whose records hold lists, objects and other values (kept
  /// each of its kind: `is empty`, `typeof` and comparisons look at each value).
  case any
  /// The type of the literal `null`, which fits wherever a value does.
  case null

  /// The type of a literal's value.
  public init(_ literal: Literal) {
    switch literal {
    case .null: self = .null
    case .bool: self = .bool
    case .int: self = .int
    case .double: self = .double
    case .decimal: self = .decimal
    case .string: self = .string
    case .date: self = .date
    case .dateTime: self = .dateTime
    case .time: self = .time
    case .duration: self = .duration
    }
  }

  /// The type's short name, as `--schema` and `typeof` name kinds of value: `int`,
  /// `datetime`, `list` (whatever its elements), `record`, `any`, `null`.
  public var kindName: String {
    switch self {
    case .bool: "bool"
    case .int: "int"
    case .double: "double"
    case .decimal: "decimal"
    case .string: "string"
    case .date: "date"
    case .dateTime: "datetime"
    case .time: "time"
    case .duration: "duration"
    case .list: "list"
    case .record: "record"
    case .any: "any"
    case .null: "null"
    }
  }

  /// Whether values of this type are numbers (integers, doubles, decimals).
  public var isNumeric: Bool { self == .int || self == .double || self == .decimal }

  /// Whether values of this type are lists.
  public var isList: Bool {
    if case .list = self { return true }
    return false
  }

  /// How the type is named in messages: "a number", "text", "a list of text".
  public var description: String {
    switch self {
    case .bool: "true or false"
    case .int: "an integer"
    case .double: "a number"
    case .decimal: "a decimal"
    case .string: "text"
    case .date: "a date"
    case .dateTime: "a date-time"
    case .time: "a time of day"
    case .duration: "a duration"
    case .list(let element): "a list of \(element.plural)"
    case .record: "a record"
    case .any: "a value of mixed kinds"
    case .null: "null"
    }
  }

  /// How values of the type are named in messages: "integers", "lists of text".
  public var plural: String {
    switch self {
    case .bool: "true/false values"
    case .int: "integers"
    case .double: "numbers"
    case .decimal: "decimals"
    case .string: "text"
    case .date: "dates"
    case .dateTime: "date-times"
    case .time: "times of day"
    case .duration: "durations"
    case .list(let element): "lists of \(element.plural)"
    case .record: "records"
    case .any: "values of mixed kinds"
    case .null: "nulls"
    }
  }
}
