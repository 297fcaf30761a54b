/// What a compiled filter evaluates with: the parameters' values by slot, the clock, and the
/// limits on its work.
@usableFromInline final class Bindings: Sendable {
  let parameters: [Value]
  let context: EvaluationContext
  let limits: EvaluationLimits

  init(parameters: [Value], context: EvaluationContext, limits: EvaluationLimits = .default) {
    self.parameters = parameters
    self.context = context
    self.limits = limits
  }
}
