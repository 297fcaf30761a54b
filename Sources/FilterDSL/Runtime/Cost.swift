/// The cost model of ``EvaluationLimits``: what each operation whose work grows with the data
/// costs, in cost units. Saturating: a cost never wraps around.
enum Cost {
  /// `a * b`, or `Int.max` when it does not fit.
  static func product(_ a: Int, _ b: Int) -> Int {
    let (result, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? .max : result
  }

  /// `a + b`, or `Int.max` when it does not fit.
  static func sum(_ a: Int, _ b: Int) -> Int {
    let (result, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : result
  }

  /// A text operation on a text of `textBytes`, with a pattern of `patternBytes` (for
  /// `matches`, `patternSize` instructions once compiled), folding the text first when
  /// `folds`.
  static func text(
    _ op: TextOperator, textBytes: Int, patternBytes: Int, patternSize: Int, folds: Bool
  ) -> Int {
    let work =
      switch op {
      case .contains, .like: product(textBytes, 1 + patternBytes / 64)
      case .startsWith, .endsWith: patternBytes
      case .matches: product(sum(textBytes, 1), Swift.max(patternSize, 1))
      }
    return sum(folds ? sum(work, textBytes) : work, 1)
  }

  /// Folding `text` for `[c]` or `[d]`.
  static func fold(_ text: String) -> Int { sum(text.utf8.count, 1) }

  /// The size of a value, as the cost model counts it: bytes of a text, elements of a list
  /// (and of the lists and texts in it, one level down), 1 for anything else.
  static func size(_ value: Value) -> Int {
    switch value {
    case .string(let text): return text.utf8.count
    case .list(let elements): return elements.count
    default: return 1
    }
  }
}

extension EvaluationState {
  /// Counts `units` of work; false when the run is now over one of its limits (then
  /// ``FaultCounts/overLimit`` says which, and the caller skips the work, answering unknown).
  /// Work refused is not counted as spent.
  @inline(__always) mutating func charge(_ units: Int) -> Bool {
    let total = Cost.sum(spent, units)
    if total &- recordStart <= limits.maxCostPerRecord, total <= limits.maxCostPerQuery,
      faults.overLimit == nil
    {
      spent = total
      return true
    }
    if faults.overLimit == nil {
      faults.overLimit =
        total > limits.maxCostPerQuery
        ? .perQuery(limits.maxCostPerQuery) : .perRecord(limits.maxCostPerRecord)
    }
    return false
  }

  /// Starts the count of one record's cost.
  @inline(__always) mutating func beginRecord() { recordStart = spent }
}
