/// The state of one evaluation: its bindings, and the faults met. (Usable from inlinable
/// code: ``CompiledFilter/evaluate(_:)`` sets one up where the embedder's record type is
/// known.)
@usableFromInline struct EvaluationState {
  /// Not retained, which saves two atomic operations per record: a run lives only inside
  /// `CompiledFilter.evaluate`, whose filter holds the bindings for the whole call.
  @usableFromInline unowned(unsafe) let bindings: Bindings
  @usableFromInline var faults = FaultCounts()
  /// The column engine's memo of tests on coded columns, held by whoever made the state for
  /// a batch selection (``CompiledFilter``'s `forEachBatch`), not retained here: a state is
  /// then plain data, made and dropped with no call, as records evaluated one by one need.
  @usableFromInline unowned(unsafe) var memo: VectorMemo?
  /// Cost units spent by the run so far (see ``EvaluationLimits``), from the start of the
  /// query, not only of this state.
  @usableFromInline var spent = 0
  /// ``spent`` when the current record began.
  @usableFromInline var recordStart = 0

  /// A state for `bindings`, whose run has already spent `spent` cost units.
  @inlinable init(bindings: Bindings, spent: Int = 0) {
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

/// Truths of tests that read one coded column, evaluated once per distinct value (see
/// `VectorCompiler`), kept for the run: a reference held by one thread's state.
@usableFromInline final class VectorMemo {
  /// By memo slot, then by code: 0 when not evaluated yet, else 1 + the truth, flagged when
  /// it faulted.
  var truths: [[UInt8]] = []
  /// The faults of the entries flagged as faulting, by memo slot and code.
  var faults: [VectorCompiler.MemoKey: FaultCounts] = [:]
}
