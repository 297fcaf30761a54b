/// Batch forms of the typed strategies: a field compared with constants, run by the field's
/// own specialized loop (``FieldSelector``). A record is kept when the test is true; unknown,
/// like false, drops it.
extension Compiler {
  func select(
    _ condition: BoundCondition, _ operands: ConditionOperands, _ selector: FieldSelector<Root>
  ) -> Selector<Root>? {
    switch (condition.kind, selector) {
    case (.compare(let op, _, let options), .int(let loop)) where options.isEmpty:
      guard case .constant(.int(let k)) = operands.first else { return nil }
      let keep = op.test(against: k)
      return { records, selection, _ in loop(records, &selection, keep) }
    case (.compare(let op, _, let options), .double(let loop)) where options.isEmpty:
      let k: Double
      switch operands.first {
      case .constant(.double(let d)): k = d
      case .constant(.decimal(let d)): k = d.doubleValue
      case .constant(.int(let i)) where Double(exactly: i) != nil: k = Double(i)
      default: return nil
      }
      // (NaN, on either side, fails: unknown is dropped like false.)
      let keep = op.test(against: k)
      return { records, selection, _ in loop(records, &selection, keep) }
    case (.compare(let op, _, let options), .string(let loop)) where options.isEmpty:
      guard case .constant(.string(let k)) = operands.first else { return nil }
      let keep = op.test(against: k)
      return { records, selection, _ in loop(records, &selection, keep) }
    case (.member(let operandExpr, let options, let negated), _) where options.isEmpty:
      if case .range = operandExpr.kind { return nil }
      guard case .constant(.list(let elements)) = operands.first else { return nil }
      switch selector {
      case .string(let loop):
        let strings = elements.compactMap { element -> String? in
          if case .string(let s) = element { s } else { nil }
        }
        guard strings.count == elements.count else { return nil }
        if strings.count <= Compiler.linearScanLimit {
          return { records, selection, _ in
            loop(records, &selection) { strings.contains($0) != negated }
          }
        }
        let set = Set(strings)
        return { records, selection, _ in loop(records, &selection) { set.contains($0) != negated }
        }
      case .int(let loop):
        let ints = elements.compactMap { element -> Int64? in
          if case .int(let i) = element { i } else { nil }
        }
        guard ints.count == elements.count else { return nil }
        let set = Set(ints)
        return { records, selection, _ in loop(records, &selection) { set.contains($0) != negated }
        }
      case .double:
        return nil
      }
    default:
      return nil
    }
  }
}
