/// Predicates, quantifiers and their conditions.
extension Checker {
  func predicate(_ subject: Expr, _ condition: Condition) -> ValueType? {
    let type = self.type(of: subject)
    guard let type else {
      // Still check the operands, for their own errors.
      _ = operands(of: condition).map { self.type(of: $0) }
      return nil
    }
    guard self.condition(condition, subject: subject, type) else { return nil }
    checkReadsSomething(subject, condition)
    return .bool
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
    report(.constantComparison(suggestion: field, at: range))
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

  func quantified(_ quantifier: Quantifier, _ subject: Expr, _ condition: Condition) -> ValueType? {
    guard let type = type(of: subject) else { return nil }
    guard case .list(let element) = type else {
      report(.notAList(describe(subject, type), operation: quantifier.rawValue, at: subject.range))
      return nil
    }
    return self.condition(condition, subject: subject, element) ? .bool : nil
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

  /// Checks `condition` applied to `subject` of type `type` (for a quantifier, the type of the
  /// list's elements). False when an error was reported.
  func condition(_ condition: Condition, subject: Expr, _ type: ValueType) -> Bool {
    switch condition.kind {
    case .compare(let op, let operand, let options):
      return compare(op, subject, type, operand, options, at: condition.operatorRange)
    case .text(let op, let operand, let options, _):
      return text(op, subject, type, operand, options, at: condition.operatorRange)
    case .member(let operand, let options, _):
      return member(subject, type, operand, options, at: condition.operatorRange)
    case .between(let lower, let upper, let options, _):
      let a = compare(.greaterOrEqual, subject, type, lower, options, at: condition.operatorRange)
      let b = compare(.lessOrEqual, subject, type, upper, options, at: condition.operatorRange)
      return a && b
    case .isNull:
      return true
    case .isEmpty:
      guard type == .string || type == .null || { if case .list = type { true } else { false } }()
      else {
        report(
          .invalidOperand(
            "'is empty' works on text and lists, and \(describe(subject, type)) is neither",
            at: condition.operatorRange, help: "test for null with 'is null'"))
        return false
      }
      return true
    case .same(let operand, _):
      return same(subject, type, operand)
    case .satisfies(let filter):
      if type == .null { return true }
      guard case .record(let inner) = type else {
        report(
          .invalidOperand(
            "a filter in parentheses after the list tests the fields of its records, and \(describe(subject, .list(type))) holds no records",
            at: filter.range, help: "compare the elements themselves: any tags == 5G"))
        return false
      }
      // The filter's names are the element's fields.
      let scoped = Checker(schema: inner, parameters: parameters, functions: functions)
      scoped.requireBool(filter, what: "the filter")
      for diagnostic in scoped.diagnostics { report(diagnostic) }
      return !scoped.diagnostics.hasErrors
    }
  }

  private func compare(
    _ op: ComparisonOperator, _ subject: Expr, _ type: ValueType, _ operand: Expr,
    _ options: StringOptions, at operatorRange: SourceRange
  ) -> Bool {
    guard let other = self.type(of: operand) else { return false }
    if type == .null, other != .null, let name = Checker.fieldName(subject) {
      report(.fieldWithoutValues(name, at: subject.range))
      return true
    }
    if type == .null || other == .null {
      report(.comparisonWithNull(at: subject.range.union(operand.range)))
      return true
    }
    guard Checker.unify(type, other) != nil,
      Checker.isOrderable(type) || op == .equal || op == .notEqual,
      Checker.isOrderable(other)
    else {
      report(
        .incomparable(
          describe(subject, type), describe(operand, other), at: operand.range,
          help: comparisonHelp(subject, type, operand, other)))
      return false
    }
    if !options.isEmpty && type != .string {
      report(.modifierOnNonText(options.spelling, what: describe(subject, type), at: operatorRange))
      return false
    }
    if op == .equal || op == .notEqual { checkKnownValue(subject, operand, options) }
    return true
  }

  /// `a is b`: like `==`, except that null is a value here, so comparing with null is fine.
  private func same(_ subject: Expr, _ type: ValueType, _ operand: Expr) -> Bool {
    guard let other = self.type(of: operand) else { return false }
    if type == .null || other == .null || Checker.unify(type, other) != nil { return true }
    report(
      .incomparable(
        describe(subject, type), describe(operand, other), at: operand.range,
        help: comparisonHelp(subject, type, operand, other)))
    return false
  }

  /// Help for a comparison of mismatched kinds: the likely fix.
  private func comparisonHelp(
    _ subject: Expr, _ type: ValueType, _ operand: Expr, _ other: ValueType
  ) -> String? {
    if case .literal(.string(let text)) = subject.kind {
      // `"Price" > 1`: quoting the number would make a comparison of two constants.
      let field =
        schema.field(named: text) != nil
        ? text : Suggestion.closest(to: text, among: schema.names)
      return field.map { "to read the field '\($0)', write its name without quotes: \($0)" }
        ?? "put a field on the left, as in price > 100"
    }
    if case .literal(.string(let text)) = operand.kind, schema.field(named: text) != nil {
      return "on the right of an operator a word is text; to name the field, write `\(text)`"
    }
    if type.isNumeric, case .literal(.string(let text)) = operand.kind {
      if Double(text.filter { $0 != "_" }) != nil { return "remove the quotes: \(text)" }
      let digits = text.prefix { $0.isNumber }
      if !digits.isEmpty { return "write the number without a unit: \(digits)" }
      return "compare with a number"
    }
    if type == .string && other.isNumeric {
      return "quote the value to compare text: \"\(operand)\""
    }
    if case .list = type, !Checker.isList(other) {
      return "test its elements with any, all or none: any \(subject) ..."
    }
    if case .literal(.string) = operand.kind, type == .date || type == .dateTime {
      return "write dates without quotes: 2022-09-16"
    }
    return nil
  }

  /// Warns when a text field with known values is compared with a value none of them equals.
  private func checkKnownValue(_ subject: Expr, _ operand: Expr, _ options: StringOptions) {
    guard case .field(let path) = subject.kind, let field = field(path),
      let known = field.knownValues,
      case .literal(.string(let value)) = operand.kind
    else { return }
    let fold: (String) -> String = options.isEmpty ? { $0 } : { TextFolding.fold($0, options) }
    let folded = fold(value)
    guard !known.contains(where: { fold($0) == folded }) else { return }
    let suggestion = Suggestion.closest(to: value, among: known)
    report(.unknownValue(value, field: path.dotted, suggestion: suggestion, at: operand.range))
  }

  private func text(
    _ op: TextOperator, _ subject: Expr, _ type: ValueType, _ operand: Expr,
    _ options: StringOptions,
    at operatorRange: SourceRange
  ) -> Bool {
    guard let other = self.type(of: operand) else { return false }
    if op == .contains, case .list(let element) = type {
      // `tags contains 5G`: membership of one element.
      guard Checker.unify(element, other) != nil else {
        report(
          .incomparable(
            "the elements of \(describe(subject, type))", describe(operand, other),
            at: operand.range, help: nil))
        return false
      }
      return true
    }
    guard type == .string || type == .null else {
      let help = type.isNumeric ? "compare numbers with ==, <, > or between" : nil
      report(
        .invalidOperand(
          "'\(op.rawValue)' works on text, and \(describe(subject, type)) is not text",
          at: operatorRange, help: help))
      return false
    }
    guard other == .string || other == .null else {
      report(
        .invalidOperand(
          "'\(op.rawValue)' needs text on its right, not \(describe(operand, other))",
          at: operand.range, help: "quote it: \"\(operand)\""))
      return false
    }
    if type == .null, let name = Checker.fieldName(subject) {
      report(.fieldWithoutValues(name, at: subject.range))
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
        report(.invalidPattern(error, at: operand.range))
        return false
      }
    }
    return true
  }

  private func member(
    _ subject: Expr, _ type: ValueType, _ operand: Expr, _ options: StringOptions,
    at operatorRange: SourceRange
  ) -> Bool {
    if case .list(let items) = operand.kind {
      if items.isEmpty {
        report(.emptyList(at: operand.range))
        return false
      }
      var ok = true
      for item in items {
        if case .literal(.null) = item.kind {
          report(.nullInList(at: item.range))
          ok = false
        } else if !compare(.equal, subject, type, item, options, at: operatorRange) {
          ok = false
        }
      }
      return ok
    }
    if case .range(let lower, let upper, _) = operand.kind {
      let a = compare(.greaterOrEqual, subject, type, lower, options, at: operatorRange)
      let b = compare(.lessOrEqual, subject, type, upper, options, at: operatorRange)
      return a && b
    }
    guard let other = self.type(of: operand) else { return false }
    guard case .list(let element) = other else {
      report(.notAList(describe(operand, other), operation: "in", at: operand.range))
      return false
    }
    guard element == .null || Checker.unify(type, element) != nil else {
      report(
        .incomparable(
          describe(subject, type), "the elements of \(describe(operand, other))", at: operand.range,
          help: nil))
      return false
    }
    return true
  }

  /// The name of the field `expr` reads, when it is a field: the list's, for a quantifier's
  /// element.
  static func fieldName(_ expr: Expr) -> String? {
    if case .field(let path) = expr.kind { return path.dotted }
    return nil
  }
}
