/// The reference evaluator: a plain walk over the tree, with dynamic values. It defines what a
/// filter means, simply; the compiled engine must agree with it on every record (a
/// differential test checks this), nulls and faults included.
///
/// Semantics, SQL style:
/// - A comparison with a null or missing operand is unknown; `and`, `or`, `not` follow Kleene's
///   logic; a record matches only when the filter is true.
/// - Operands are evaluated left to right, and `and` / `or` stop as soon as the result is known.
/// - An operation on a null operand is null. A fault (overflow, division by zero...) makes the
///   operation null and is counted.
public struct ReferenceEvaluator: Sendable {
  /// The fields of the records evaluated.
  public let schema: Schema
  /// The clock and the parameters' values.
  public let context: EvaluationContext
  /// The functions filters may call.
  public let functions: FunctionRegistry

  /// An evaluator of filters over records of `schema`.
  public init(
    schema: Schema, context: EvaluationContext = EvaluationContext(),
    functions: FunctionRegistry = .builtins
  ) {
    self.schema = schema
    self.context = context
    self.functions = functions
  }

  /// The truth of `filter` for `record` (values in the order of the schema's fields), and the
  /// faults hit on the way. `has` says whether the record has a field whose value is null
  /// (see ``FieldPresence``); without it, a record has the fields it has a value in.
  public func evaluate(
    _ filter: Expr, on record: [Value], has: ((FieldPath) -> Bool)? = nil
  ) -> (truth: Truth, faults: FaultCounts) {
    var state = State(record: record, has: has)
    let truth = self.truth(filter, &state)
    return (truth, state.faults)
  }

  /// The value of `expr` for `record`: null when unknown. `has` as for
  /// ``evaluate(_:on:has:)``.
  public func value(
    _ expr: Expr, on record: [Value], has: ((FieldPath) -> Bool)? = nil
  ) -> (value: Value, faults: FaultCounts) {
    var state = State(record: record, has: has)
    let value = self.value(expr, &state)
    return (value, state.faults)
  }

  struct State {
    let record: [Value]
    /// Whether the record has a field whose value is null.
    var has: ((FieldPath) -> Bool)? = nil
    var faults = FaultCounts()
    /// The fields of the elements a quantifier is testing with `(filter)`.
    var elements: Schema? = nil
  }

  // MARK: Truth

  func truth(_ expr: Expr, _ state: inout State) -> Truth {
    switch expr.kind {
    case .logical(.and, let operands):
      var result = Truth.true
      for operand in operands {
        result = result && truth(operand, &state)
        if result == .false { break }
      }
      return result
    case .logical(.or, let operands):
      var result = Truth.false
      for operand in operands {
        result = result || truth(operand, &state)
        if result == .true { break }
      }
      return result
    case .not(let operand):
      return !truth(operand, &state)
    case .predicate(let subject, let condition):
      let value = value(subject, &state)
      return test(condition, value, &state)
    case .quantified(let quantifier, let subject, let condition):
      let list = value(subject, &state)
      guard case .satisfies = condition.kind else {
        return quantified(quantifier, list, condition, &state)
      }
      let outer = state.elements
      if case .field(let path) = subject.kind,
        case .list(.record(let inner)) = schema.type(of: path)
      {
        state.elements = inner
      } else {
        state.elements = nil
      }
      defer { state.elements = outer }
      return quantified(quantifier, list, condition, &state)
    case .exists(let path):
      return Truth(!field(path, in: state.record).isNull || state.has?(path) == true)
    default:
      switch value(expr, &state) {
      case .bool(let b): return Truth(b)
      default: return .unknown
      }
    }
  }

  private func quantified(
    _ quantifier: Quantifier, _ list: Value, _ condition: Condition, _ state: inout State
  ) -> Truth {
    guard case .list(let elements) = list else { return .unknown }
    switch quantifier {
    case .any, .none:
      var result = Truth.false
      for element in elements {
        result = result || test(condition, element, &state)
        if result == .true { break }
      }
      return quantifier == .any ? result : !result
    case .all:
      var result = Truth.true
      for element in elements {
        result = result && test(condition, element, &state)
        if result == .false { break }
      }
      return result
    case .one:
      var (trues, unknowns) = (0, 0)
      for element in elements {
        switch test(condition, element, &state) {
        case .true: trues += 1
        case .unknown: unknowns += 1
        case .false: break
        }
        if trues == 2 { break }
      }
      return Quantifier.exactlyOne(trues: trues, unknowns: unknowns)
    }
  }

  // MARK: Conditions

  func test(_ condition: Condition, _ subject: Value, _ state: inout State) -> Truth {
    switch condition.kind {
    case .isNull(let negated):
      return Truth(subject.isNull != negated)
    case .isEmpty(let negated):
      return ValueComparison.isEmpty(subject, negated: negated)
    case .satisfies(let filter):
      guard let elements = state.elements, case .record(let values) = subject else {
        return .unknown
      }
      let scoped = ReferenceEvaluator(schema: elements, context: context, functions: functions)
      let (truth, faults) = scoped.evaluate(filter, on: values)
      state.faults.merge(faults)
      return truth
    case .same(let operand, let negated):
      return ValueComparison.same(subject, value(operand, &state), negated: negated)
    case .compare(let op, let operand, let options):
      return compare(op, subject, value(operand, &state), options)
    case .between(let lower, let upper, let options, let negated):
      let low = value(lower, &state)
      let high = value(upper, &state)
      let result = ValueComparison.within(subject, low, high, upper: .lessOrEqual, options)
      return negated ? !result : result
    case .member(let operand, let options, let negated):
      let result = member(subject, operand, options, &state)
      return negated ? !result : result
    case .text(let op, let operand, let options, let negated):
      let result = TextMatching.test(op, subject, value(operand, &state), options)
      return negated ? !result : result
    }
  }

  func compare(_ op: ComparisonOperator, _ a: Value, _ b: Value, _ options: StringOptions) -> Truth
  {
    ValueComparison.compare(op, a, b, options)
  }

  /// `subject in operand`: true if it equals an element; otherwise unknown if an element was
  /// unknown or the subject is null, else false (SQL's rule).
  private func member(
    _ subject: Value, _ operand: Expr, _ options: StringOptions, _ state: inout State
  ) -> Truth {
    if case .range(let lower, let upper, let kind) = operand.kind {
      let low = value(lower, &state)
      let high = value(upper, &state)
      return ValueComparison.within(
        subject, low, high, upper: kind == .closed ? .lessOrEqual : .less, options)
    }
    guard case .list(let elements) = value(operand, &state) else { return .unknown }
    return ValueComparison.member(subject, elements, options)
  }

  // MARK: Values

  func value(_ expr: Expr, _ state: inout State) -> Value {
    switch expr.kind {
    case .literal(let literal):
      return Value(literal)
    case .field(let path):
      return field(path, in: state.record)
    case .parameter(let name):
      return context.parameters[name.text] ?? .null
    case .list(let items):
      return .list(items.map { value($0, &state) })
    case .range:
      return .null  // only meaningful after `in`
    case .call(let name, let arguments):
      guard let function = functions.definition(named: name.text) else { return .null }
      var faults = FaultCounts()
      let result = function.call(
        arguments.count, { value(arguments[$0], &state) }, context, { faults.record($0) })
      state.faults.merge(faults)
      return result
    case .negate(let operand):
      let a = value(operand, &state)
      return ValueArithmetic.broadcastNegate(a) { state.faults.record($0) }
    case .arithmetic(let op, let left, let right):
      let a = value(left, &state)
      let b = value(right, &state)
      return ValueArithmetic.broadcast(op, a, b) { state.faults.record($0) }
    case .filtered:
      return filtered(expr, &state)
    case .not, .logical, .predicate, .quantified, .exists:
      switch truth(expr, &state) {
      case .true: return .bool(true)
      case .false: return .bool(false)
      case .unknown: return .null
      }
    }
  }

  /// `list where filter`: the records of the list field for which the filter, evaluated on
  /// their fields, is true. (Out of line: `value` is on the recursive path.)
  @inline(never)
  private func filtered(_ expr: Expr, _ state: inout State) -> Value {
    guard case .filtered(let list, let filter) = expr.kind,
      case .list(let items) = value(list, &state)
    else { return .null }
    guard case .field(let path) = list.kind,
      case .list(.record(let inner)) = schema.type(of: path)
    else { return .list([]) }
    let scoped = ReferenceEvaluator(schema: inner, context: context, functions: functions)
    var kept: [Value] = []
    for item in items {
      guard case .record(let values) = item else { continue }
      let (truth, faults) = scoped.evaluate(filter, on: values)
      state.faults.merge(faults)
      if truth == .true { kept.append(item) }
    }
    return .list(kept)
  }

  private func record(_ result: Result<Value, Fault>, _ state: inout State) -> Value {
    switch result {
    case .success(let value): return value
    case .failure(let fault):
      state.faults.record(fault)
      return .null
    }
  }

  /// The value at `path` in `record`; null when missing.
  func field(_ path: FieldPath, in record: [Value]) -> Value {
    field(path.components[...], in: record, schema)
  }

  /// The value at `names` in a record of `schema`. Through a list of records the rest of the
  /// path is read in each, and the results make one list (lists among them are flattened).
  private func field(_ names: ArraySlice<Name>, in values: [Value], _ schema: Schema) -> Value {
    guard let name = names.first, let (slot, field) = schema.field(named: name.text),
      slot < values.count
    else { return .null }
    let value = values[slot]
    let rest = names.dropFirst()
    if rest.isEmpty { return value }
    switch (field.type, value) {
    case (.record(let inner), .record(let innerValues)):
      return self.field(rest, in: innerValues, inner)
    case (.list(.record(let inner)), .list(let items)):
      var results: [Value] = []
      for item in items {
        guard case .record(let innerValues) = item else {
          results.append(.null)
          continue
        }
        let result = self.field(rest, in: innerValues, inner)
        if case .list(let nested) = result { results += nested } else { results.append(result) }
      }
      return .list(results)
    default:
      return .null
    }
  }
}
