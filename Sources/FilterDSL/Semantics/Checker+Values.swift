/// Lists, ranges, negation and arithmetic.
extension Checker {
  /// A list literal: its items must be of one kind (numbers may mix ints and doubles).
  func listType(_ items: [Expr]) -> ValueType? {
    var element: ValueType = .null
    var ok = true
    for item in items {
      guard let type = type(of: item) else {
        ok = false
        continue
      }
      guard let unified = Checker.unify(element, type) else {
        report(
          .incomparable(
            element.description, describe(item, type), at: item.range,
            help: "a list holds values of one kind"))
        ok = false
        continue
      }
      element = unified
    }
    return ok ? .list(element) : nil
  }

  /// A range `lower...upper`: typed as a list of its bounds' type.
  func rangeType(_ lower: Expr, _ upper: Expr) -> ValueType? {
    guard let low = type(of: lower), let high = type(of: upper) else { return nil }
    guard let unified = Checker.unify(low, high), Checker.isOrderable(unified) else {
      report(
        .incomparable(
          describe(lower, low), describe(upper, high), at: lower.range.union(upper.range),
          help: "both ends of a range are of one kind"))
      return nil
    }
    return .list(unified)
  }

  /// The type two values of types `a` and `b` share, if any: ints and doubles are numbers,
  /// null fits anything, dates and date-times are both points in time.
  static func unify(_ a: ValueType, _ b: ValueType) -> ValueType? {
    if a == .null { return b }
    if b == .null || a == b { return a }
    if a.isNumeric && b.isNumeric { return .double }
    if (a == .date && b == .dateTime) || (a == .dateTime && b == .date) { return .dateTime }
    return nil
  }

  func negate(_ operand: Expr) -> ValueType? {
    guard let type = type(of: operand) else { return nil }
    if case .list(let element) = type, element.isNumeric || element == .duration {
      return type  // element by element: `any -scores > 1`
    }
    switch type {
    case .int, .double, .duration, .null: return type == .null ? .int : type
    default:
      report(.invalidOperand("cannot negate \(describe(operand, type))", at: operand.range))
      return nil
    }
  }

  func arithmetic(_ op: ArithmeticOperator, _ left: Expr, _ right: Expr) -> ValueType? {
    let l = type(of: left)
    let r = type(of: right)
    guard let a = l, let b = r else { return nil }
    if let result = Checker.arithmeticType(op, a, b) { return result }
    // A list with a single value works element by element: `any scores % 2 == 1`.
    switch (a, b) {
    case (.list(let x), _) where !Checker.isList(b):
      if let result = Checker.arithmeticType(op, x, b) { return .list(result) }
    case (_, .list(let y)) where !Checker.isList(a):
      if let result = Checker.arithmeticType(op, a, y) { return .list(result) }
    default: break
    }
    report(
      .invalidOperand(
        "cannot apply '\(op.rawValue)' to \(describe(left, a)) and \(describe(right, b))",
        at: left.range.union(right.range),
        help: a == .string && b == .string ? "only + joins text" : nil))
    return nil
  }

  static func isList(_ type: ValueType) -> Bool {
    if case .list = type { return true }
    return false
  }

  /// The result type of `a op b`, or nil when the operator does not apply.
  static func arithmeticType(_ op: ArithmeticOperator, _ a: ValueType, _ b: ValueType) -> ValueType?
  {
    if a == .null && b == .null { return .null }
    if a == .null { return arithmeticType(op, b, b) == nil ? nil : b }
    if b == .null { return arithmeticType(op, a, a) == nil ? nil : a }
    if a.isNumeric && b.isNumeric { return a == .int && b == .int ? .int : .double }
    switch (op, a, b) {
    case (.add, .string, .string): return .string
    case (.add, .date, .duration), (.subtract, .date, .duration), (.add, .duration, .date):
      return .date
    case (.add, .dateTime, .duration), (.subtract, .dateTime, .duration),
      (.add, .duration, .dateTime):
      return .dateTime
    case (.subtract, .date, .date), (.subtract, .dateTime, .dateTime),
      (.subtract, .date, .dateTime),
      (.subtract, .dateTime, .date):
      return .duration
    case (.add, .duration, .duration), (.subtract, .duration, .duration): return .duration
    case (.multiply, .duration, .int), (.multiply, .int, .duration), (.divide, .duration, .int):
      return .duration
    default: return nil
    }
  }
}
