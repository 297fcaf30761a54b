/// The state of one evaluation: its bindings, and the faults met.
struct EvaluationState {
  /// Not retained, which saves two atomic operations per record: a run lives only inside
  /// `CompiledFilter.evaluate`, whose filter holds the bindings for the whole call.
  unowned(unsafe) let bindings: Bindings
  var faults = FaultCounts()

  init(bindings: Bindings) { self.bindings = bindings }

  var parameters: [Value] { bindings.parameters }
  var context: EvaluationContext { bindings.context }
}
