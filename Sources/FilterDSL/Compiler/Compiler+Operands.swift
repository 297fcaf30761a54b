/// Values: fields, parameters, lists, calls and arithmetic, each compiled to a typed producer
/// where the types allow, and to a general value producer otherwise.
extension Compiler {
  func operand(_ expr: BoundExpr) -> Operand<Root> {
    switch expr.kind {
    case .constant(let value): return .constant(value)
    case .field(let field): return self.field(field)
    case .parameter(let parameter): return self.parameter(parameter)
    case .list(let items): return list(items.map(operand))
    case .range: return .constant(.null)  // only meaningful after `in`, which reads the bounds
    case .call(let function, let arguments):
      return call(function.definition, arguments.map(operand))
    case .negate(let operand): return negate(self.operand(operand))
    case .arithmetic(let op, let left, let right):
      return arithmetic(op, operand(left), operand(right))
    case .not, .logical, .predicate, .quantified, .exists: return .bool(node(expr).test)
    case .filtered: return filtered(expr)
    }
  }

  /// `list where filter`: the records of the list for which `filter` (on their fields) is
  /// true; each record tested costs one unit, as a quantifier's element does. (Out of line:
  /// `operand` is on the recursive path.)
  @inline(never)
  private func filtered(_ expr: BoundExpr) -> Operand<Root> {
    guard case .filtered(let listExpr, let filter, let elements) = expr.kind else {
      return .constant(.null)
    }
    let list = operand(listExpr).asValue
    let test = Compiler<[Value]>(recordType: RecordType.dynamic(elements)).node(filter).test
    return .value { r, run in
      guard case .list(let items) = list(r, &run) else { return .null }
      var kept: [Value] = []
      for item in items {
        guard run.charge(1) else { return .null }
        if case .record(let values) = item, test(values, &run) == .true { kept.append(item) }
      }
      return .list(kept)
    }
  }

  /// Reads a resolved field: the top-level field's reader, then (for a nested field) the
  /// slots of the rest of the path in each record.
  func field(_ field: FieldRef) -> Operand<Root> {
    let operand: Operand<Root> =
      switch recordType.operands[field.slot] {
      case .int(let read): .int(read)
      case .double(let read): .double(read)
      case .string(let read): .string(read)
      case .general(let reader): Compiler.operand(reader)
      }
    if field.steps.count == 1 { return operand }
    let base = operand.asValue
    let path = field.steps.dropFirst()
    return .value { r, run in Compiler.walk(base(r, &run), path) }
  }

  static func walk(_ value: Value, _ steps: ArraySlice<PathStep>) -> Value {
    guard let step = steps.first else { return value }
    let rest = steps.dropFirst()
    guard step.throughList else { return walk(value, slot: step.slot, rest) }
    guard case .list(let items) = value else { return .null }
    var results: [Value] = []
    for item in items {
      let result = walk(item, slot: step.slot, rest)
      if case .list(let nested) = result { results += nested } else { results.append(result) }
    }
    return .list(results)
  }

  private static func walk(_ value: Value, slot: Int, _ rest: ArraySlice<PathStep>) -> Value {
    guard case .record(let values) = value, slot < values.count else { return .null }
    return walk(values[slot], rest)
  }

  static func operand(_ reader: FieldReader<Root>) -> Operand<Root> {
    switch reader {
    case .int(let read): .int { r, _ in read(r) }
    case .double(let read): .double { r, _ in read(r) }
    case .string(let read): .string { r, _ in read(r) }
    case .bool(let read): .bool { r, _ in read(r).map(Truth.init) ?? .unknown }
    case .date(let read): .value { r, _ in read(r).map(Value.date) ?? .null }
    case .dateTime(let read): .value { r, _ in read(r).map(Value.dateTime) ?? .null }
    case .time(let read): .value { r, _ in read(r).map(Value.time) ?? .null }
    case .duration(let read): .value { r, _ in read(r).map(Value.duration) ?? .null }
    case .value(let read): .value { r, _ in read(r) }
    }
  }

  private func parameter(_ parameter: ParameterRef) -> Operand<Root> {
    let slot = parameter.slot
    switch parameter.type {
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
    let constants = items.compactMap { $0.constant }
    if constants.count == items.count { return .constant(.list(constants)) }
    let producers = items.map { $0.asValue }
    return .value { r, run in .list(producers.map { $0(r, &run) }) }
  }

  private func call(_ function: FunctionDefinition, _ arguments: [Operand<Root>]) -> Operand<Root> {
    let producers = arguments.map { $0.asValue }
    return .value { r, run in
      let context = run.context
      var faults = FaultCounts()
      let value = function.call(
        producers.count, { producers[$0](r, &run) }, context, { faults.record($0) })
      run.faults.merge(faults)
      return run.charge(Cost.sum(Cost.size(value), 1)) ? value : .null
    }
  }

  private func negate(_ operand: Operand<Root>) -> Operand<Root> {
    if let value = operand.constant {
      var faulted = false
      let folded = ValueArithmetic.broadcastNegate(value) { _ in faulted = true }
      if !faulted { return .constant(folded) }
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
      return .value { r, run in
        let v = value(r, &run)
        return ValueArithmetic.broadcastNegate(v) { run.faults.record($0) }
      }
    }
  }

  private func arithmetic(_ op: ArithmeticOperator, _ a: Operand<Root>, _ b: Operand<Root>)
    -> Operand<Root>
  {
    if let x = a.constant, let y = b.constant {
      var faulted = false
      let folded = ValueArithmetic.broadcast(op, x, y) { _ in faulted = true }
      if !faulted { return .constant(folded) }
    }
    if op.keepsIntegers, let fa = a.asInt, let fb = b.asInt {
      return .int { r, run in
        let x = fa(r, &run)
        let y = fb(r, &run)
        guard let x, let y else { return nil }
        return run.apply(Arithmetic.int(op, x, y))
      }
    }
    if !op.isBitwise, let fa = a.asDouble, let fb = b.asDouble {
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
      return ValueArithmetic.broadcast(op, x, y) { run.faults.record($0) }
    }
  }
}

extension EvaluationState {
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
