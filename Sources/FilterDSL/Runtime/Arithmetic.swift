/// Arithmetic that cannot trap. Swift stops the process on integer overflow, division by
/// zero and bad conversions; these functions report a ``Fault`` instead.
enum Arithmetic {
  /// `a op b` on integers. `/` is integer division here too: the checker types `/` of two
  /// integers as a double (computed by ``double(_:_:_:)``), so it reaches here only for a
  /// duration's nanoseconds.
  static func int(_ op: ArithmeticOperator, _ a: Int64, _ b: Int64) -> Result<Int64, Fault> {
    let (value, overflow): (Int64, Bool)
    switch op {
    case .add: (value, overflow) = a.addingReportingOverflow(b)
    case .subtract: (value, overflow) = a.subtractingReportingOverflow(b)
    case .multiply: (value, overflow) = a.multipliedReportingOverflow(by: b)
    case .divide, .integerDivide:
      if b == 0 { return .failure(.divisionByZero) }
      (value, overflow) = a.dividedReportingOverflow(by: b)
    case .remainder:
      if b == 0 { return .failure(.divisionByZero) }
      // Any integer divided by -1 leaves 0. Swift flags `Int.min % -1` as an overflow because
      // the quotient overflows, but the remainder does not (PostgreSQL and Python give 0).
      if b == -1 { return .success(0) }
      (value, overflow) = a.remainderReportingOverflow(dividingBy: b)
    case .bitAnd: (value, overflow) = (a & b, false)
    case .bitOr: (value, overflow) = (a | b, false)
    case .bitXor: (value, overflow) = (a ^ b, false)
    // Swift's `<<` and `>>` on integers are SQLite's: an amount of 64 or more shifts every bit
    // out, a negative amount shifts the other way. Bits shifted out are lost, as in SQL.
    case .shiftLeft: (value, overflow) = (a << b, false)
    case .shiftRight: (value, overflow) = (a >> b, false)
    }
    return overflow ? .failure(.integerOverflow) : .success(value)
  }

  /// Double arithmetic. IEEE results are kept, except that a result that is not a number
  /// (0/0, inf-inf) or a division by zero is a fault, so that no NaN flows into comparisons.
  static func double(_ op: ArithmeticOperator, _ a: Double, _ b: Double) -> Result<Double, Fault> {
    let value: Double
    switch op {
    case .add: value = a + b
    case .subtract: value = a - b
    case .multiply: value = a * b
    case .divide:
      if b == 0 { return .failure(.divisionByZero) }
      value = a / b
    case .integerDivide:
      if b == 0 { return .failure(.divisionByZero) }
      value = (a / b).rounded(.towardZero)
    case .remainder:
      if b == 0 { return .failure(.divisionByZero) }
      value = a.truncatingRemainder(dividingBy: b)
    case .bitAnd, .bitOr, .bitXor, .shiftLeft, .shiftRight:
      // The checker allows them on integers alone; a decimal met at run time has no bits.
      return .failure(.invalidConversion)
    }
    return value.isNaN ? .failure(.invalidConversion) : .success(value)
  }

  /// Decimal arithmetic: `+ - * %` exact (a result beyond 38 digits overflows), `/` and `//`
  /// on the nearest doubles (a decimal divided is a double, as in DuckDB).
  static func decimal(_ op: ArithmeticOperator, _ a: ExactDecimal, _ b: ExactDecimal)
    -> Result<Value, Fault>
  {
    let result: ExactDecimal?
    switch op {
    case .add: result = a.adding(b)
    case .subtract: result = a.subtracting(b)
    case .multiply: result = a.multiplying(by: b)
    case .divide, .integerDivide:
      return double(op, a.doubleValue, b.doubleValue).map { .double($0) }
    case .remainder:
      if b.significand == 0 { return .failure(.divisionByZero) }
      result = a.remainder(dividingBy: b)
    case .bitAnd, .bitOr, .bitXor, .shiftLeft, .shiftRight:
      return .failure(.invalidConversion)
    }
    return result.map { .success(.decimal($0)) } ?? .failure(.integerOverflow)
  }

  static func negate(_ a: Int64) -> Result<Int64, Fault> {
    let (value, overflow) = Int64(0).subtractingReportingOverflow(a)
    return overflow ? .failure(.integerOverflow) : .success(value)
  }

  static func abs(_ a: Int64) -> Result<Int64, Fault> {
    a < 0 ? negate(a) : .success(a)
  }
}
