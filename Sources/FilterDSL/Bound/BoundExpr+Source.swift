extension BoundExpr: CustomStringConvertible {
  /// The tree written back as a source tree, folded constants as literals: what plans and
  /// messages print.
  public var source: Expr {
    let kind: Expr.Kind =
      switch self.kind {
      case .constant(let value): BoundExpr.source(of: value)
      case .field(let field): .field(field.path)
      case .parameter(let parameter): .parameter(Name(parameter.name))
      case .list(let items): .list(items.map(\.source))
      case .range(let lower, let upper, let kind): .range(lower.source, upper.source, kind)
      case .call(let function, let arguments):
        .call(Name(function.name), arguments.map(\.source))
      case .negate(let operand): .negate(operand.source)
      case .not(let operand): .not(operand.source)
      case .arithmetic(let op, let left, let right): .arithmetic(op, left.source, right.source)
      case .logical(let op, let operands): .logical(op, operands.map(\.source))
      case .predicate(let subject, let condition): .predicate(subject.source, condition.source)
      case .quantified(let quantifier, let subject, let condition):
        .quantified(quantifier, subject.source, condition.source)
      case .exists(let field): .exists(field.path)
      case .filtered: filteredSource
      }
    return Expr(kind, range: range)
  }

  /// The source kind of a `list where filter` node. (Out of line: ``source`` recurses.)
  @inline(never)
  private var filteredSource: Expr.Kind {
    guard case .filtered(let list, let filter, _) = kind else { return .literal(.null) }
    return .filtered(list.source, filter.source)
  }

  /// The canonical text of ``source``.
  public var description: String { source.description }

  private static func source(of value: Value) -> Expr.Kind {
    switch value {
    case .null: .literal(.null)
    case .bool(let b): .literal(.bool(b))
    case .int(let i): .literal(.int(i))
    case .double(let d): .literal(.double(d))
    case .decimal(let d): .literal(.decimal(d))
    case .string(let s): .literal(.string(s))
    case .date(let d): .literal(.date(d))
    case .dateTime(let t): .literal(.dateTime(t))
    case .time(let t): .literal(.time(t))
    case .duration(let span): .literal(.duration(span))
    case .list(let items): .list(items.map { Expr(source(of: $0)) })
    // No literal makes a record or an object; a constant one cannot occur.
    case .record, .object: .literal(.null)
    }
  }
}

extension BoundCondition {
  /// The condition written back as a source condition.
  public var source: Condition {
    let kind: Condition.Kind =
      switch self.kind {
      case .compare(let op, let operand, let options): .compare(op, operand.source, options)
      case .text(let op, let operand, let options, let negated):
        .text(op, operand.source, options, negated: negated)
      case .member(let operand, let options, let negated):
        .member(operand.source, options, negated: negated)
      case .between(let lower, let upper, let options, let negated):
        .between(lower.source, upper.source, options, negated: negated)
      case .isNull(let negated): .isNull(negated: negated)
      case .isEmpty(let negated): .isEmpty(negated: negated)
      case .same(let operand, let negated): .same(operand.source, negated: negated)
      case .satisfies(let filter, _): .satisfies(filter.source)
      }
    return Condition(kind, operatorRange: operatorRange)
  }
}

extension BoundQuery {
  /// The query written back as a source query.
  public var source: Query {
    Query(
      filter: filter?.source,
      ordering: ordering.map {
        SortKey($0.key.source, $0.direction, nulls: $0.nullsFirst ? .first : .last)
      },
      limit: limit?.source, offset: offset?.source)
  }
}
