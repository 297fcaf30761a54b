/// The cost of evaluating a bound filter on one record, estimated before running it (see
/// ``EvaluationLimits``): texts are taken to be ``EvaluationLimits/assumedTextBytes`` long
/// and lists to hold ``EvaluationLimits/assumedListCount`` elements, constant patterns and
/// lists are measured, and both sides of `and` and `or` are counted.
struct CostEstimate {
  let limits: EvaluationLimits
  /// The part that costs the most by itself, and its own cost.
  private(set) var costliest: (cost: Int, range: SourceRange)?

  init(_ limits: EvaluationLimits) { self.limits = limits }

  /// The estimated cost of `expr`.
  mutating func cost(_ expr: BoundExpr) -> Int {
    switch expr.kind {
    case .constant, .field, .parameter, .exists: return 0
    case .list(let items): return items.reduce(0) { Cost.sum($0, cost($1)) }
    case .range(let lower, let upper, _): return Cost.sum(cost(lower), cost(upper))
    case .call(_, let arguments):
      let own = Cost.sum(assumedSize(expr.type), 1)
      note(own, at: expr.range)
      return arguments.reduce(own) { Cost.sum($0, cost($1)) }
    case .negate(let operand), .not(let operand): return cost(operand)
    case .arithmetic(_, let left, let right): return Cost.sum(cost(left), cost(right))
    case .logical(_, let operands): return operands.reduce(0) { Cost.sum($0, cost($1)) }
    case .predicate(let subject, let condition):
      return Cost.sum(cost(subject), cost(condition, on: subject.type))
    case .quantified(_, let subject, let condition):
      var element = ValueType.null
      if case .list(let type) = subject.type { element = type }
      let each = Cost.sum(cost(condition, on: element), 1)
      let own = Cost.product(limits.assumedListCount, each)
      note(own, at: expr.range)
      return Cost.sum(cost(subject), own)
    case .filtered: return filteredCost(expr)
    }
  }

  /// The cost of `list where filter`: the filter on each of the assumed elements. (Out of line:
  /// ``cost(_:)`` recurses.)
  @inline(never)
  private mutating func filteredCost(_ expr: BoundExpr) -> Int {
    guard case .filtered(let list, let filter, _) = expr.kind else { return 0 }
    let own = Cost.product(limits.assumedListCount, Cost.sum(cost(filter), 1))
    note(own, at: expr.range)
    return Cost.sum(cost(list), own)
  }

  /// The estimated cost of `condition` on a value of type `subject`.
  private mutating func cost(_ condition: BoundCondition, on subject: ValueType) -> Int {
    var operands = condition.operands.reduce(0) { Cost.sum($0, cost($1)) }
    var own = 0
    switch condition.kind {
    case .compare(_, _, let options):
      if !options.isEmpty { own = Cost.sum(limits.assumedTextBytes, 1) }
    case .text(let op, let operand, let options, _):
      if op == .contains, subject.isList {
        own = Cost.sum(limits.assumedListCount, 1)
      } else {
        var patternBytes = limits.assumedTextBytes
        var patternSize = limits.assumedTextBytes
        if case .constant(.string(let pattern)) = operand.kind {
          patternBytes = pattern.utf8.count
          let folded = options.isEmpty ? pattern : TextFolding.foldPattern(pattern, options)
          patternSize = (try? RegexProgram(folded))?.size ?? 0
        }
        own = Cost.text(
          op, textBytes: limits.assumedTextBytes, patternBytes: patternBytes,
          patternSize: patternSize, folds: !options.isEmpty)
      }
    case .member(let operand, let options, _):
      var isRange = false
      if case .range = operand.kind { isRange = true }
      if !isRange, operand.constantValue == nil { own = Cost.sum(limits.assumedListCount, 1) }
      if !options.isEmpty { own = Cost.sum(own, limits.assumedTextBytes) }
    case .satisfies(let filter, _):
      operands = cost(filter)
    case .between, .isNull, .isEmpty, .same:
      break
    }
    note(own, at: condition.operatorRange)
    return Cost.sum(operands, own)
  }

  /// The size the cost model gives an unknown value of `type`.
  private func assumedSize(_ type: ValueType) -> Int {
    if type == .string { return limits.assumedTextBytes }
    if type.isList { return limits.assumedListCount }
    return 1
  }

  private mutating func note(_ cost: Int, at range: SourceRange) {
    if cost > (costliest?.cost ?? 0) { costliest = (cost, range) }
  }
}

extension EvaluationLimits {
  /// The error for a filter or query whose estimated cost per record is over
  /// ``maxCostPerRecord``, at its costliest part; nil when it is within.
  func check(_ query: BoundQuery) -> Diagnostic? {
    guard maxCostPerRecord < .max else { return nil }
    var estimate = CostEstimate(self)
    var total = query.filter.map { estimate.cost($0) } ?? 0
    for key in query.ordering { total = Cost.sum(total, estimate.cost(key.key)) }
    guard total > maxCostPerRecord, let costliest = estimate.costliest else { return nil }
    return .tooCostly(estimate: total, limits: self, at: costliest.range)
  }
}
