/// What a compiled filter evaluates with: the parameters' values by slot, and the clock.
final class Bindings: Sendable {
  let parameters: [Value]
  let context: EvaluationContext

  init(parameters: [Value], context: EvaluationContext) {
    self.parameters = parameters
    self.context = context
  }
}
