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
    /// `== != < <= > >=` with the other operand, and the modifiers.
    case compare(ComparisonOperator, BoundExpr, StringOptions)
    /// `contains`, `startsWith`, `endsWith`, `like`, `matches` (`not` before them negates).
    case text(TextOperator, BoundExpr, StringOptions, negated: Bool)
    /// `in` (or `not in`) a list or range.
    case member(BoundExpr, StringOptions, negated: Bool)
    /// `between` (or `not between`) two bounds, both included.
    case between(BoundExpr, BoundExpr, StringOptions, negated: Bool)
    /// `is null` (or `is not null`).
    case isNull(negated: Bool)
    /// `is empty` (or `is not empty`): empty text or an empty list.
    case isEmpty(negated: Bool)
    /// `is` (or `is not`) a value: equality that treats two nulls as the same.
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
