/// How two values compare: numbers by value (integers with doubles and with decimals exactly;
/// a decimal with a double as the double nearest it, as SQL converts it), text by Unicode
/// scalars after canonical equivalence (Swift's `String` order), `false` before `true`, dates
/// and date-times in time (a date is midnight UTC), times of day from midnight, durations by
/// length.
package enum ValueOrder {
  /// Negative, zero or positive; nil when the two cannot be compared (different kinds, null,
  /// NaN).
  package static func compare(_ a: Value, _ b: Value) -> Int? {
    switch (a, b) {
    case (.int(let x), .int(let y)): NumberComparison.compareSame(x, y)
    case (.int(let x), .double(let y)): NumberComparison.compare(x, y)
    case (.double(let x), .int(let y)): NumberComparison.compare(x, y)
    case (.double(let x), .double(let y)):
      x.isNaN || y.isNaN ? nil : NumberComparison.compareSame(x, y)
    case (.decimal(let x), .decimal(let y)): ExactDecimal.compare(x, y)
    case (.int(let x), .decimal(let y)): ExactDecimal.compare(x, y)
    case (.decimal(let x), .int(let y)): -ExactDecimal.compare(y, x)
    case (.decimal(let x), .double(let y)):
      y.isNaN ? nil : NumberComparison.compareSame(x.doubleValue, y)
    case (.double(let x), .decimal(let y)):
      x.isNaN ? nil : NumberComparison.compareSame(x, y.doubleValue)
    case (.string(let x), .string(let y)): NumberComparison.compareSame(x, y)
    case (.bool(let x), .bool(let y)): NumberComparison.compareSame(x ? 1 : 0, y ? 1 : 0)
    case (.date(let x), .date(let y)): NumberComparison.compareSame(x, y)
    case (.dateTime(let x), .dateTime(let y)): NumberComparison.compareSame(x, y)
    case (.date(let x), .dateTime(let y)):
      TimeArithmetic.instant(of: x).map { NumberComparison.compareSame($0, y) }
    case (.dateTime(let x), .date(let y)):
      TimeArithmetic.instant(of: y).map { NumberComparison.compareSame(x, $0) }
    case (.time(let x), .time(let y)): NumberComparison.compareSame(x, y)
    case (.duration(let x), .duration(let y)): NumberComparison.compareSame(x, y)
    default: nil
    }
  }
}
