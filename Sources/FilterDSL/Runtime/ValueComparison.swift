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
    case (false, false):
      if case .list(let xs) = a, case .list(let ys) = b {
        // Element by element, a null the same as a null: (1, null) is (1, null).
        same =
          xs.count == ys.count
          && zip(xs, ys).allSatisfy { Self.same($0, $1, negated: false) == .true }
      } else {
        same = ValueOrder.compare(a, b).map { $0 == 0 } ?? (a == b)
      }
    default: same = false
    }
    return Truth(same != negated)
  }

  /// `v is empty` (`negated`: `is not empty`): for text and lists; unknown for null.
  static func isEmpty(_ v: Value, negated: Bool) -> Truth {
    switch v {
    case .string(let s): Truth(s.isEmpty != negated)
    case .list(let items): Truth(items.isEmpty != negated)
    case .object(let object): Truth(object.isEmpty != negated)
    default: .unknown
    }
  }

  static func compare(_ op: ComparisonOperator, _ a: Value, _ b: Value, _ options: StringOptions)
    -> Truth
  {
    if case .list(let xs) = a, case .list(let ys) = b, op == .equal || op == .notEqual {
      let equal = listsEqual(xs, ys, options)
      return op == .equal ? equal : !equal
    }
    var a = a
    var b = b
    if !options.isEmpty, case .string(let x) = a, case .string(let y) = b {
      a = .string(TextFolding.fold(x, options))
      b = .string(TextFolding.fold(y, options))
    }
    guard let order = ValueOrder.compare(a, b) else { return .unknown }
    return holds(op, order)
  }

  /// Whether two lists are equal: of one length (else false), and each element equal to the
  /// other's at its position, in order (CEL's list equality), with three-valued `and`: a null
  /// element makes it unknown unless another pair already differs.
  static func listsEqual(_ xs: [Value], _ ys: [Value], _ options: StringOptions) -> Truth {
    guard xs.count == ys.count else { return .false }
    var result = Truth.true
    for (x, y) in zip(xs, ys) {
      result = result && compare(.equal, x, y, options)
      if result == .false { break }
    }
    return result
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
