/// Predicates, quantifiers and their conditions.
extension Checker {
  /// A subject as conditions see it: as written (for messages), its type (for a quantifier,
  /// the type of the list's elements), and the values it is known to take.
  struct Subject {
    let expr: Expr
    let type: ValueType
    let knownValues: [String]?

    init(_ expr: Expr, _ bound: BoundExpr, type: ValueType? = nil) {
      self.expr = expr
      self.type = type ?? bound.type
      knownValues = if case .field(let field) = bound.kind { field.knownValues } else { nil }
    }
  }

  func predicate(_ subject: Expr, _ condition: Condition, _ range: SourceRange) -> BoundExpr? {
    guard let bound = bind(subject) else {
      // Still check the operands, for their own errors.
      _ = operands(of: condition).map { bind($0) }
      return nil
    }
    guard let checked = self.condition(condition, Subject(subject, bound)) else { return nil }
    checkReadsSomething(subject, condition)
    return BoundExpr(.predicate(bound, checked), type: .bool, range: range)
  }

  /// Warns when a comparison has no field, parameter or function on either side
  /// (`"Price" > "1"`): it is the same for every record, which is seldom what was meant.
  private func checkReadsSomething(_ subject: Expr, _ condition: Condition) {
    let sides = [subject] + operands(of: condition)
    guard sides.allSatisfy(Checker.isConstant) else { return }
    var texts: [String] = []
    for side in sides {
      if case .literal(.string(let text)) = side.kind { texts.append(text) }
    }
    let field =
      texts.first { schema.field(named: $0) != nil }
      ?? texts.lazy.compactMap { Suggestion.closest(to: $0, among: self.schema.names) }.first
    let range = sides.map(\.range).reduce(subject.range) { $0.union($1) }
    report(.constantComparison(suggestion: field, example: exampleComparison, at: range))
  }

  /// A comparison to show in help, on the data's own fields rather than a phone catalog's:
  /// its first number field (`dep_delay > 100`), else its first text field (`carrier ==
  /// "x"`), else `price > 100`.
  var exampleComparison: String {
    func name(_ field: Schema.Field) -> String { "\(Expr(.field(FieldPath([Name(field.name)]))))" }
    if let number = schema.fields.first(where: { $0.type.isNumeric }) {
      return "\(name(number)) > 100"
    }
    if let text = schema.fields.first(where: { $0.type == .string }) {
      return "\(name(text)) == \"\(text.knownValues?.first ?? "x")\""
    }
    return "price > 100"
  }

  /// Whether `expr` is made of literals only.
  static func isConstant(_ expr: Expr) -> Bool {
    switch expr.kind {
    case .literal: true
    case .list(let items): items.allSatisfy(isConstant)
    case .range(let a, let b, _), .arithmetic(_, let a, let b): isConstant(a) && isConstant(b)
    case .negate(let a): isConstant(a)
    default: false
    }
  }

  func quantified(
    _ quantifier: Quantifier, _ subject: Expr, _ condition: Condition, _ range: SourceRange
  ) -> BoundExpr? {
    guard let bound = bind(subject) else { return nil }
    guard case .list(let element) = bound.type else {
      report(
        .notAList(
          describe(subject, bound.type), operation: quantifier.rawValue,
          example: "\(subject)" + (bound.type.isNumeric ? " > 3" : " == \"x\""),
          at: subject.range))
      return nil
    }
    guard let checked = self.condition(condition, Subject(subject, bound, type: element)) else {
      return nil
    }
    return BoundExpr(.quantified(quantifier, bound, checked), type: .bool, range: range)
  }

  /// `list where filter`: the list must be a field holding records, and the filter is checked
  /// on their fields.
  @inline(never)
  func filtered(_ expr: Expr) -> BoundExpr? {
    guard case .filtered(let list, let filter) = expr.kind, let bound = bind(list) else {
      return nil
    }
    let range = expr.range
    guard case .field = list.kind, case .list(let element) = bound.type,
      element == .null || Checker.isRecord(element)
    else {
      report(
        .invalidOperand(
          "where keeps the records of a list field whose fields pass, and \(describe(list, bound.type)) is not one",
          at: list.range,
          help: "for the elements of a list of values, test them with any, all, none or one"))
      return nil
    }
    guard case .record(let inner) = element else {
      // A list field with no known fields: no record passes.
      return BoundExpr(.constant(.list([])), type: bound.type, range: range)
    }
    let scoped = Checker(schema: inner, parameters: parameters, functions: functions)
    let test = scoped.requireBool(filter, what: "the filter after where")
    for diagnostic in scoped.diagnostics { report(diagnostic) }
    guard let test, !scoped.diagnostics.hasErrors else { return nil }
    return BoundExpr(.filtered(bound, test, elements: inner), type: bound.type, range: range)
  }

  private func operands(of condition: Condition) -> [Expr] {
    switch condition.kind {
    case .compare(_, let operand, _), .text(_, let operand, _, _), .member(let operand, _, _),
      .same(let operand, _):
      [operand]
    case .between(let lower, let upper, _, _): [lower, upper]
    case .isNull, .isEmpty, .satisfies: []
    }
  }

  /// Checks `condition` applied to `subject`; its bound form, or nil when an error was
  /// reported.
  func condition(_ condition: Condition, _ subject: Subject) -> BoundCondition? {
    let at = condition.operatorRange
    let kind: BoundCondition.Kind?
    switch condition.kind {
    case .compare(let op, let operand, let options):
      kind = compare(op, subject, operand, options, at: at).map { .compare(op, $0, options) }
    case .text(let op, let operand, let options, let negated):
      kind = text(op, subject, operand, options, at: at).map {
        .text(op, $0, options, negated: negated)
      }
    case .member(let operand, let options, let negated):
      kind = member(subject, operand, options, at: at).map {
        .member($0, options, negated: negated)
      }
    case .between(let lower, let upper, let options, let negated):
      let a = compare(.greaterOrEqual, subject, lower, options, at: at)
      let b = compare(.lessOrEqual, subject, upper, options, at: at)
      if let a, let b { kind = .between(a, b, options, negated: negated) } else { kind = nil }
    case .isNull(let negated):
      kind = .isNull(negated: negated)
    case .isEmpty(let negated):
      let type = subject.type
      if type == .string || type == .null || type == .any || Checker.isList(type) {
        // (Of mixed values: empty text, an empty list or an empty object.)
        kind = .isEmpty(negated: negated)
      } else {
        report(
          .invalidOperand(
            "'is empty' works on text and lists, and \(describe(subject.expr, type)) is neither",
            at: at, help: "test for null with 'is null'"))
        kind = nil
      }
    case .same(let operand, let negated):
      kind = same(subject, operand).map { .same($0, negated: negated) }
    case .satisfies(let filter):
      kind = satisfies(subject, filter)
    }
    return kind.map { BoundCondition($0, operatorRange: at) }
  }

  /// `(filter)` after a list of records: the filter's names are the element's fields.
  private func satisfies(_ subject: Subject, _ filter: Expr) -> BoundCondition.Kind? {
    switch subject.type {
    case .null:
      // Elements with no known fields: every test on them is unknown.
      return .satisfies(
        BoundExpr(.constant(.null), type: .null, range: filter.range), elements: Schema([]))
    case .record(let inner):
      let scoped = Checker(schema: inner, parameters: parameters, functions: functions)
      let bound = scoped.requireBool(filter, what: "the filter")
      for diagnostic in scoped.diagnostics { report(diagnostic) }
      guard let bound, !scoped.diagnostics.hasErrors else { return nil }
      return .satisfies(bound, elements: inner)
    default:
      report(
        .invalidOperand(
          "a filter in parentheses after the list tests the fields of its records, and \(describe(subject.expr, .list(subject.type))) holds no records",
          at: filter.range, help: "compare the elements themselves: any tags == 5G"))
      return nil
    }
  }

  /// Checks `subject op operand`; the bound operand, or nil after an error.
  private func compare(
    _ op: ComparisonOperator, _ subject: Subject, _ operand: Expr, _ options: StringOptions,
    at operatorRange: SourceRange
  ) -> BoundExpr? {
    guard let bound = bind(operand) else { return nil }
    let type = subject.type
    let other = bound.type
    if type == .null, other != .null, let name = Checker.fieldName(subject.expr) {
      report(.fieldWithoutValues(name, at: subject.expr.range))
      return bound
    }
    if type == .null || other == .null {
      report(.comparisonWithNull(at: subject.expr.range.union(operand.range)))
      return bound
    }
    guard Checker.comparable(type, other, op) else {
      report(
        .incomparable(
          describe(subject.expr, type), describe(operand, other), at: operand.range,
          help: comparisonHelp(subject.expr, type, operand, other, op)))
      return nil
    }
    if !options.isEmpty && type != .string && type != .any {
      report(
        .modifierOnNonText(
          options.spelling, what: describe(subject.expr, type), at: operatorRange))
      return nil
    }
    if op == .equal || op == .notEqual { checkKnownValue(subject, operand, options, op) }
    return bound
  }

  /// `a is b`: like `==`, except that null is a value here, so comparing with null is fine.
  private func same(_ subject: Subject, _ operand: Expr) -> BoundExpr? {
    guard let bound = bind(operand) else { return nil }
    let (type, other) = (subject.type, bound.type)
    if type == .null || other == .null || Checker.unify(type, other) != nil
      || Checker.comparable(type, other, .equal)
    {
      return bound
    }
    report(
      .incomparable(
        describe(subject.expr, type), describe(operand, other), at: operand.range,
        help: comparisonHelp(subject.expr, type, operand, other, nil)))
    return nil
  }

  /// Warns when a text field with known values is compared with a value none of them equals,
  /// or any field with a text it reads as null (`tailnum == NA`).
  private func checkKnownValue(
    _ subject: Subject, _ operand: Expr, _ options: StringOptions, _ op: ComparisonOperator
  ) {
    if case .field(let path) = subject.expr.kind, let text = nullText(subject.expr, operand) {
      report(
        .nullTextCompared(
          text, field: path.dotted, negated: op == .notEqual, at: operand.range))
      return
    }
    guard case .field(let path) = subject.expr.kind, let known = subject.knownValues,
      case .literal(.string(let value)) = operand.kind
    else { return }
    let fold: (String) -> String = options.isEmpty ? { $0 } : { TextFolding.fold($0, options) }
    let folded = fold(value)
    guard !known.contains(where: { fold($0) == folded }) else { return }
    let suggestion = Suggestion.closest(to: value, among: known)
    report(.unknownValue(value, field: path.dotted, suggestion: suggestion, at: operand.range))
  }

  private func text(
    _ op: TextOperator, _ subject: Subject, _ operand: Expr, _ options: StringOptions,
    at operatorRange: SourceRange
  ) -> BoundExpr? {
    guard let bound = bind(operand) else { return nil }
    let (type, other) = (subject.type, bound.type)
    if op == .contains, case .list(let element) = type {
      // `tags contains 5G`: membership of one element.
      guard Checker.unify(element, other) != nil else {
        report(
          .incomparable(
            "the elements of \(describe(subject.expr, type))", describe(operand, other),
            at: operand.range, help: nil))
        return nil
      }
      return bound
    }
    // (Of mixed values, the texts are tested; the others are unknown.)
    guard type == .string || type == .null || type == .any else {
      let help = type.isNumeric ? "compare numbers with ==, <, > or between" : nil
      report(
        .invalidOperand(
          "'\(op.rawValue)' works on text, and \(describe(subject.expr, type)) is not text",
          at: operatorRange, help: help))
      return nil
    }
    guard other == .string || other == .null else {
      report(
        .invalidOperand(
          "'\(op.rawValue)' needs text on its right, not \(describe(operand, other))",
          at: operand.range, help: "quote it: \"\(operand)\""))
      return nil
    }
    if type == .null, let name = Checker.fieldName(subject.expr) {
      report(.fieldWithoutValues(name, at: subject.expr.range))
    }
    if op == .like, case .literal(.string(let pattern)) = operand.kind, pattern.contains("%"),
      !pattern.contains("*"), !pattern.contains("?")
    {
      let glob = String(pattern.map { $0 == "%" ? "*" : $0 == "_" ? "?" : $0 })
      report(.sqlWildcard(glob, at: operand.range))
    }
    if op == .matches, case .literal(.string(let pattern)) = operand.kind {
      do {
        _ = try RegexProgram(pattern)
      } catch {
        report(.invalidPattern(error, pattern: pattern, at: operand.range))
        return nil
      }
    }
    return bound
  }

  private func member(
    _ subject: Subject, _ operand: Expr, _ options: StringOptions, at operatorRange: SourceRange
  ) -> BoundExpr? {
    if case .list(let items) = operand.kind {
      if items.isEmpty {
        report(.emptyList(at: operand.range))
        return nil
      }
      var bound: [BoundExpr] = []
      var element = ValueType.null
      for item in items {
        if case .literal(.null) = item.kind {
          report(.nullInList(at: item.range))
        } else if let item = compare(.equal, subject, item, options, at: operatorRange) {
          bound.append(item)
          element = Checker.unify(element, item.type) ?? element
        }
      }
      guard bound.count == items.count else { return nil }
      return BoundExpr(.list(bound), type: .list(element), range: operand.range)
    }
    if case .range(let lower, let upper, let kind) = operand.kind {
      let a = compare(.greaterOrEqual, subject, lower, options, at: operatorRange)
      let b = compare(.lessOrEqual, subject, upper, options, at: operatorRange)
      guard let a, let b else { return nil }
      let element = Checker.unify(a.type, b.type) ?? a.type
      return BoundExpr(.range(a, b, kind), type: .list(element), range: operand.range)
    }
    guard let bound = bind(operand) else { return nil }
    guard case .list(let element) = bound.type else {
      var listField: String?
      if case .literal(.string(let word)) = operand.kind,
        case .list? = schema.field(named: word)?.field.type
      {
        listField = word
      }
      report(
        .notAList(
          describe(operand, bound.type), operation: "in", listField: listField,
          at: operand.range))
      return nil
    }
    guard
      element == .null || Checker.unify(subject.type, element) != nil
        || Checker.comparable(subject.type, element, .equal)
    else {
      report(
        .incomparable(
          describe(subject.expr, subject.type),
          "the elements of \(describe(operand, bound.type))", at: operand.range, help: nil))
      return nil
    }
    return bound
  }

  /// Whether values of `a` and `b` compare with `op`: of one kind (numbers with numbers, dates
  /// with date-times) and ordered, or, for `==` and `!=`, two lists whose elements compare.
  static func comparable(_ a: ValueType, _ b: ValueType, _ op: ComparisonOperator) -> Bool {
    // Mixed values compare with any value, each by its kind (a value of another kind is
    // unknown).
    if a == .any || b == .any { return true }
    if case .list(let x) = a, case .list(let y) = b {
      return (op == .equal || op == .notEqual)
        && (x == .null || y == .null || comparable(x, y, .equal))
    }
    return unify(a, b) != nil && isOrderable(a) && isOrderable(b)
  }

  /// The name of the field `expr` reads, when it is a field: the list's, for a quantifier's
  /// element.
  static func fieldName(_ expr: Expr) -> String? {
    if case .field(let path) = expr.kind { return path.dotted }
    return nil
  }
}
