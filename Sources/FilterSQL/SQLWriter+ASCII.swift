import FilterDSL

/// Tests exact on text of printable ASCII only, and true on any other text, which flt then
/// decides: narrowing tests.
///
/// flt works on whole characters with Unicode's rules (`ß` lowers to itself and folds to
/// `ss`, `é` may be `e` and an accent, a line break may be two code points); SQL on code
/// points with its own rules (SQLite lowers only ASCII letters; PostgreSQL as its collation
/// says). On text made of printable ASCII (space to `~`) they agree: a character is a code
/// point, and lowering is `A` to `Z`. So where flt's answer depends on such rules (`lower`,
/// `len`, `substring`, `[c]`, `matches`), the writer notes the text read as ASCII-only, and
/// the test around it is written as `(test) OR (text has a character outside ' ' to '~')`.
/// A null text is no problem: SQL's function gives NULL, as flt's does.
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
        return [.int, .double, .bool, .date, .dateTime, .duration, .null].contains(expr.type)
      }
      guard let text = value(expr) else { return false }
      if !asciiOnly.contains(text) { asciiOnly.append(text) }
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

  /// `fragment`, written while the text noted in ``asciiOnly`` after `mark` had to be
  /// printable ASCII: as it is when nothing was noted, else narrowing, true wherever such a
  /// text has another character. The notes are taken off.
  mutating func released(_ fragment: SQLFragment, from mark: Int) -> SQLFragment? {
    guard asciiOnly.count > mark else { return fragment }
    let texts = asciiOnly[mark...]
    asciiOnly.removeSubrange(mark...)
    guard let outside = bind(.string(dialect == .postgresql ? "[^ -~]" : "*[^ -~]*"), .string)
    else { return nil }
    let others = texts.map { text in
      dialect == .postgresql ? "(\(text) ~ \(outside))" : "(\(text) GLOB \(outside))"
    }
    return SQLFragment(
      "(" + ([fragment.text] + others).joined(separator: " OR ") + ")", exact: false)
  }

  /// A value written with nothing left to check (for sort keys and grouped values, which
  /// cannot narrow).
  mutating func exactValue(_ expr: BoundExpr) -> String? {
    attempt { writer -> String? in
      let mark = writer.asciiOnly.count
      guard let value = writer.value(expr), writer.asciiOnly.count == mark else { return nil }
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
