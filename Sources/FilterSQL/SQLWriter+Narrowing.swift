import FilterDSL

/// Values SQL computes as flt does only on some rows, and tests made of them: narrowing tests,
/// true wherever flt's test is true (and on the other rows, which flt then decides).
///
/// Text: flt works on whole characters with Unicode's rules (`ß` lowers to itself and folds
/// to `ss`, `é` may be `e` and an accent, a line break may be two code points); SQL on code
/// points with its own rules (SQLite lowers only ASCII letters; PostgreSQL as its collation
/// says). On text made of printable ASCII (space to `~`) they agree: a character is a code
/// point, and lowering is `A` to `Z`. So where flt's answer depends on such rules (`lower`,
/// `len`, `substring`, `[c]`, `matches`), the writer notes the text read as ASCII-only.
///
/// Decimals in PostgreSQL: its arithmetic raises an error where the result overflows (or
/// underflows to zero), where flt keeps the infinity or the zero; so it is written only where
/// the operands' sizes rule that out, a condition the writer notes.
///
/// The test around such values is written as `(test) OR (a noted text has a character
/// outside ' ' to '~') OR (a noted condition is false)`. A null is no problem: SQL gives NULL
/// where flt's value is null.
extension SQLWriter {
  /// Notes that the text `expr` reads must be printable ASCII for what is written of it to
  /// be exact: each text field it reads is checked in the database; a constant or parameter
  /// is checked now (false when one is not, as the test could not be exact on any row).
  /// Other values (numbers, dates) become ASCII text when converted.
  mutating func requireASCII(_ expr: BoundExpr) -> Bool {
    switch expr.kind {
    case .constant(let value):
      return Self.isPrintableASCII(value)
    case .parameter(let parameter):
      return Self.isPrintableASCII(values[parameter.name] ?? .null)
    case .field:
      guard expr.type == .string else {
        return [.int, .double, .bool, .date, .dateTime, .time, .duration, .null].contains(
          expr.type)
      }
      guard let text = value(expr) else { return false }
      if !unsure.contains(.ascii(text)) { unsure.append(.ascii(text)) }
      return true
    case .call(_, let arguments):
      return arguments.allSatisfy { requireASCII($0) }
    case .arithmetic(_, let a, let b):
      return requireASCII(a) && requireASCII(b)
    case .negate(let a):
      return requireASCII(a)
    default:
      return false
    }
  }

  /// `fragment`, written while ``unsure`` noted what is after `mark`: as it is when nothing
  /// was noted, else narrowing, true wherever a noted text has a character outside printable
  /// ASCII or a noted condition is false. The notes are taken off.
  mutating func released(_ fragment: SQLFragment, from mark: Int) -> SQLFragment? {
    guard unsure.count > mark else { return fragment }
    let notes = unsure[mark...]
    unsure.removeSubrange(mark...)
    var others: [String] = []
    var outside: String?
    for note in notes {
      switch note {
      case .ascii(let text):
        if outside == nil {
          outside = bind(.string(dialect == .postgresql ? "[^ -~]" : "*[^ -~]*"), .string)
        }
        guard let outside else { return nil }
        others.append(
          dialect == .postgresql ? "(\(text) ~ \(outside))" : "(\(text) GLOB \(outside))")
      case .holds(let condition):
        others.append("(NOT \(condition))")
      }
    }
    return SQLFragment(
      "(" + ([fragment.text] + others).joined(separator: " OR ") + ")", exact: false)
  }

  /// A value written with nothing left to check (for sort keys and grouped values, which
  /// cannot narrow).
  mutating func exactValue(_ expr: BoundExpr) -> String? {
    attempt { writer -> String? in
      let mark = writer.unsure.count
      guard let value = writer.value(expr), writer.unsure.count == mark else { return nil }
      return value
    }
  }

  /// Whether `value` holds only text of printable ASCII (numbers and the like are fine).
  static func isPrintableASCII(_ value: Value) -> Bool {
    switch value {
    case .string(let s): s.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    case .list(let items): items.allSatisfy(isPrintableASCII)
    default: true
    }
  }
}
