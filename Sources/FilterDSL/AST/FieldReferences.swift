extension Expr {
  /// The names of the top-level fields this expression reads, in order of first use: what a
  /// data reader must decode for it.
  public var fieldNames: [String] {
    var names: [String] = []
    var seen: Set<String> = []
    for path in fieldPaths {
      if let first = path.components.first?.text, seen.insert(first).inserted {
        names.append(first)
      }
    }
    return names
  }

  /// The field paths this expression reads (`camera.megapixels`, `exists tags`), in order of
  /// first use, each once. Walks the tree with a stack of its own, so any depth is safe.
  public var fieldPaths: [FieldPath] {
    var paths: [FieldPath] = []
    var seen: Set<FieldPath> = []
    var pending: [Expr] = [self]
    while let expr = pending.popLast() {
      switch expr.kind {
      case .literal, .parameter: break
      case .field(let path), .exists(let path):
        if seen.insert(path).inserted { paths.append(path) }
      case .list(let items), .call(_, let items), .logical(_, let items):
        pending.append(contentsOf: items.reversed())
      case .range(let a, let b, _), .arithmetic(_, let a, let b):
        pending.append(b)
        pending.append(a)
      case .negate(let a), .not(let a): pending.append(a)
      // The names of the filter are the elements' fields, not the record's.
      case .filtered(let list, _): pending.append(list)
      case .predicate(let subject, let condition), .quantified(_, let subject, let condition):
        switch condition.kind {
        case .compare(_, let operand, _), .text(_, let operand, _, _), .member(let operand, _, _),
          .same(let operand, _):
          pending.append(operand)
        case .between(let low, let high, _, _):
          pending.append(high)
          pending.append(low)
        // The names inside are the element's fields, not the record's.
        case .isNull, .isEmpty, .satisfies: break
        }
        pending.append(subject)
      }
    }
    return paths
  }
}

extension Query {
  /// The names of the top-level fields the filter, the sort keys, `limit` and `offset` read.
  public var fieldNames: [String] {
    let exprs = [filter, limit, offset].compactMap { $0 } + ordering.map(\.key)
    var names: [String] = []
    for name in exprs.flatMap(\.fieldNames) where !names.contains(name) { names.append(name) }
    return names
  }
}
