/// Arithmetic on dynamic values, following the checker's type rules; never traps.
enum ValueArithmetic {
  static func negate(_ value: Value) -> Result<Value, Fault> {
    switch value {
    case .int(let i): Arithmetic.negate(i).map { .int($0) }
    case .double(let d): .success(.double(-d))
    case .decimal(let d): .success(.decimal(d.negated))
    case .duration(let span):
      Arithmetic.negate(span.nanoseconds).map { .duration(TimeSpan(nanoseconds: $0)) }
    default: .success(.null)
    }
  }

  /// `a op b`, element by element when one side is a list (each fault is recorded, and its
  /// element is null); `+` of two lists joins them.
  static func broadcast(
    _ op: ArithmeticOperator, _ a: Value, _ b: Value, _ record: (Fault) -> Void
  ) -> Value {
    switch (a, b) {
    case (.list(let xs), .list(let ys)) where op == .add:
      return .list(xs + ys)
    case (.list(let items), let other) where !isList(other):
      return .list(items.map { apply(op, $0, other).settled(record) })
    case (let other, .list(let items)) where !isList(other):
      return .list(items.map { apply(op, other, $0).settled(record) })
    default:
      return apply(op, a, b).settled(record)
    }
  }

  /// `-a`, element by element for a list.
  static func broadcastNegate(_ a: Value, _ record: (Fault) -> Void) -> Value {
    if case .list(let items) = a { return .list(items.map { negate($0).settled(record) }) }
    return negate(a).settled(record)
  }

  private static func isList(_ value: Value) -> Bool {
    if case .list = value { return true }
    return false
  }

  static func apply(_ op: ArithmeticOperator, _ a: Value, _ b: Value) -> Result<Value, Fault> {
    if op.isBitwise {
      guard case .int(let x) = a, case .int(let y) = b else { return .success(.null) }
      return Arithmetic.int(op, x, y).map { .int($0) }
    }
    switch (a, b) {
    case (.int(let x), .int(let y)):
      // (`/` of integers is a double: `7 / 2` is 3.5.)
      guard op.keepsIntegers else {
        return Arithmetic.double(op, Double(x), Double(y)).map { .double($0) }
      }
      return Arithmetic.int(op, x, y).map { .int($0) }
    case (.int(let x), .double(let y)):
      return Arithmetic.double(op, Double(x), y).map { .double($0) }
    case (.double(let x), .int(let y)):
      return Arithmetic.double(op, x, Double(y)).map { .double($0) }
    case (.double(let x), .double(let y)): return Arithmetic.double(op, x, y).map { .double($0) }
    case (.decimal(let x), .decimal(let y)): return Arithmetic.decimal(op, x, y)
    case (.int(let x), .decimal(let y)): return Arithmetic.decimal(op, ExactDecimal(x), y)
    case (.decimal(let x), .int(let y)): return Arithmetic.decimal(op, x, ExactDecimal(y))
    case (.decimal(let x), .double(let y)):
      return Arithmetic.double(op, x.doubleValue, y).map { .double($0) }
    case (.double(let x), .decimal(let y)):
      return Arithmetic.double(op, x, y.doubleValue).map { .double($0) }
    case (.string(let x), .string(let y)) where op == .add: return .success(.string(x + y))
    case (.date(let d), .duration(let span)) where op == .add || op == .subtract:
      return TimeArithmetic.add(d, span, negate: op == .subtract)
    case (.duration(let span), .date(let d)) where op == .add:
      return TimeArithmetic.add(d, span, negate: false)
    case (.dateTime(let t), .duration(let span)) where op == .add || op == .subtract:
      return TimeArithmetic.add(t, span, negate: op == .subtract).map { .dateTime($0) }
    case (.duration(let span), .dateTime(let t)) where op == .add:
      return TimeArithmetic.add(t, span, negate: false).map { .dateTime($0) }
    case (.time(let t), .duration(let span)) where op == .add || op == .subtract:
      return .success(.time(TimeArithmetic.add(t, span, negate: op == .subtract)))
    case (.duration(let span), .time(let t)) where op == .add:
      return .success(.time(TimeArithmetic.add(t, span, negate: false)))
    case (.time(let x), .time(let y)) where op == .subtract:
      return .success(
        .duration(TimeSpan(nanoseconds: x.nanosecondsSinceMidnight - y.nanosecondsSinceMidnight)))
    case (.duration(let x), .duration(let y)) where op == .add || op == .subtract:
      return Arithmetic.int(op, x.nanoseconds, y.nanoseconds).map {
        .duration(TimeSpan(nanoseconds: $0))
      }
    case (.duration(let x), .int(let y))
    where op == .multiply || op == .divide || op == .integerDivide:
      return Arithmetic.int(op, x.nanoseconds, y).map { .duration(TimeSpan(nanoseconds: $0)) }
    case (.int(let x), .duration(let y)) where op == .multiply:
      return Arithmetic.int(op, x, y.nanoseconds).map { .duration(TimeSpan(nanoseconds: $0)) }
    case (.date, .date), (.date, .dateTime), (.dateTime, .date), (.dateTime, .dateTime):
      guard op == .subtract, let x = instant(a), let y = instant(b) else { return .success(.null) }
      return TimeArithmetic.difference(x, y).map { .duration($0) }
    default:
      return .success(.null)
    }
  }

  private static func instant(_ value: Value) -> Instant? {
    switch value {
    case .date(let d): TimeArithmetic.instant(of: d)
    case .dateTime(let t): t
    default: nil
    }
  }
}
