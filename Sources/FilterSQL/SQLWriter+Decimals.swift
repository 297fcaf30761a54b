import FilterDSL

/// Arithmetic on decimals in PostgreSQL. flt keeps what IEEE arithmetic gives (an infinity
/// where a result overflows, a zero where it underflows; a division by zero is null), but
/// PostgreSQL raises an error for an overflow, and, multiplying or dividing, for a result that
/// underflows to zero. So `a op b` is computed there only where the operands' sizes rule both
/// out: at most 1e307 for a sum or difference; at most 1e150, and zero or at least 1e-150, for
/// a product or quotient (whose size is then between 1e-300 and 1e300). An integer operand
/// always is (flt converts it as PostgreSQL does); a constant or parameter is checked now;
/// anything else in the database, where the value is NULL outside those sizes and the test
/// around it narrows (see `SQLWriter+Narrowing.swift`). NaN and infinities are outside.
extension SQLWriter {
  /// `left op right` (each with its SQL) on decimals in PostgreSQL; nil for a remainder (no
  /// such operator on decimals there), or where an operand is known to be too large.
  mutating func decimals(
    _ op: ArithmeticOperator, _ left: (BoundExpr, String), _ right: (BoundExpr, String)
  ) -> String? {
    guard op != .remainder else { return nil }
    let multiplies = op == .multiply || op == .divide || op == .integerDivide
    let largest = multiplies ? "1e150" : "1e307"
    // The conditions on each operand, as functions of the SQL that names it; nil when known
    // false.
    var checks: [(Int, (String) -> String)] = []
    for (index, operand) in [left.0, right.0].enumerated() {
      switch size(operand) {
      case .integer:
        continue
      case .known(let d):
        let small = d.magnitude <= (multiplies ? 1e150 : 1e307)
        guard small && (!multiplies || d == 0 || d.magnitude >= 1e-150) else { return nil }
      case .unknown:
        checks.append(
          (
            index,
            { x in
              "abs(\(x)) <= \(largest)"
                + (multiplies ? " AND (\(x) = 0 OR abs(\(x)) >= 1e-150)" : "")
            }
          ))
      }
    }
    let (a, b) = (left.1, right.1)
    func written(_ x: String, _ y: String) -> String {
      // (A quotient in double precision: of two integers PostgreSQL's `/` truncates.)
      switch op {
      case .divide: "(\(x)::double precision / NULLIF(\(y), 0))"
      case .integerDivide: "trunc(\(x)::double precision / NULLIF(\(y), 0))"
      default: "(\(x) \(op.rawValue) \(y))"
      }
    }
    guard !checks.isEmpty else { return written(a, b) }
    func condition(_ names: [String]) -> String {
      checks.map { index, check in check(names[index]) }.joined(separator: " AND ")
    }
    unsure.append(.holds("(\(condition([a, b])))"))
    return once([a, b]) { n in
      "(CASE WHEN \(condition(n)) THEN \(written(n[0], n[1])) END)"
    }
  }

  /// What is known of an operand's size when the statement is written.
  private enum Size {
    case integer
    case known(Double)
    case unknown
  }

  private func size(_ operand: BoundExpr) -> Size {
    if operand.type == .int { return .integer }
    let value: Value?
    switch operand.kind {
    case .constant(let constant): value = constant
    case .parameter(let parameter): value = values[parameter.name] ?? .null
    default: value = nil
    }
    switch value {
    case .double(let d): return .known(d)
    case .int(let i): return .known(Double(i))
    case .null: return .known(0)
    default: return .unknown
    }
  }
}
