/// A checked filter node: what ``Checker`` makes of an ``Expr``. Every name is resolved (a
/// field to its slots, a parameter to its slot, a function to its definition), every node has
/// its result type, and arithmetic on constants is folded. Back ends (the compiled engine,
/// facets, sorting, and an embedder's own) read this tree and never look a name up again.
///
/// The shape follows ``Expr`` case for case, so a back end is one exhaustive switch, or a
/// ``BoundVisitor``. Only trees the checker accepted exist: a bound tree has no errors in it.
public struct BoundExpr: Sendable {
  /// What the node is.
  public var kind: Kind
  /// The type of its value (`.bool` for tests; `.null` for the literal `null`).
  public var type: ValueType
  /// Where it was written.
  public var range: SourceRange

  /// A node of `kind` whose value has `type`, written at `range`.
  public init(_ kind: Kind, type: ValueType, range: SourceRange = .empty(at: 0)) {
    self.kind = kind
    self.type = type
    self.range = range
  }

  /// The kinds of node; see ``Expr/Kind`` for what each one means.
  public indirect enum Kind: Sendable {
    /// A constant: a literal, or arithmetic on constants folded.
    case constant(Value)
    /// A field of the record, resolved.
    case field(FieldRef)
    /// A parameter, resolved to its slot.
    case parameter(ParameterRef)
    /// A list of values.
    case list([BoundExpr])
    /// A range of values, as the operand of `in`.
    case range(BoundExpr, BoundExpr, RangeKind)
    /// A call of a resolved function.
    case call(FunctionRef, [BoundExpr])
    /// Unary minus (element by element on a list).
    case negate(BoundExpr)
    /// `not x`.
    case not(BoundExpr)
    /// `a + b`, ... (element by element when one side is a list).
    case arithmetic(ArithmeticOperator, BoundExpr, BoundExpr)
    /// `and` / `or` over two or more operands, in order.
    case logical(LogicalOperator, [BoundExpr])
    /// A test on a subject.
    case predicate(BoundExpr, BoundCondition)
    /// A test on the elements of a list.
    case quantified(Quantifier, BoundExpr, BoundCondition)
    /// `exists path`.
    case exists(FieldRef)
    /// `list where filter`: the records of the list for which the filter, bound to their
    /// fields (`elements`), is true.
    case filtered(BoundExpr, BoundExpr, elements: Schema)
  }

  /// The constant this node is, if it is one.
  public var constant: Value? {
    if case .constant(let value) = kind { return value }
    return nil
  }

  /// The value of a node made of constants only (a constant, or a list of them), which no
  /// record or parameter changes.
  public var constantValue: Value? {
    switch kind {
    case .constant(let value): return value
    case .list(let items):
      var values: [Value] = []
      for item in items {
        guard let value = item.constantValue else { return nil }
        values.append(value)
      }
      return .list(values)
    default: return nil
    }
  }
}

extension BoundExpr {
  /// The operands of this node's top-level `and` (nested `and`s flattened), in order; the
  /// node itself when it is not an `and`. Back ends split a filter here: facets into each
  /// field's own part, SQL into what runs in the database and what stays in flt.
  public var conjuncts: [BoundExpr] {
    var parts: [BoundExpr] = []
    var pending = [self]
    while let expr = pending.popLast() {
      if case .logical(.and, let operands) = expr.kind {
        pending.append(contentsOf: operands.reversed())
      } else {
        parts.append(expr)
      }
    }
    return parts
  }
}
