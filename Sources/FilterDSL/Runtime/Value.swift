/// A value at run time: what a field holds, what a parameter is bound to, what an expression
/// yields. Used by dynamic records, parameters and the reference evaluator.
public enum Value: Hashable, Sendable {
  /// No value: a null, or a field the record lacks.
  case null
  /// True or false.
  case bool(Bool)
  /// A whole number; arithmetic that leaves 64 bits is a fault, never a wrap.
  case int(Int64)
  /// A binary floating-point number (IEEE double): JSON and CSV numbers with a point.
  case double(Double)
  /// An exact decimal: a literal written with a point (`2.55`), a decimal column.
  indirect case decimal(ExactDecimal)
  /// Text.
  case string(String)
  /// A calendar day.
  case date(CalendarDate)
  /// A point in time.
  case dateTime(Instant)
  /// A time of day.
  case time(TimeOfDay)
  /// A length of time.
  case duration(TimeSpan)
  /// A list of values.
  case list([Value])
  /// A nested record: values in the order of its schema's fields.
  case record([Value])
  /// An object of a field of mixed values (``ValueType/any``): its keys and values, in the
  /// order the data wrote them. (A field that holds objects alone is of records.)
  case object(ObjectValue)

  /// The value of a literal.
  public init(_ literal: Literal) {
    switch literal {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .int(let i): self = .int(i)
    case .double(let d): self = .double(d)
    case .decimal(let d): self = .decimal(d)
    case .string(let s): self = .string(s)
    case .date(let d): self = .date(d)
    case .dateTime(let t): self = .dateTime(t)
    case .time(let t): self = .time(t)
    case .duration(let span): self = .duration(span)
    }
  }

  /// The kind of this value, as a type: lists with elements of no known type, records (and
  /// objects) with no known fields.
  public var kind: ValueType {
    switch self {
    case .null: .null
    case .bool: .bool
    case .int: .int
    case .double: .double
    case .decimal: .decimal
    case .string: .string
    case .date: .date
    case .dateTime: .dateTime
    case .time: .time
    case .duration: .duration
    case .list: .list(.null)
    case .record, .object: .record(Schema([]))
    }
  }

  /// Whether this is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// A number as a value of the number type `type` says (an integer where a decimal or a
  /// double is declared, a decimal where a double is: the least of 1 and 2.5 is `1.0`); any
  /// other value as it is.
  func converted(toNumber type: ValueType) -> Value {
    switch (self, type) {
    case (.int(let i), .double): .double(Double(i))
    case (.decimal(let d), .double): .double(d.doubleValue)
    case (.int(let i), .decimal): .decimal(ExactDecimal(i))
    default: self
    }
  }
}

/// The keys and values of an object in a field of mixed values, in the order the data wrote
/// them (a key written twice keeps its last value, as JSON readers do).
public struct ObjectValue: Hashable, Sendable {
  /// The keys, each once.
  public let keys: [String]
  /// The value of each key, by position.
  public let values: [Value]

  /// An object of `keys` and their `values` (extra keys or values are left out).
  public init(keys: [String], values: [Value]) {
    let count = Swift.min(keys.count, values.count)
    self.keys = Array(keys.prefix(count))
    self.values = Array(values.prefix(count))
  }

  /// Whether it has no key.
  public var isEmpty: Bool { keys.isEmpty }
}

/// Three-valued logic, SQL style: a comparison with a null or missing operand is `unknown`,
/// and a record matches only when the whole filter is `true`.
///
/// Encoded so that Kleene's `and` is the minimum, `or` the maximum and `not` the mirror.
public enum Truth: UInt8, Hashable, Sendable, CustomStringConvertible {
  /// The test does not hold.
  case `false` = 0
  /// The test cannot say: it read a null or missing value, or a fault happened.
  case unknown = 1
  /// The test holds.
  case `true` = 2

  /// `true` or `false`.
  public init(_ bool: Bool) { self = bool ? .true : .false }

  /// Kleene's `and`: false wins over unknown.
  @inline(__always) public static func && (a: Truth, b: Truth) -> Truth {
    a.rawValue <= b.rawValue ? a : b
  }

  /// Kleene's `or`: true wins over unknown.
  @inline(__always) public static func || (a: Truth, b: Truth) -> Truth {
    a.rawValue >= b.rawValue ? a : b
  }

  /// `not`: unknown stays unknown.
  @inline(__always) public static prefix func ! (a: Truth) -> Truth {
    switch a {
    case .false: .true
    case .unknown: .unknown
    case .true: .false
    }
  }

  /// `true`, `false` or `unknown`.
  public var description: String {
    switch self {
    case .false: "false"
    case .unknown: "unknown"
    case .true: "true"
    }
  }
}

extension Value: CustomStringConvertible {
  /// The value as a filter would write it: `"Gold"`, `256`, `2022-09-16`, `null`; a list in
  /// parentheses, a record's values in braces.
  public var description: String {
    switch self {
    case .null: Printer.text(of: .null)
    case .bool(let b): Printer.text(of: .bool(b))
    case .int(let i): Printer.text(of: .int(i))
    case .double(let d): d.description
    case .decimal(let d): Printer.text(of: .decimal(d))
    case .string(let s): Printer.text(of: .string(s))
    case .date(let d): Printer.text(of: .date(d))
    case .dateTime(let t): Printer.text(of: .dateTime(t))
    case .time(let t): Printer.text(of: .time(t))
    case .duration(let span): Printer.text(of: .duration(span))
    case .list(let items): "(" + items.map(\.description).joined(separator: ", ") + ")"
    case .record(let values): "{" + values.map(\.description).joined(separator: ", ") + "}"
    case .object(let object):
      "{"
        + zip(object.keys, object.values).map { Quoting.string($0) + ": " + $1.description }
        .joined(separator: ", ") + "}"
    }
  }
}
