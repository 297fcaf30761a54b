/// An operation over bound trees, added from outside the tree types: a back end, an analysis,
/// a translation. Each visitor chooses its ``Result`` type.
///
/// ``BoundExpr/accept(_:)`` holds the one exhaustive switch over the node kinds and calls the
/// method for the node's kind. Every method has a default: visit the node's ``BoundExpr/children``
/// in order, then ``combine(_:_:)`` their results. So a visitor implements only the kinds it
/// cares about; one that collects the fields a filter reads implements `visitField` and
/// `visitExists`, and `combine` (which has a default when `Result` is `Void`).
///
/// The filter of `any list (filter)` is in another scope (its fields are the elements'); the
/// default traversal does not enter it. A visitor that wants it handles
/// ``visitQuantified(_:_:_:in:)`` and reads ``BoundCondition/Kind/satisfies(_:elements:)``.
public protocol BoundVisitor {
  /// What visiting a node gives: a translated node, a count, or `Void` for a visitor that
  /// only collects.
  associatedtype Result

  /// The result of a node from its children's results, in order: the default traversal.
  mutating func combine(_ node: BoundExpr, _ children: [Result]) -> Result

  mutating func visitConstant(_ value: Value, in node: BoundExpr) -> Result
  mutating func visitField(_ field: FieldRef, in node: BoundExpr) -> Result
  mutating func visitParameter(_ parameter: ParameterRef, in node: BoundExpr) -> Result
  mutating func visitList(_ items: [BoundExpr], in node: BoundExpr) -> Result
  mutating func visitRange(
    _ lower: BoundExpr, _ upper: BoundExpr, _ kind: RangeKind, in node: BoundExpr
  ) -> Result
  mutating func visitCall(_ function: FunctionRef, _ arguments: [BoundExpr], in node: BoundExpr)
    -> Result
  mutating func visitNegate(_ operand: BoundExpr, in node: BoundExpr) -> Result
  mutating func visitNot(_ operand: BoundExpr, in node: BoundExpr) -> Result
  mutating func visitArithmetic(
    _ op: ArithmeticOperator, _ left: BoundExpr, _ right: BoundExpr, in node: BoundExpr
  ) -> Result
  mutating func visitLogical(_ op: LogicalOperator, _ operands: [BoundExpr], in node: BoundExpr)
    -> Result
  mutating func visitPredicate(
    _ subject: BoundExpr, _ condition: BoundCondition, in node: BoundExpr
  ) -> Result
  mutating func visitQuantified(
    _ quantifier: Quantifier, _ subject: BoundExpr, _ condition: BoundCondition,
    in node: BoundExpr
  ) -> Result
  mutating func visitExists(_ field: FieldRef, in node: BoundExpr) -> Result
  /// `list where filter` (the filter is in the elements' scope).
  mutating func visitFiltered(
    _ list: BoundExpr, _ filter: BoundExpr, elements: Schema, in node: BoundExpr
  ) -> Result
}

extension BoundExpr {
  /// Calls the method of `visitor` for this node's kind.
  public func accept<V: BoundVisitor>(_ visitor: inout V) -> V.Result {
    switch kind {
    case .constant(let value): visitor.visitConstant(value, in: self)
    case .field(let field): visitor.visitField(field, in: self)
    case .parameter(let parameter): visitor.visitParameter(parameter, in: self)
    case .list(let items): visitor.visitList(items, in: self)
    case .range(let lower, let upper, let kind): visitor.visitRange(lower, upper, kind, in: self)
    case .call(let function, let arguments): visitor.visitCall(function, arguments, in: self)
    case .negate(let operand): visitor.visitNegate(operand, in: self)
    case .not(let operand): visitor.visitNot(operand, in: self)
    case .arithmetic(let op, let left, let right):
      visitor.visitArithmetic(op, left, right, in: self)
    case .logical(let op, let operands): visitor.visitLogical(op, operands, in: self)
    case .predicate(let subject, let condition):
      visitor.visitPredicate(subject, condition, in: self)
    case .quantified(let quantifier, let subject, let condition):
      visitor.visitQuantified(quantifier, subject, condition, in: self)
    case .exists(let field): visitor.visitExists(field, in: self)
    case .filtered: acceptFiltered(&visitor)
    }
  }

  /// ``accept(_:)`` of a `list where filter` node. (Out of line: visitors recurse through
  /// `accept`, and each case's bindings take room in its frame.)
  @inline(never)
  private func acceptFiltered<V: BoundVisitor>(_ visitor: inout V) -> V.Result {
    guard case .filtered(let list, let filter, let elements) = kind else {
      return visitor.combine(self, [])
    }
    return visitor.visitFiltered(list, filter, elements: elements, in: self)
  }

  /// The nodes under this one, in evaluation order: a test's subject, then its operands. (Not
  /// the filter of `any list (filter)`, which is in the elements' scope.)
  public var children: [BoundExpr] {
    switch kind {
    case .constant, .field, .parameter, .exists: []
    case .list(let items), .call(_, let items), .logical(_, let items): items
    case .range(let a, let b, _), .arithmetic(_, let a, let b): [a, b]
    case .negate(let a), .not(let a): [a]
    case .predicate(let subject, let condition), .quantified(_, let subject, let condition):
      [subject] + condition.operands
    case .filtered: filteredList
    }
  }

  /// The list of a `list where filter` node, as its one child. (Out of line, as above.)
  @inline(never)
  private var filteredList: [BoundExpr] {
    guard case .filtered(let list, _, _) = kind else { return [] }
    return [list]
  }
}

extension BoundVisitor {
  /// Visits `node`'s children, then combines their results.
  public mutating func traverse(_ node: BoundExpr) -> Result {
    var results: [Result] = []
    for child in node.children { results.append(child.accept(&self)) }
    return combine(node, results)
  }

  /// A constant; by default, ``combine(_:_:)`` with no children.
  public mutating func visitConstant(_ value: Value, in node: BoundExpr) -> Result {
    traverse(node)
  }
  /// A field; by default, ``combine(_:_:)`` with no children.
  public mutating func visitField(_ field: FieldRef, in node: BoundExpr) -> Result {
    traverse(node)
  }
  /// A parameter; by default, ``combine(_:_:)`` with no children.
  public mutating func visitParameter(_ parameter: ParameterRef, in node: BoundExpr) -> Result {
    traverse(node)
  }
  /// A list; by default, its items visited, then combined.
  public mutating func visitList(_ items: [BoundExpr], in node: BoundExpr) -> Result {
    traverse(node)
  }
  /// A range; by default, its bounds visited, then combined.
  public mutating func visitRange(
    _ lower: BoundExpr, _ upper: BoundExpr, _ kind: RangeKind, in node: BoundExpr
  ) -> Result {
    traverse(node)
  }
  /// A call; by default, its arguments visited, then combined.
  public mutating func visitCall(
    _ function: FunctionRef, _ arguments: [BoundExpr], in node: BoundExpr
  ) -> Result {
    traverse(node)
  }
  /// Unary minus; by default, its operand visited, then combined.
  public mutating func visitNegate(_ operand: BoundExpr, in node: BoundExpr) -> Result {
    traverse(node)
  }
  /// `not`; by default, its operand visited, then combined.
  public mutating func visitNot(_ operand: BoundExpr, in node: BoundExpr) -> Result {
    traverse(node)
  }
  /// Arithmetic; by default, both sides visited, then combined.
  public mutating func visitArithmetic(
    _ op: ArithmeticOperator, _ left: BoundExpr, _ right: BoundExpr, in node: BoundExpr
  ) -> Result {
    traverse(node)
  }
  /// `and` / `or`; by default, the operands visited, then combined.
  public mutating func visitLogical(
    _ op: LogicalOperator, _ operands: [BoundExpr], in node: BoundExpr
  ) -> Result {
    traverse(node)
  }
  /// A test; by default, the subject and the condition's operands visited, then combined.
  public mutating func visitPredicate(
    _ subject: BoundExpr, _ condition: BoundCondition, in node: BoundExpr
  ) -> Result {
    traverse(node)
  }
  /// A quantifier; by default, the list and the condition's operands visited (not a scoped filter),
  /// then combined.
  public mutating func visitQuantified(
    _ quantifier: Quantifier, _ subject: BoundExpr, _ condition: BoundCondition,
    in node: BoundExpr
  ) -> Result {
    traverse(node)
  }
  /// `exists`; by default, ``combine(_:_:)`` with no children.
  public mutating func visitExists(_ field: FieldRef, in node: BoundExpr) -> Result {
    traverse(node)
  }
  /// `list where filter`; by default, the list visited (not the filter, in the elements'
  /// scope), then combined.
  public mutating func visitFiltered(
    _ list: BoundExpr, _ filter: BoundExpr, elements: Schema, in node: BoundExpr
  ) -> Result {
    traverse(node)
  }
}

extension BoundVisitor where Result == Void {
  /// Nothing to combine for a visitor that only looks.
  public mutating func combine(_ node: BoundExpr, _ children: [Void]) {}
}

extension BoundExpr {
  /// The fields this expression reads (in its own scope), in order of first use, each once.
  public var fields: [FieldRef] {
    var collector = FieldCollector()
    accept(&collector)
    return collector.fields
  }
}

/// Collects the fields a bound tree reads: a visitor that handles two kinds.
private struct FieldCollector: BoundVisitor {
  var fields: [FieldRef] = []
  var seen: Set<FieldRef> = []

  mutating func visitField(_ field: FieldRef, in node: BoundExpr) {
    if seen.insert(field).inserted { fields.append(field) }
  }

  mutating func visitExists(_ field: FieldRef, in node: BoundExpr) {
    visitField(field, in: node)
  }
}
