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

  init(bindings: Bindings) { self.bindings = bindings }

  var parameters: [Value] { bindings.parameters }
  var context: EvaluationContext { bindings.context }
}
