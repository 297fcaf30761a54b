/// Keeps the indices of a selection (ascending positions in the records) whose records pass a
/// test; the state holds the parameters, and gathers faults.
typealias Selector<Root> = ([Root], inout [Int], inout EvaluationState) -> Void

/// What narrows a selection before a filter (a sorted query's bound by its first key, see
/// `ColumnTable.sortBound`): `select` keeps the records that may still be wanted; `rulesOut`
/// says of a range of positions into the records that none of them is, without reading them
/// (nil when it cannot tell). Unchecked `Sendable`: its closures capture immutable values.
struct Narrowing<Root>: @unchecked Sendable {
  let select: Selector<Root>
  let rulesOut: ((_ records: [Root], _ positions: Range<Int>) -> Bool)?
}

/// A compiled test: its closure and its description.
struct CompiledTest<Root> {
  let test: (Root, inout EvaluationState) -> Truth
  let plan: Plan
  /// For tests of a field against constants (which cannot fault): narrows a selection of
  /// record indices to those for which the test is true, in one loop over the batch that the
  /// field's declaration specialized. Nil for everything else.
  var select: Selector<Root>? = nil

  init(
    test: @escaping (Root, inout EvaluationState) -> Truth, plan: Plan,
    select: Selector<Root>? = nil
  ) {
    self.test = test
    self.plan = plan
    self.select = select
  }
}
