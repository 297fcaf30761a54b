/// `and`, `or` and `not` over selections: sorted position lists, merged, subtracted and
/// intersected in one pass each.
extension VectorCompiler {
  /// True where every child is; false where one is. A child sees the positions no child
  /// before it made false: those still true, and those unknown, since a later false makes
  /// them false (and the row engine evaluates the later child there, faults and all).
  ///
  /// `mayFault[i]` says whether child `i` may fault. Where only the true positions are
  /// wanted and no later child may fault, the unknown positions can be dropped at once.
  static func and(_ children: [Select], mayFault: [Bool]) -> Select {
    // faultsLater[i]: some child after i may fault.
    var faultsLater = [Bool](repeating: false, count: children.count)
    for index in children.indices.dropLast().reversed() {
      faultsLater[index] = faultsLater[index + 1] || mayFault[index + 1]
    }
    return { rows, selection, falses, wantFalses, run in
      // Positions unknown so far (a subset of `selection`, which holds those not false).
      var unknowns: [Int] = []
      var allFalses: [Int] = []
      for (index, child) in children.enumerated() {
        if selection.isEmpty { break }
        guard wantFalses || faultsLater[index] || !unknowns.isEmpty else {
          // Only what is true matters from here, and nothing later counts a fault.
          var none: [Int] = []
          child(rows, &selection, &none, false, &run)
          continue
        }
        let before = selection
        var childFalses: [Int] = []
        child(rows, &selection, &childFalses, true, &run)
        // Unknown now: neither true nor false in this child.
        let childUnknowns = subtracting(subtracting(before, selection), childFalses)
        unknowns = subtracting(union(unknowns, childUnknowns), childFalses)
        allFalses = union(allFalses, childFalses)
        // Go on with the positions not false: those true and those unknown.
        selection = union(selection, unknowns)
      }
      selection = subtracting(selection, unknowns)
      if wantFalses { falses += allFalses }
    }
  }

  /// True where one child is; false where every child is. Each child sees only the positions
  /// not true yet.
  static func or(_ children: [Select]) -> Select {
    { rows, selection, falses, wantFalses, run in
      var trues: [Int] = []
      var rest = selection
      var allFalses: [Int] = []
      for (index, child) in children.enumerated() {
        if rest.isEmpty { break }
        var childTrues = rest
        var childFalses: [Int] = []
        child(rows, &childTrues, &childFalses, wantFalses, &run)
        if !childTrues.isEmpty {
          trues = union(trues, childTrues)
          rest = subtracting(rest, childTrues)
        }
        if wantFalses {
          allFalses = index == 0 ? childFalses : intersection(allFalses, childFalses)
        }
      }
      selection = trues
      falses += allFalses
    }
  }

  /// True where the child is false, false where it is true.
  static func not(_ child: @escaping Select) -> Select {
    { rows, selection, falses, wantFalses, run in
      var childFalses: [Int] = []
      child(rows, &selection, &childFalses, true, &run)
      if wantFalses { falses += selection }
      selection = childFalses
    }
  }

  /// The positions in either sorted list, sorted.
  static func union(_ a: [Int], _ b: [Int]) -> [Int] {
    if a.isEmpty { return b }
    if b.isEmpty { return a }
    var result: [Int] = []
    result.reserveCapacity(a.count + b.count)
    var (i, j) = (0, 0)
    while i < a.count, j < b.count {
      if a[i] < b[j] {
        result.append(a[i])
        i += 1
      } else if b[j] < a[i] {
        result.append(b[j])
        j += 1
      } else {
        result.append(a[i])
        i += 1
        j += 1
      }
    }
    result += a[i...]
    result += b[j...]
    return result
  }

  /// The positions of sorted `a` not in sorted `b`.
  static func subtracting(_ a: [Int], _ b: [Int]) -> [Int] {
    var result: [Int] = []
    result.reserveCapacity(a.count)
    var j = 0
    for position in a {
      while j < b.count, b[j] < position { j += 1 }
      if j < b.count, b[j] == position { continue }
      result.append(position)
    }
    return result
  }

  /// The positions in both sorted lists.
  static func intersection(_ a: [Int], _ b: [Int]) -> [Int] {
    var result: [Int] = []
    var j = 0
    for position in a {
      while j < b.count, b[j] < position { j += 1 }
      if j < b.count, b[j] == position { result.append(position) }
    }
    return result
  }
}

extension BoundExpr {
  /// Whether evaluating this tree may fault: it does arithmetic or negation, or calls a
  /// function (a conversion, a date part), here or in a quantifier's filter.
  ///
  /// (A recursive property rather than a ``BoundVisitor``: a visitor with no stored
  /// properties is zero-sized, and ThreadSanitizer crashes on the `inout` access to it.)
  var mayFault: Bool {
    switch kind {
    case .call, .negate, .arithmetic:
      return true
    case .quantified(_, _, let condition):
      if case .satisfies(let filter, _) = condition.kind, filter.mayFault { return true }
    case .filtered:
      if filterMayFault { return true }
    default:
      break
    }
    return children.contains { $0.mayFault }
  }

  /// Whether the filter of a `list where filter` node may fault. (Out of line: ``mayFault``
  /// recurses.)
  @inline(never)
  private var filterMayFault: Bool {
    guard case .filtered(_, let filter, _) = kind else { return false }
    return filter.mayFault
  }
}
