/// Compiles a bound filter into composed closures over records of type `Root`: one small
/// typed test per comparison (the strategy), chosen at compile time from the operand types and
/// the operator, wrapped by `and` / `or` / `not` combinators (the decorators). Each node also
/// carries its ``Plan``, which `explain` prints.
///
/// The compiled closures follow ``ReferenceEvaluator`` exactly (left-to-right evaluation,
/// short-circuits, nulls, faults); a differential test holds them to it.
struct Compiler<Root> {
  let recordType: RecordType<Root>

  // MARK: Tests

  func node(_ expr: BoundExpr) -> CompiledTest<Root> {
    switch expr.kind {
    case .logical(let op, let operands):
      return logical(op, operands.map(node))
    case .not(let operand):
      let inner = node(operand)
      let test = inner.test
      return CompiledTest(
        test: { r, run in !test(r, &run) }, plan: Plan("Not", plans: [inner.plan]))
    case .predicate(let subject, let condition):
      return self.condition(
        condition, subject: operand(subject), subjectText: Compiler.text(subject),
        selector: plainFieldSelector(subject))
    case .quantified(let quantifier, let subject, let condition):
      return quantified(
        quantifier, operand(subject), condition, subjectText: Compiler.text(subject))
    case .exists(let field):
      return exists(field)
    default:
      let value = operand(expr)
      return CompiledTest(
        test: Compiler.truth(value), plan: Plan("Is", [.text(Compiler.text(expr))]))
    }
  }

  /// `exists field`: true where the field has a value, and where the record type says the
  /// record has it though its value is null (see ``RecordType/withPresence(_:)``).
  @inline(never)
  private func exists(_ field: FieldRef) -> CompiledTest<Root> {
    let hasValue = isNull(
      self.field(field), negated: true, plan: Plan("Exists", [.text(field.path.dotted)]))
    guard let present = recordType.presence?(field) else { return hasValue }
    let test = hasValue.test
    return CompiledTest(
      test: { r, run in test(r, &run) == .true || present(r) ? .true : .false },
      plan: hasValue.plan)
  }

  /// A value used as a test: true or false, anything else unknown.
  static func truth(_ operand: Operand<Root>) -> (Root, inout EvaluationState) -> Truth {
    switch operand {
    case .bool(let f): return f
    case .constant(.bool(let b)):
      let truth = Truth(b)
      return { _, _ in truth }
    default:
      let value = operand.asValue
      return { r, run in
        if case .bool(let b) = value(r, &run) { return Truth(b) }
        return .unknown
      }
    }
  }

  private func logical(_ op: LogicalOperator, _ nodes: [CompiledTest<Root>]) -> CompiledTest<Root> {
    let node = logicalTest(op, nodes)
    // A conjunction of selectable tests selects by narrowing the selection test after test.
    let selectors = nodes.compactMap { $0.select }
    guard op == .and, selectors.count == nodes.count else { return node }
    return CompiledTest(
      test: node.test, plan: node.plan,
      select: { records, selection, run in
        for select in selectors where !selection.isEmpty { select(records, &selection, &run) }
      })
  }

  /// The batch reader of `expr` when it is a top-level field that has one.
  func plainFieldSelector(_ expr: BoundExpr) -> FieldSelector<Root>? {
    guard case .field(let field) = expr.kind, field.isTopLevel else { return nil }
    return recordType.selectors[field.slot]
  }

  private func logicalTest(_ op: LogicalOperator, _ nodes: [CompiledTest<Root>]) -> CompiledTest<
    Root
  > {
    let plan = Plan(op == .and ? "And" : "Or", plans: nodes.map { $0.plan })
    let stop: Truth = op == .and ? .false : .true
    if nodes.count == 2 {
      let a = nodes[0].test
      let b = nodes[1].test
      if op == .and {
        return CompiledTest(
          test: { r, run in
            let x = a(r, &run)
            return x == .false ? .false : x && b(r, &run)
          }, plan: plan)
      }
      return CompiledTest(
        test: { r, run in
          let x = a(r, &run)
          return x == .true ? .true : x || b(r, &run)
        }, plan: plan)
    }
    let tests = nodes.map { $0.test }
    return CompiledTest(
      test: { r, run in
        var result: Truth = op == .and ? .true : .false
        for test in tests {
          let x = test(r, &run)
          result = op == .and ? result && x : result || x
          if result == stop { break }
        }
        return result
      }, plan: plan)
  }

  private func quantified(
    _ quantifier: Quantifier, _ list: Operand<Root>, _ condition: BoundCondition,
    subjectText: String
  ) -> CompiledTest<Root> {
    var elementTest = valueCondition(condition, operands(of: condition))
    if case .satisfies(let filter, let elements) = condition.kind {
      // The filter runs on each element, a record of `elements`, with the same parameters.
      let scoped = Compiler<[Value]>(recordType: RecordType.dynamic(elements))
      let inner = scoped.node(filter)
      let test = inner.test
      elementTest = ElementTest(
        test: { value, _, run in
          guard case .record(let values) = value else { return .unknown }
          return test(values, &run)
        }, plan: Plan("Where", plans: [inner.plan]))
    }
    let produce = list.asValue
    let name = quantifier.rawValue.prefix(1).uppercased() + quantifier.rawValue.dropFirst()
    let plan = Plan(name, [.text(subjectText), .plan(elementTest.plan)])
    let test: (Root, inout EvaluationState) -> Truth = { r, run in
      guard case .list(let elements) = produce(r, &run) else { return .unknown }
      switch quantifier {
      case .any, .none:
        var result = Truth.false
        for element in elements {
          guard run.charge(1) else { return .unknown }
          result = result || elementTest.test(element, r, &run)
          if result == .true { break }
        }
        return quantifier == .any ? result : !result
      case .all:
        var result = Truth.true
        for element in elements {
          guard run.charge(1) else { return .unknown }
          result = result && elementTest.test(element, r, &run)
          if result == .false { break }
        }
        return result
      case .one:
        var (trues, unknowns) = (0, 0)
        for element in elements where trues < 2 {
          guard run.charge(1) else { return .unknown }
          switch elementTest.test(element, r, &run) {
          case .true: trues += 1
          case .unknown: unknowns += 1
          case .false: break
          }
        }
        return Quantifier.exactlyOne(trues: trues, unknowns: unknowns)
      }
    }
    return CompiledTest(test: test, plan: plan)
  }

  // MARK: Explain

  /// How an expression appears in a plan: its canonical text, with text constants unquoted.
  static func text(_ expr: BoundExpr) -> String {
    if case .constant(.string(let s)) = expr.kind { return s }
    return expr.description
  }
}
