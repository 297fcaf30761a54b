/// The type checker: resolves every name (field, parameter, function), types every node, and
/// reports every independent error with its range.
///
/// An error poisons the node it is found in (its type is unknown), and nothing is reported
/// about poisoned nodes again, so one mistake gives one diagnostic. Like the parser, the
/// checker recurses once per level of the tree, with thin recursive functions.
public final class Checker {
  /// Checks a filter: it must be true or false for each record.
  public static func check(
    _ filter: Expr, schema: Schema, parameters: [String: ValueType] = [:],
    functions: FunctionRegistry = .builtins
  ) -> [Diagnostic] {
    let checker = Checker(schema: schema, parameters: parameters, functions: functions)
    checker.requireBool(filter, what: "the filter")
    return checker.diagnostics.sortedByPosition()
  }

  /// Checks a query: its filter, and its sort keys, limit and offset.
  public static func check(
    _ query: Query, schema: Schema, parameters: [String: ValueType] = [:],
    functions: FunctionRegistry = .builtins
  ) -> [Diagnostic] {
    let checker = Checker(schema: schema, parameters: parameters, functions: functions)
    if let filter = query.filter { checker.requireBool(filter, what: "the filter") }
    for key in query.ordering {
      if let type = checker.type(of: key.key), !isOrderable(type) {
        checker.report(.invalidOperand("cannot sort by \(type)", at: key.key.range))
      }
    }
    for count in [query.limit, query.offset].compactMap({ $0 }) {
      if let type = checker.type(of: count), type != .int, type != .null {
        checker.report(
          .invalidOperand("limit and offset take an integer, not \(type)", at: count.range))
      }
    }
    return checker.diagnostics.sortedByPosition()
  }

  /// The type of `expr`, with the diagnostics its checking produces.
  public static func type(
    of expr: Expr, schema: Schema, parameters: [String: ValueType] = [:],
    functions: FunctionRegistry = .builtins
  ) -> (type: ValueType?, diagnostics: [Diagnostic]) {
    let checker = Checker(schema: schema, parameters: parameters, functions: functions)
    let type = checker.type(of: expr)
    return (type, checker.diagnostics.sortedByPosition())
  }

  let schema: Schema
  let parameters: [String: ValueType]
  let functions: FunctionRegistry
  private(set) var diagnostics: [Diagnostic] = []

  init(schema: Schema, parameters: [String: ValueType], functions: FunctionRegistry) {
    self.schema = schema
    self.parameters = parameters
    self.functions = functions
  }

  /// Adds `diagnostic`, once: `x in (1, 2)` checks `x == 1` and `x == 2`, and a warning about
  /// `x` would otherwise come twice.
  func report(_ diagnostic: Diagnostic) {
    if !diagnostics.contains(diagnostic) { diagnostics.append(diagnostic) }
  }

  // MARK: Expressions

  /// The type of `expr`; nil when it has an error (already reported).
  func type(of expr: Expr) -> ValueType? {
    switch expr.kind {
    case .literal(let literal): ValueType(literal)
    case .field(let path): field(path)?.type
    case .parameter(let name): parameter(name)
    case .list(let items): listType(items)
    case .range(let lower, let upper, _): rangeType(lower, upper)
    case .call(let name, let arguments): call(name, arguments, range: expr.range)
    case .negate(let operand): negate(operand)
    case .not(let operand): requireBool(operand, what: "the operand of 'not'")
    case .arithmetic(let op, let left, let right): arithmetic(op, left, right)
    case .logical(let op, let operands): logical(op, operands)
    case .predicate(let subject, let condition): predicate(subject, condition)
    case .quantified(let quantifier, let subject, let condition):
      quantified(quantifier, subject, condition)
    case .exists(let path): field(path) == nil ? nil : .bool
    }
  }

  /// Checks that `expr` is true or false; `.bool`, or nil after an error.
  @discardableResult
  func requireBool(_ expr: Expr, what: String) -> ValueType? {
    guard let type = type(of: expr) else { return nil }
    if type == .bool || type == .null { return .bool }
    report(.notABoolean(describe(expr, type), at: expr.range, help: boolHelp(expr, type)))
    return nil
  }

  private func boolHelp(_ expr: Expr, _ type: ValueType) -> String? {
    switch type {
    case .int, .double: "compare it: \(expr) > 0"
    case .string: "compare it: \(expr) == \"...\""
    case .list: "test its elements: any \(expr) == ..."
    default: nil
    }
  }

  private func logical(_ op: LogicalOperator, _ operands: [Expr]) -> ValueType? {
    var ok = true
    for operand in operands
    where requireBool(operand, what: "an operand of '\(op.rawValue)'") == nil {
      ok = false
    }
    return ok ? .bool : nil
  }

  /// How an expression is named in messages: `'price' (an integer)` for a field, else its
  /// type.
  func describe(_ expr: Expr, _ type: ValueType) -> String {
    switch expr.kind {
    case .field(let path): "'\(path.dotted)' (\(type))"
    case .literal(.string(let s)): quoted(s)
    case .literal(let literal): "\(literal) (\(type))"
    default: type.description
    }
  }

  // MARK: Names

  /// Resolves a field path in the schema, reporting the first step that does not exist. A
  /// step through a list of records reaches into each of them: `children.age` is the list
  /// of the children's ages (lists met on the way are flattened into one).
  func field(_ path: FieldPath) -> Schema.Field? {
    var schema = self.schema
    var found: Schema.Field? = nil
    var parent: String? = nil
    var throughList = false
    for name in path.components {
      if let current = found {
        // A field with no value in any record has no known fields either: its parts are null.
        if current.type == .null { return Schema.Field(name.text, .null, optional: true) }
        switch current.type {
        case .record(let inner):
          schema = inner
        case .list(.record(let inner)):
          schema = inner
          throughList = true
        default:
          report(.notARecord(current.name, what: current.type.description, at: name.range))
          return nil
        }
      }
      guard let (_, field) = schema.field(named: name.text) else {
        let suggestion = Suggestion.closest(to: name.text, among: schema.names)
        report(
          .unknownField(
            name.text, in: parent, suggestion: suggestion, fields: schema.names, at: name.range))
        return nil
      }
      found = field
      parent = name.text
    }
    guard throughList, let field = found else { return found }
    let element = if case .list(let inner) = field.type { inner } else { field.type }
    return Schema.Field(field.name, .list(element), optional: true, knownValues: field.knownValues)
  }

  private func parameter(_ name: Name) -> ValueType? {
    if let type = parameters[name.text] { return type }
    let suggestion = Suggestion.closest(to: name.text, among: parameters.keys)
    report(.unknownParameter(name.text, suggestion: suggestion, at: name.range))
    return nil
  }

  private func call(_ name: Name, _ arguments: [Expr], range: SourceRange) -> ValueType? {
    let types = arguments.map { type(of: $0) }
    guard let function = functions.definition(named: name.text) else {
      if let field = schema.field(named: name.text)?.field, case .list(.record) = field.type {
        // `any children(age < 18)`: the filter on each child needs a space before it.
        report(.listCalled(name.text, at: name.range))
        return nil
      }
      let suggestion = Suggestion.closest(to: name.text, among: functions.names)
      report(
        .unknownFunction(
          name.text, suggestion: suggestion, functions: functions.names, at: name.range))
      return nil
    }
    guard function.arity.contains(arguments.count) else {
      report(.wrongArity(name.text, expected: function.arity, got: arguments.count, at: range))
      return nil
    }
    var known = types.compactMap { $0 }
    guard known.count == types.count else { return nil }
    // A list given first to a function of single values: the function applies to each element.
    var mapped = false
    if !function.takesLists, case .list(let element) = known.first {
      known[0] = element
      mapped = true
    }
    switch function.resultType(known) {
    case .success(let result) where mapped:
      return .list(result)
    case .success(let result):
      let literals = arguments.map { argument -> Literal? in
        if case .literal(let literal) = argument.kind { return literal }
        return nil
      }
      if let error = function.checkLiterals(literals) {
        report(.invalidArguments(error.message, at: range))
        return nil
      }
      return result
    case .failure(let error):
      report(.invalidArguments(error.message, at: range))
      return nil
    }
  }

  static func isOrderable(_ type: ValueType) -> Bool {
    switch type {
    case .list, .record: false
    default: true
    }
  }
}
