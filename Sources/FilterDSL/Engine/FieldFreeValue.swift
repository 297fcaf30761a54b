extension BoundExpr {
  /// The value of this expression when it reads no field (`today() - 30d`, `lower($color)`,
  /// `1000 * 1.1`), computed once as the compiled engine computes it for every record, with
  /// `parameters` (by name) and the clock at `now`; and the faults met. Nil when it reads a
  /// field, or calls `now()` or `today()` and `now` is nil. A back end may put the value in
  /// the expression's place.
  package func fieldFreeValue(_ parameters: [String: Value], now: Instant?)
    -> (value: Value, faults: FaultCounts)?
  {
    guard fields.isEmpty else { return nil }
    var collector = ParameterCollector()
    accept(&collector)
    if collector.readsClock && now == nil { return nil }
    let context = EvaluationContext(now: now ?? Instant(seconds: 0), parameters: parameters)
    let count = (collector.parameters.map(\.slot).max() ?? -1) + 1
    var slots = [Value](repeating: .null, count: count)
    for parameter in collector.parameters {
      slots[parameter.slot] = parameters[parameter.name] ?? .null
    }
    let bindings = Bindings(parameters: slots, context: context)
    let value = Compiler<[Value]>(recordType: .dynamic(Schema([]))).operand(self).asValue
    return withExtendedLifetime(bindings) {
      var state = EvaluationState(bindings: bindings)
      let result = value([], &state)
      return (result, state.faults)
    }
  }
}

/// Collects the parameters a bound tree reads, and whether it reads the clock.
private struct ParameterCollector: BoundVisitor {
  var parameters: [ParameterRef] = []
  var readsClock = false

  mutating func visitParameter(_ parameter: ParameterRef, in node: BoundExpr) {
    parameters.append(parameter)
  }

  mutating func visitCall(_ function: FunctionRef, _ arguments: [BoundExpr], in node: BoundExpr) {
    // An embedder's function sees the clock too (through its context).
    if ["now", "today"].contains(function.name) || !function.definition.isBuiltin {
      readsClock = true
    }
    traverse(node)
  }
}
