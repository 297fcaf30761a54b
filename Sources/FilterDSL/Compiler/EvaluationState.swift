/// The state of one evaluation: its bindings, and the faults met.
struct EvaluationState {
  /// Not retained, which saves two atomic operations per record: a run lives only inside
  /// `CompiledFilter.evaluate`, whose filter holds the bindings for the whole call.
  unowned(unsafe) let bindings: Bindings
  var faults = FaultCounts()
  /// Truths of tests that read one coded column, evaluated once per distinct value (see
  /// `VectorCompiler`),
  /// by memo slot, then by code: 0 when not evaluated yet, else ``VectorCompiler/memo(_:)``.
  var memos: [[UInt8]] = []
  /// The faults of the memo entries flagged as faulting, by memo slot and code.
  var memoFaults: [VectorCompiler.MemoKey: FaultCounts] = [:]
  /// Cost units spent by the run so far (see ``EvaluationLimits``), from the start of the
  /// query, not only of this state.
  var spent = 0
  /// ``spent`` when the current record began.
  var recordStart = 0

  /// A state for `bindings`, whose run has already spent `spent` cost units.
  init(bindings: Bindings, spent: Int = 0) {
    self.bindings = bindings
    self.spent = spent
    self.recordStart = spent
  }

  /// The faults met, and the cost spent since the state began at `start` units.
  func outcome(since start: Int) -> FaultCounts {
    var outcome = faults
    outcome.cost = Cost.sum(outcome.cost, spent &- start)
    return outcome
  }

  var parameters: [Value] { bindings.parameters }
  var context: EvaluationContext { bindings.context }
  var limits: EvaluationLimits { bindings.limits }
}
