extension Expr {
  /// This node with each direct child replaced by `transform(child)`, in source order; the
  /// node's own kind, names and ranges are kept. Not recursive: a rewriting pass calls it
  /// from its own (depth-bounded) recursion.
  public func mappingChildren(_ transform: (Expr) throws -> Expr) rethrows -> Expr {
    var result = self
    switch kind {
    case .literal, .field, .parameter, .exists: return self
    case .list(let items): result.kind = .list(try items.map(transform))
    case .range(let a, let b, let kind):
      result.kind = .range(try transform(a), try transform(b), kind)
    case .call(let name, let arguments): result.kind = .call(name, try arguments.map(transform))
    case .negate(let a): result.kind = .negate(try transform(a))
    case .not(let a): result.kind = .not(try transform(a))
    case .arithmetic(let op, let a, let b):
      result.kind = .arithmetic(op, try transform(a), try transform(b))
    case .logical(let op, let operands): result.kind = .logical(op, try operands.map(transform))
    case .predicate(let subject, let condition):
      let subject = try transform(subject)
      result.kind = .predicate(subject, try condition.mappingOperands(transform))
    case .quantified(let quantifier, let subject, let condition):
      let subject = try transform(subject)
      result.kind = .quantified(quantifier, subject, try condition.mappingOperands(transform))
    case .filtered(let list, let filter):
      let list = try transform(list)
      result.kind = .filtered(list, try transform(filter))
    }
    return result
  }

  /// Moves this node (not its children) to `range`: its own range, its condition's operator
  /// and the names it holds. For nodes copied into another place, such as a named filter
  /// expanded where it is used, so that diagnostics point at the use.
  public mutating func relocate(to range: SourceRange) {
    self.range = range
    func moved(_ name: Name) -> Name { Name(name.text, range: range) }
    func moved(_ path: FieldPath) -> FieldPath { FieldPath(path.components.map(moved)) }
    switch kind {
    case .field(let path): kind = .field(moved(path))
    case .exists(let path): kind = .exists(moved(path))
    case .parameter(let name): kind = .parameter(moved(name))
    case .call(let name, let arguments): kind = .call(moved(name), arguments)
    case .predicate(let subject, var condition):
      condition.operatorRange = range
      kind = .predicate(subject, condition)
    case .quantified(let quantifier, let subject, var condition):
      condition.operatorRange = range
      kind = .quantified(quantifier, subject, condition)
    case .literal, .list, .range, .negate, .not, .arithmetic, .logical, .filtered: break
    }
  }
}

extension Condition {
  /// This condition with each operand replaced by `transform(operand)`, in source order.
  public func mappingOperands(_ transform: (Expr) throws -> Expr) rethrows -> Condition {
    var result = self
    switch kind {
    case .compare(let op, let operand, let options):
      result.kind = .compare(op, try transform(operand), options)
    case .text(let op, let operand, let options, let negated):
      result.kind = .text(op, try transform(operand), options, negated: negated)
    case .member(let operand, let options, let negated):
      result.kind = .member(try transform(operand), options, negated: negated)
    case .between(let low, let high, let options, let negated):
      let low = try transform(low)
      result.kind = .between(low, try transform(high), options, negated: negated)
    case .same(let operand, let negated):
      result.kind = .same(try transform(operand), negated: negated)
    case .satisfies(let filter):
      result.kind = .satisfies(try transform(filter))
    case .isNull, .isEmpty: break
    }
    return result
  }
}
