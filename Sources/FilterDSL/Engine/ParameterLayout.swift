/// Where each declared parameter lives at evaluation: a slot in ``Bindings/parameters``,
/// assigned once at compile time (sorted by name).
struct ParameterLayout: Sendable {
  let order: [String]
  let slots: [String: (slot: Int, type: ValueType)]

  init(_ parameters: [String: ValueType]) {
    order = parameters.keys.sorted()
    var slots: [String: (slot: Int, type: ValueType)] = [:]
    for (slot, name) in order.enumerated() {
      if let type = parameters[name] { slots[name] = (slot, type) }
    }
    self.slots = slots
  }

  /// The bindings for `context`, its parameters in slot order (unbound ones null), under
  /// `limits`.
  func bindings(_ context: EvaluationContext, limits: EvaluationLimits) -> Bindings {
    Bindings(
      parameters: order.map { context.parameters[$0] ?? .null }, context: context, limits: limits)
  }
}
