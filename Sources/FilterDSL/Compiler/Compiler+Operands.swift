/// Values: fields, parameters, lists, calls and arithmetic, each compiled to a typed producer
/// where the types allow, and to a general value producer otherwise.
extension Compiler {
  func operand(_ expr: Expr) -> Operand<Root> {
    switch expr.kind {
    case .literal(let literal): return .constant(Value(literal))
    case .field(let path): return field(path)
    case .parameter(let name): return parameter(name.text)
    case .list(let items): return list(items.map(operand))
    case .range: return .constant(.null)  // only meaningful after `in`, which reads the bounds
    case .call(let name, let arguments): return call(name.text, arguments.map(operand))
    case .negate(let operand): return negate(self.operand(operand))
    case .arithmetic(let op, let left, let right):
      return arithmetic(op, operand(left), operand(right))
    case .not, .logical, .predicate, .quantified, .exists: return .bool(node(expr).test)
    }
  }

  private func field(_ path: FieldPath) -> Operand<Root> {
    guard let first = path.components.first,
      let (slot, field) = recordType.schema.field(named: first.text)
    else {
      return .constant(.null)
    }
    let reader = recordType.readers[slot]
    if path.components.count == 1 { return Compiler.operand(reader) }
    // A nested field: the slots are found now; each record walks them.
    var slots: [Int] = []
    var type = field.type
    for name in path.components.dropFirst() {
      guard case .record(let inner) = type,
        let (innerSlot, innerField) = inner.field(named: name.text)
      else {
        return .constant(.null)
      }
      slots.append(innerSlot)
      type = innerField.type
    }
    let base = Compiler.operand(reader).asValue
    let path = slots
    return .value { r, run in
      var value = base(r, &run)
      for slot in path {
        guard case .record(let values) = value, slot < values.count else { return .null }
        value = values[slot]
      }
      return value
    }
  }

  static func operand(_ reader: FieldReader<Root>) -> Operand<Root> {
    switch reader {
    case .int(let read): .int { r, _ in read(r) }
    case .double(let read): .double { r, _ in read(r) }
    case .string(let read): .string { r, _ in read(r) }
    case .bool(let read): .bool { r, _ in read(r).map(Truth.init) ?? .unknown }
    case .date(let read): .value { r, _ in read(r).map(Value.date) ?? .null }
    case .dateTime(let read): .value { r, _ in read(r).map(Value.dateTime) ?? .null }
    case .duration(let read): .value { r, _ in read(r).map(Value.duration) ?? .null }
    case .value(let read): .value { r, _ in read(r) }
    }
  }

  private func parameter(_ name: String) -> Operand<Root> {
    guard let (slot, type) = parameters[name] else { return .constant(.null) }
    switch type {
    case .int:
      return .int { _, run in
        if case .int(let i) = run.parameters[slot] { return i }
        return nil
      }
    case .string:
      return .string { _, run in
        if case .string(let s) = run.parameters[slot] { return s }
        return nil
      }
    default:
      return .value { _, run in run.parameters[slot] }
    }
  }

  private func list(_ items: [Operand<Root>]) -> Operand<Root> {
    let constants = items.compactMap(\.constant)
    if constants.count == items.count { return .constant(.list(constants)) }
    let producers = items.map(\.asValue)
    return .value { r, run in .list(producers.map { $0(r, &run) }) }
  }

  private func call(_ name: String, _ arguments: [Operand<Root>]) -> Operand<Root> {
    guard let function = functions.definition(named: name) else { return .constant(.null) }
    let producers = arguments.map(\.asValue)
    return .value { r, run in
      let context = run.context
      let result = function.call(producers.count, { producers[$0](r, &run) }, context)
      return run.apply(result)
    }
  }

  private func negate(_ operand: Operand<Root>) -> Operand<Root> {
    if let value = operand.constant, case .success(let folded) = ValueArithmetic.negate(value) {
      return .constant(folded)
    }
    switch operand {
    case .int(let f):
      return .int { r, run in
        guard let v = f(r, &run) else { return nil }
        return run.apply(Arithmetic.negate(v))
      }
    case .double(let f):
      return .double { r, run in f(r, &run).map { -$0 } }
    default:
      let value = operand.asValue
      return .value { r, run in run.apply(ValueArithmetic.negate(value(r, &run))) }
    }
  }

  private func arithmetic(_ op: ArithmeticOperator, _ a: Operand<Root>, _ b: Operand<Root>)
    -> Operand<Root>
  {
    if let x = a.constant, let y = b.constant,
      case .success(let folded) = ValueArithmetic.apply(op, x, y)
    {
      return .constant(folded)
    }
    if let fa = a.asInt, let fb = b.asInt {
      return .int { r, run in
        let x = fa(r, &run)
        let y = fb(r, &run)
        guard let x, let y else { return nil }
        return run.apply(Arithmetic.int(op, x, y))
      }
    }
    if let fa = a.asDouble, let fb = b.asDouble {
      return .double { r, run in
        let x = fa(r, &run)
        let y = fb(r, &run)
        guard let x, let y else { return nil }
        return run.apply(Arithmetic.double(op, x, y))
      }
    }
    let va = a.asValue
    let vb = b.asValue
    return .value { r, run in
      let x = va(r, &run)
      let y = vb(r, &run)
      return run.apply(ValueArithmetic.apply(op, x, y))
    }
  }
}

extension Run {
  /// The value of a result; a fault is counted and gives null.
  mutating func apply(_ result: Result<Value, Fault>) -> Value {
    switch result {
    case .success(let value): return value
    case .failure(let fault):
      faults.record(fault)
      return .null
    }
  }

  /// The number of a result; a fault is counted and gives nil.
  mutating func apply<T>(_ result: Result<T, Fault>) -> T? {
    switch result {
    case .success(let value): return value
    case .failure(let fault):
      faults.record(fault)
      return nil
    }
  }
}
