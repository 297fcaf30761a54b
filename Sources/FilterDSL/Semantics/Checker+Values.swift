/// Lists, ranges, negation and arithmetic.
extension Checker {
  /// A list literal: its items must be of one kind (numbers may mix ints and doubles).
  func list(_ items: [Expr], _ range: SourceRange) -> BoundExpr? {
    var element: ValueType = .null
    var bound: [BoundExpr] = []
    for expr in items {
      guard let item = bind(expr) else { continue }
      guard let unified = Checker.unify(element, item.type) else {
        report(
          .incomparable(
            element.description, describe(expr, item.type), at: item.range,
            help: "a list holds values of one kind"))
        continue
      }
      element = unified
      bound.append(item)
    }
    guard bound.count == items.count else { return nil }
    return BoundExpr(.list(bound), type: .list(element), range: range)
  }

  /// A range `lower...upper`: typed as a list of its bounds' type.
  func range(_ lower: Expr, _ upper: Expr, _ kind: RangeKind, _ range: SourceRange)
    -> BoundExpr?
  {
    guard let low = bind(lower), let high = bind(upper) else { return nil }
    guard let unified = Checker.unify(low.type, high.type), Checker.isOrderable(unified) else {
      report(
        .incomparable(
          describe(lower, low.type), describe(upper, high.type),
          at: lower.range.union(upper.range), help: "both ends of a range are of one kind"))
      return nil
    }
    return BoundExpr(.range(low, high, kind), type: .list(unified), range: range)
  }

  /// The type two values of types `a` and `b` share, if any: numbers are numbers (a double
  /// with any number a double, an integer with a decimal a decimal), null fits anything,
  /// dates and date-times are both points in time, mixed values hold any value.
  static func unify(_ a: ValueType, _ b: ValueType) -> ValueType? {
    if a == .null { return b }
    if b == .null || a == b { return a }
    if a == .any || b == .any { return .any }
    if a.isNumeric && b.isNumeric { return a == .double || b == .double ? .double : .decimal }
    if (a == .date && b == .dateTime) || (a == .dateTime && b == .date) { return .dateTime }
    return nil
  }

  func negate(_ operand: Expr, _ range: SourceRange) -> BoundExpr? {
    guard let bound = bind(operand) else { return nil }
    return negate(operand, bound, range)
  }

  private func negate(_ operand: Expr, _ bound: BoundExpr, _ range: SourceRange) -> BoundExpr? {
    let type: ValueType
    switch bound.type {
    case .list(let element) where element.isNumeric || element == .duration:
      type = bound.type  // element by element: `any -scores > 1`
    case .int, .double, .decimal, .duration: type = bound.type
    case .null: type = .int
    default:
      report(.invalidOperand("cannot negate \(describe(operand, bound.type))", at: operand.range))
      return nil
    }
    if let value = bound.constant {
      var faulted = false
      let folded = ValueArithmetic.broadcastNegate(value) { _ in faulted = true }
      if !faulted { return BoundExpr(.constant(folded), type: type, range: range) }
    }
    return BoundExpr(.negate(bound), type: type, range: range)
  }

  func arithmetic(
    _ op: ArithmeticOperator, _ left: Expr, _ right: Expr, _ range: SourceRange
  ) -> BoundExpr? {
    let l = bind(left)
    let r = bind(right)
    guard let l, let r else { return nil }
    return arithmetic(op, left, right, l, r, range)
  }

  private func arithmetic(
    _ op: ArithmeticOperator, _ left: Expr, _ right: Expr, _ l: BoundExpr, _ r: BoundExpr,
    _ range: SourceRange
  ) -> BoundExpr? {
    guard let type = Checker.arithmeticResult(op, l.type, r.type) else {
      let (a, b) = (l.type, r.type)
      // A word that names a field, on the right of a comparison, is text (`x > id % 100`):
      // the help says so, as a comparison's does.
      let word = [left, right].lazy.compactMap { expr -> String? in
        guard case .literal(.string(let text)) = expr.kind, self.schema.field(named: text) != nil
        else { return nil }
        return text
      }.first
      report(
        .invalidOperand(
          "cannot apply '\(op.rawValue)' to \(describe(left, a)) and \(describe(right, b))",
          at: left.range.union(right.range),
          help: word.map {
            "on the right of an operator a word is text; to name the field, write `\($0)`"
          } ?? Checker.arithmeticHelp(op, a, b)))
      return nil
    }
    if let x = l.constant, let y = r.constant {
      // Folded unless it faults: a fault is counted per record, as written.
      var faulted = false
      let folded = ValueArithmetic.broadcast(op, x, y) { _ in faulted = true }
      if !faulted { return BoundExpr(.constant(folded), type: type, range: range) }
    }
    return BoundExpr(.arithmetic(op, l, r), type: type, range: range)
  }

  /// The result type of `a op b`, where a list with single values works element by element
  /// (`any scores % 2 == 1`), and `+` joins two lists.
  static func arithmeticResult(_ op: ArithmeticOperator, _ a: ValueType, _ b: ValueType)
    -> ValueType?
  {
    if let result = arithmeticType(op, a, b) { return result }
    switch (a, b) {
    case (.list(let x), .list(let y)) where op == .add:
      // Two lists joined: `tags + ("new",)`.
      return unify(x, y).map { .list($0) }
    case (.list(let x), _) where !isList(b):
      return arithmeticType(op, x, b).map { .list($0) }
    case (_, .list(let y)) where !isList(a):
      return arithmeticType(op, a, y).map { .list($0) }
    default:
      return nil
    }
  }

  static func isRecord(_ type: ValueType) -> Bool {
    if case .record = type { return true }
    return false
  }

  static func isList(_ type: ValueType) -> Bool {
    if case .list = type { return true }
    return false
  }

  /// What to say when `a op b` does not apply.
  static func arithmeticHelp(_ op: ArithmeticOperator, _ a: ValueType, _ b: ValueType) -> String? {
    switch op {
    case .bitAnd where a == .bool || b == .bool: "for 'and' write 'and' or '&&'"
    case .bitOr where a == .bool || b == .bool: "for 'or' write 'or' or '||'"
    case _ where op.isBitwise: "'\(op.rawValue)' works on integers: write int(x) for a number"
    case _ where a == .string && b == .string: "only + joins text"
    default: nil
    }
  }

  /// The result type of `a op b`, or nil when the operator does not apply.
  static func arithmeticType(_ op: ArithmeticOperator, _ a: ValueType, _ b: ValueType) -> ValueType?
  {
    if op.isBitwise {
      // Integers alone, as SQLite's and PostgreSQL's bitwise operators.
      let integer: (ValueType) -> Bool = { $0 == .int || $0 == .null }
      guard integer(a), integer(b) else { return nil }
      return a == .null && b == .null ? .null : .int
    }
    if a == .null && b == .null { return .null }
    if a == .null { return arithmeticType(op, b, b) }
    if b == .null { return arithmeticType(op, a, a) }
    if a.isNumeric && b.isNumeric {
      // DuckDB's rules: integers stay integers, but divided by `/` give a double; a double
      // makes a double; decimals and integers are exact, but divided give a double.
      let divides = op == .divide || op == .integerDivide
      if a == .int && b == .int { return op.keepsIntegers ? .int : .double }
      return a == .double || b == .double || divides ? .double : .decimal
    }
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
    case (.add, .time, .duration), (.subtract, .time, .duration), (.add, .duration, .time):
      return .time
    case (.subtract, .time, .time): return .duration
    case (.add, .duration, .duration), (.subtract, .duration, .duration): return .duration
    case (.multiply, .duration, .int), (.multiply, .int, .duration), (.divide, .duration, .int),
      (.integerDivide, .duration, .int):
      return .duration
    default: return nil
    }
  }
}
