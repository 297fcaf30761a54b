/// Conditions: the typed strategies for the common shapes (a field against constants), and
/// the general form for everything else, which is the reference semantics on values.
extension Compiler {
  /// A condition applied to an element value, for quantifiers, and the general form of every
  /// condition.
  struct ElementTest {
    let test: (Value, Root, inout EvaluationState) -> Truth
    let plan: Plan
  }

  /// A condition's operands, each compiled once: the typed strategies and the general form
  /// take them from here. (Compiling an operand twice would make nested conditions take
  /// exponential time.)
  struct ConditionOperands {
    var first: Operand<Root> = .constant(.null)
    var second: Operand<Root> = .constant(.null)
  }

  func operands(of condition: BoundCondition) -> ConditionOperands {
    switch condition.kind {
    case .compare(_, let operand, _), .text(_, let operand, _, _), .same(let operand, _):
      return ConditionOperands(first: self.operand(operand))
    case .member(let operand, _, _):
      if case .range(let lower, let upper, _) = operand.kind {
        return ConditionOperands(first: self.operand(lower), second: self.operand(upper))
      }
      return ConditionOperands(first: self.operand(operand))
    case .between(let lower, let upper, _, _):
      return ConditionOperands(first: operand(lower), second: operand(upper))
    case .isNull, .isEmpty, .satisfies:
      return ConditionOperands()
    }
  }

  func condition(
    _ condition: BoundCondition, subject: Operand<Root>, subjectText: String,
    selector: FieldSelector<Root>? = nil
  ) -> CompiledTest<Root> {
    let operands = operands(of: condition)
    if var fast = typedCondition(condition, operands, subject, subjectText) {
      if let selector { fast.select = self.select(condition, operands, selector) }
      return fast
    }
    let element = valueCondition(condition, operands, subjectText: subjectText)
    let value = subject.asValue
    let test = element.test
    return CompiledTest(test: { r, run in test(value(r, &run), r, &run) }, plan: element.plan)
  }

  func isNull(_ subject: Operand<Root>, negated: Bool, plan: Plan) -> CompiledTest<Root> {
    let test: (Root, inout EvaluationState) -> Truth
    switch subject {
    case .int(let f): test = { r, run in Truth((f(r, &run) == nil) != negated) }
    case .double(let f): test = { r, run in Truth((f(r, &run) == nil) != negated) }
    case .string(let f): test = { r, run in Truth((f(r, &run) == nil) != negated) }
    case .bool(let f): test = { r, run in Truth((f(r, &run) == .unknown) != negated) }
    default:
      let value = subject.asValue
      test = { r, run in Truth(value(r, &run).isNull != negated) }
    }
    return CompiledTest(test: test, plan: plan)
  }

  // MARK: General form

  func valueCondition(
    _ condition: BoundCondition, _ operands: ConditionOperands, subjectText: String = "_"
  )
    -> ElementTest
  {
    switch condition.kind {
    case .isNull(let negated):
      return ElementTest(
        test: { v, _, _ in Truth(v.isNull != negated) },
        plan: Plan(negated ? "IsNotNull" : "IsNull", [.text(subjectText)]))
    case .satisfies:
      // Compiled by the quantifier, which knows the elements' fields; elsewhere unknown.
      return ElementTest(test: { _, _, _ in .unknown }, plan: Plan("Where", []))
    case .isEmpty(let negated):
      return ElementTest(
        test: { v, _, _ in ValueComparison.isEmpty(v, negated: negated) },
        plan: Plan(negated ? "IsNotEmpty" : "IsEmpty", [.text(subjectText)]))
    case .same(let operandExpr, let negated):
      let operand = operands.first.asValue
      return ElementTest(
        test: { v, r, run in ValueComparison.same(v, operand(r, &run), negated: negated) },
        plan: Plan(
          negated ? "IsNot" : "Is", [.text(subjectText), .text(Compiler.text(operandExpr))]))
    case .compare(let op, let operandExpr, let options):
      let operand = operands.first.asValue
      return ElementTest(
        test: { v, r, run in
          let other = operand(r, &run)
          guard options.isEmpty || run.charge(Cost.size(v)) else { return .unknown }
          return ValueComparison.compare(op, v, other, options)
        },
        plan: Plan(
          Compiler.name(op) + options.spelling,
          [.text(subjectText), .text(Compiler.text(operandExpr))]))
    case .between(let lower, let upper, let options, let negated):
      let low = operands.first.asValue
      let high = operands.second.asValue
      return ElementTest(
        test: { v, r, run in
          let l = low(r, &run)
          let h = high(r, &run)
          let result = ValueComparison.within(v, l, h, upper: .lessOrEqual, options)
          return negated ? !result : result
        },
        plan: Plan(
          (negated ? "NotBetween" : "Between") + options.spelling,
          [.text(subjectText), .text(Compiler.text(lower)), .text(Compiler.text(upper))]))
    case .member(let operandExpr, let options, let negated):
      let plan = Plan(
        (negated ? "NotIn" : "In") + options.spelling,
        [.text(subjectText), .text(setText(operandExpr))])
      if case .range(_, _, let kind) = operandExpr.kind {
        let low = operands.first.asValue
        let high = operands.second.asValue
        let upperOp: ComparisonOperator = kind == .closed ? .lessOrEqual : .less
        return ElementTest(
          test: { v, r, run in
            let l = low(r, &run)
            let h = high(r, &run)
            let result = ValueComparison.within(v, l, h, upper: upperOp, options)
            return negated ? !result : result
          }, plan: plan)
      }
      let list = operands.first.asValue
      return ElementTest(
        test: { v, r, run in
          guard case .list(let elements) = list(r, &run),
            run.charge(Cost.sum(elements.count, options.isEmpty ? 0 : Cost.size(v)))
          else { return .unknown }
          let result = ValueComparison.member(v, elements, options)
          return negated ? !result : result
        }, plan: plan)
    case .text(let op, let operandExpr, let options, let negated):
      let operand = operands.first.asValue
      return ElementTest(
        test: { v, r, run in
          let pattern = operand(r, &run)
          let result = TextMatching.test(op, v, pattern, options) { run.charge($0) }
          return negated ? !result : result
        },
        plan: Plan(
          Compiler.name(op, negated: negated) + options.spelling,
          [.text(subjectText), .text(Compiler.text(operandExpr))]))
    }
  }

  // MARK: Names in plans

  static func name(_ op: ComparisonOperator) -> String {
    switch op {
    case .equal: "Eq"
    case .notEqual: "Ne"
    case .less: "Lt"
    case .lessOrEqual: "Le"
    case .greater: "Gt"
    case .greaterOrEqual: "Ge"
    }
  }

  static func name(_ op: TextOperator, negated: Bool) -> String {
    let name =
      switch op {
      case .contains: "Contains"
      case .startsWith: "StartsWith"
      case .endsWith: "EndsWith"
      case .like: "Like"
      case .matches: "Matches"
      }
    return negated ? "Not" + name : name
  }

  /// `{Starlight, Space Black}` for a list, `256...1024` for a range.
  func setText(_ expr: BoundExpr) -> String {
    switch expr.kind {
    case .list(let items): "{" + items.map(Compiler.text).joined(separator: ", ") + "}"
    default: Compiler.text(expr)
    }
  }
}
