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

/// The test part of a bound predicate; see ``Condition/Kind`` for what each one means.
public struct BoundCondition: Sendable {
  /// What is tested.
  public var kind: Kind
  /// The operator as written.
  public var operatorRange: SourceRange

  /// A condition of `kind`; `operatorRange` is where its operator was written.
  public init(_ kind: Kind, operatorRange: SourceRange = .empty(at: 0)) {
    self.kind = kind
    self.operatorRange = operatorRange
  }

  /// The kinds of test; see ``Condition/Kind``.
  public indirect enum Kind: Sendable {
    case compare(ComparisonOperator, BoundExpr, StringOptions)
    case text(TextOperator, BoundExpr, StringOptions, negated: Bool)
    case member(BoundExpr, StringOptions, negated: Bool)
    case between(BoundExpr, BoundExpr, StringOptions, negated: Bool)
    case isNull(negated: Bool)
    case isEmpty(negated: Bool)
    case same(BoundExpr, negated: Bool)
    /// The filter each element (a record of `elements`) must satisfy; its fields are bound
    /// to the element's slots.
    case satisfies(BoundExpr, elements: Schema)
  }

  /// The operands after the subject, in order.
  public var operands: [BoundExpr] {
    switch kind {
    case .compare(_, let operand, _), .text(_, let operand, _, _), .member(let operand, _, _),
      .same(let operand, _):
      [operand]
    case .between(let lower, let upper, _, _): [lower, upper]
    case .isNull, .isEmpty, .satisfies: []
    }
  }
}

/// A checked query: its filter, sort keys, and page.
public struct BoundQuery: Sendable {
  /// The filter, or nil for every record.
  public var filter: BoundExpr?
  /// The sort keys, most significant first.
  public var ordering: [BoundSortKey]
  /// `limit n` and `offset n`: integers that read no field (constants and parameters), so
  /// they are known once parameters are bound.
  public var limit: BoundExpr?
  /// `offset n`, if given.
  public var offset: BoundExpr?

  /// A query of these parts.
  public init(
    filter: BoundExpr?, ordering: [BoundSortKey] = [], limit: BoundExpr? = nil,
    offset: BoundExpr? = nil
  ) {
    self.filter = filter
    self.ordering = ordering
    self.limit = limit
    self.offset = offset
  }
}

/// One bound key of `order by`.
public struct BoundSortKey: Sendable {
  /// What to sort by.
  public var key: BoundExpr
  /// Ascending or descending.
  public var direction: SortDirection
  /// Whether nulls come first: as written, else first ascending and last descending.
  public var nullsFirst: Bool

  /// A key sorting by `key` in `direction`, nulls first or last.
  public init(_ key: BoundExpr, _ direction: SortDirection, nullsFirst: Bool) {
    self.key = key
    self.direction = direction
    self.nullsFirst = nullsFirst
  }
}
