/// Comparisons of values with three-valued results: the one definition that the reference
/// evaluator and the compiled engine share.
enum ValueComparison {
  /// `a op b`, folding text first when `options` say so; unknown when either is null or the two
  /// cannot be compared.
  /// `a is b` (`negated`: `a is not b`): equal or both null, never unknown.
  static func same(_ a: Value, _ b: Value, negated: Bool) -> Truth {
    let same: Bool
    switch (a.isNull, b.isNull) {
    case (true, true): same = true
    case (false, false): same = ValueOrder.compare(a, b).map { $0 == 0 } ?? (a == b)
    default: same = false
    }
    return Truth(same != negated)
  }

  /// `v is empty` (`negated`: `is not empty`): for text and lists; unknown for null.
  static func isEmpty(_ v: Value, negated: Bool) -> Truth {
    switch v {
    case .string(let s): Truth(s.isEmpty != negated)
    case .list(let items): Truth(items.isEmpty != negated)
    default: .unknown
    }
  }

  static func compare(_ op: ComparisonOperator, _ a: Value, _ b: Value, _ options: StringOptions)
    -> Truth
  {
    var a = a
    var b = b
    if !options.isEmpty, case .string(let x) = a, case .string(let y) = b {
      a = .string(TextFolding.fold(x, options))
      b = .string(TextFolding.fold(y, options))
    }
    guard let order = ValueOrder.compare(a, b) else { return .unknown }
    return holds(op, order)
  }

  /// Whether `op` holds for a comparison result (negative, zero, positive).
  @inline(__always)
  static func holds(_ op: ComparisonOperator, _ order: Int) -> Truth {
    Truth(op.holds(order: order))
  }

  /// `lower <= value` and `value upper bound`: `between` (`upper` is `<=`) and ranges (`<=`
  /// for `...`, `<` for `..<`).
  static func within(
    _ value: Value, _ lower: Value, _ bound: Value, upper: ComparisonOperator,
    _ options: StringOptions
  ) -> Truth {
    compare(.greaterOrEqual, value, lower, options) && compare(upper, value, bound, options)
  }

  /// `subject in elements`: true if it equals one; else unknown if the subject is null or an
  /// comparison was unknown; else false.
  static func member(_ subject: Value, _ elements: [Value], _ options: StringOptions) -> Truth {
    var result = Truth.false
    for element in elements {
      result = result || compare(.equal, subject, element, options)
      if result == .true { break }
    }
    return result
  }
}
