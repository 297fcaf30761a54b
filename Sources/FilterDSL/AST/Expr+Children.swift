extension Expr {
  /// This node with each direct child replaced by `transform(child)`, in source order; the
  /// node's own kind, names and ranges are kept. Not recursive: a rewriting pass calls it
  /// from its own (depth-bounded) recursion.
  public func mappingChildren(_ transform: (Expr) throws -> Expr) rethrows -> Expr {
    // Each kind of node is mapped out of line, so that this function, which rewriting passes
    // call once per level of their recursion, binds nothing of its own: in a debug build each
    // case's bindings and temporaries take room in the frame (over 3 KB when they were here).
    var result = self
    switch kind {
    case .literal, .field, .parameter, .exists: return self
    case .list, .call, .logical: result.kind = try mappingItems(transform)
    case .range, .arithmetic, .negate, .not, .filtered:
      result.kind = try mappingOperands(transform)
    case .predicate, .quantified: result.kind = try mappingTest(transform)
    }
    return result
  }

  /// The kind of a node of several items (a list, a call, `and`/`or`), its items mapped.
  @inline(never)
  private func mappingItems(_ transform: (Expr) throws -> Expr) rethrows -> Kind {
    switch kind {
    case .list(let items): return .list(try items.map(transform))
    case .call(let name, let arguments): return .call(name, try arguments.map(transform))
    case .logical(let op, let operands): return .logical(op, try operands.map(transform))
    default: return kind
    }
  }

  /// The kind of a node of one or two operands, mapped in order.
  @inline(never)
  private func mappingOperands(_ transform: (Expr) throws -> Expr) rethrows -> Kind {
    switch kind {
    case .range(let a, let b, let kind):
      let lower = try transform(a)
      return .range(lower, try transform(b), kind)
    case .arithmetic(let op, let a, let b):
      let left = try transform(a)
      return .arithmetic(op, left, try transform(b))
    case .negate(let a): return .negate(try transform(a))
    case .not(let a): return .not(try transform(a))
    case .filtered(let list, let filter):
      let mapped = try transform(list)
      return .filtered(mapped, try transform(filter))
    default: return kind
    }
  }

  /// The kind of a test (a predicate or a quantifier): its subject, then its condition's
  /// operands, mapped.
  @inline(never)
  private func mappingTest(_ transform: (Expr) throws -> Expr) rethrows -> Kind {
    switch kind {
    case .predicate(let subject, let condition):
      let subject = try transform(subject)
      return .predicate(subject, try condition.mappingOperands(transform))
    case .quantified(let quantifier, let subject, let condition):
      let subject = try transform(subject)
      return .quantified(quantifier, subject, try condition.mappingOperands(transform))
    default: return kind
    }
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
