/// The type checker and binder: resolves every name (field, parameter, function), types
/// every node, reports every independent error with its range, and returns the bound tree
/// (``BoundExpr``) that every back end reads.
///
/// An error poisons the node it is found in (it has no bound form), and nothing is reported
/// about poisoned nodes again, so one mistake gives one diagnostic. Like the parser, the
/// checker recurses once per level of the tree, with thin recursive functions.
public final class Checker {
  /// Checks and binds a filter: it must be true or false for each record.
  public static func check(
    _ filter: Expr, schema: Schema, parameters: [String: ValueType] = [:],
    functions: FunctionRegistry = .builtins
  ) -> Checked<BoundExpr> {
    let checker = Checker(schema: schema, parameters: parameters, functions: functions)
    let bound = checker.requireBool(filter, what: "the filter")
    return checker.result(bound)
  }

  /// Checks and binds a query: its filter, and its sort keys, limit and offset.
  public static func check(
    _ query: Query, schema: Schema, parameters: [String: ValueType] = [:],
    functions: FunctionRegistry = .builtins
  ) -> Checked<BoundQuery> {
    let checker = Checker(schema: schema, parameters: parameters, functions: functions)
    var ok = true
    let filter = query.filter.map { checker.requireBool($0, what: "the filter") }
    if case .some(nil) = filter { ok = false }
    var ordering: [BoundSortKey] = []
    for key in query.ordering {
      guard let bound = checker.bind(key.key) else {
        ok = false
        continue
      }
      guard isOrderable(bound.type) else {
        checker.report(.invalidOperand("cannot sort by \(bound.type)", at: key.key.range))
        ok = false
        continue
      }
      // Nulls go last unless the key says first, ascending or descending (as DuckDB and
      // pandas place them): `order by delay limit 3` shows three delays, not three nulls.
      let nullsFirst = key.nulls.map { $0 == .first } ?? false
      ordering.append(BoundSortKey(bound, key.direction, nullsFirst: nullsFirst))
    }
    var page: [BoundExpr?] = []
    for count in [query.limit, query.offset] {
      guard let count else {
        page.append(nil)
        continue
      }
      let bound = checker.count(count)
      if bound == nil { ok = false }
      page.append(bound)
    }
    guard ok else { return checker.result(nil) }
    return checker.result(
      BoundQuery(filter: filter ?? nil, ordering: ordering, limit: page[0], offset: page[1]))
  }

  /// The type of `expr`, with the diagnostics its checking produces.
  public static func type(
    of expr: Expr, schema: Schema, parameters: [String: ValueType] = [:],
    functions: FunctionRegistry = .builtins
  ) -> (type: ValueType?, diagnostics: [Diagnostic]) {
    let checker = Checker(schema: schema, parameters: parameters, functions: functions)
    let bound = checker.bind(expr)
    return (bound?.type, checker.diagnostics.sortedByPosition())
  }

  /// Binds `expr` as a value (a sort key, a counted field), with its diagnostics.
  public static func bind(
    _ expr: Expr, schema: Schema, parameters: [String: ValueType] = [:],
    functions: FunctionRegistry = .builtins
  ) -> Checked<BoundExpr> {
    let checker = Checker(schema: schema, parameters: parameters, functions: functions)
    return checker.result(checker.bind(expr))
  }

  func result<Tree>(_ tree: Tree?) -> Checked<Tree> {
    let sorted = diagnostics.sortedByPosition()
    return Checked(tree: sorted.hasErrors ? nil : tree, diagnostics: sorted)
  }

  /// `limit` or `offset`: an integer known before any record is read.
  private func count(_ expr: Expr) -> BoundExpr? {
    guard let bound = bind(expr) else { return nil }
    if bound.type != .int && bound.type != .null {
      report(
        .invalidOperand(
          "limit and offset take an integer, not \(bound.type)", at: expr.range))
      return nil
    }
    if !bound.fields.isEmpty {
      report(
        .invalidOperand(
          "limit and offset are counts known before the records are read; they cannot read a field",
          at: expr.range, help: "write a number or a parameter: limit 10, limit $n"))
      return nil
    }
    if case .int(let n)? = bound.constantValue, n < 0 {
      // (A negative count printed nothing, silently.)
      report(
        .invalidOperand(
          "limit and offset count records from 0, and \(n) is less", at: expr.range,
          help: "limit 0 keeps no record; offset 0 skips none"))
      return nil
    }
    return bound
  }

  let schema: Schema
  let parameters: [String: ValueType]
  let functions: FunctionRegistry
  /// The parameters' slots, in the order the engine binds them.
  let layout: ParameterLayout
  private(set) var diagnostics: [Diagnostic] = []
  /// The diagnostics reported, for saying each once in constant time.
  private var reported: Set<Diagnostic> = []

  init(schema: Schema, parameters: [String: ValueType], functions: FunctionRegistry) {
    self.schema = schema
    self.parameters = parameters
    self.functions = functions
    self.layout = ParameterLayout(parameters)
  }

  /// The type `expr` has when it binds, without reporting anything (nil when it has an error).
  func typeIfBound(_ expr: Expr) -> ValueType? {
    let (saved, savedReported) = (diagnostics, reported)
    defer { (diagnostics, reported) = (saved, savedReported) }
    return bind(expr)?.type
  }

  /// Adds `diagnostic`, once: `x in (1, 2)` checks `x == 1` and `x == 2`, and a warning about
  /// `x` would otherwise come twice.
  func report(_ diagnostic: Diagnostic) {
    if reported.insert(diagnostic).inserted { diagnostics.append(diagnostic) }
  }

  // MARK: Expressions

  /// The bound form of `expr`; nil when it has an error (already reported).
  ///
  /// This function and the ones it calls for each kind are on the recursive path, so each
  /// case is one call that keeps its temporaries in its own frame: a debug build must fit the
  /// deepest tree the parser accepts in a 512 KiB stack.
  func bind(_ expr: Expr) -> BoundExpr? {
    switch expr.kind {
    case .literal(let literal): constant(literal, expr.range)
    case .field(let path): field(path, expr.range)
    case .parameter(let name): parameter(name, expr.range)
    case .list(let items): list(items, expr.range)
    case .range(let lower, let upper, let kind): range(lower, upper, kind, expr.range)
    case .call(let name, let arguments): call(name, arguments, expr.range)
    case .negate(let operand): negate(operand, expr.range)
    case .not(let operand): not(operand, expr.range)
    case .arithmetic(let op, let left, let right): arithmetic(op, left, right, expr.range)
    case .logical(let op, let operands): logical(op, operands, expr.range)
    case .predicate(let subject, let condition): predicate(subject, condition, expr.range)
    case .quantified(let quantifier, let subject, let condition):
      quantified(quantifier, subject, condition, expr.range)
    case .exists(let path): exists(path, expr.range)
    case .filtered: filtered(expr)
    }
  }

  private func constant(_ literal: Literal, _ range: SourceRange) -> BoundExpr {
    BoundExpr(.constant(Value(literal)), type: ValueType(literal), range: range)
  }

  private func field(_ path: FieldPath, _ range: SourceRange) -> BoundExpr? {
    guard let field = field(path) else { return nil }
    return BoundExpr(.field(field), type: field.type, range: range)
  }

  private func exists(_ path: FieldPath, _ range: SourceRange) -> BoundExpr? {
    guard let field = field(path) else { return nil }
    return BoundExpr(.exists(field), type: .bool, range: range)
  }

  private func not(_ operand: Expr, _ range: SourceRange) -> BoundExpr? {
    guard let operand = requireBool(operand, what: "the operand of 'not'") else { return nil }
    return BoundExpr(.not(operand), type: .bool, range: range)
  }

  /// Checks that `expr` is true or false (or null); its bound form, or nil after an error.
  @discardableResult
  func requireBool(_ expr: Expr, what: String) -> BoundExpr? {
    guard let bound = bind(expr) else { return nil }
    if bound.type == .bool || bound.type == .null { return bound }
    report(
      .notABoolean(
        describe(expr, bound.type), at: expr.range, help: boolHelp(expr, bound.type)))
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

  private func logical(_ op: LogicalOperator, _ operands: [Expr], _ range: SourceRange)
    -> BoundExpr?
  {
    var bound: [BoundExpr] = []
    var ok = true
    for operand in operands {
      if let operand = requireBool(operand, what: "an operand of '\(op.rawValue)'") {
        bound.append(operand)
      } else {
        ok = false
      }
    }
    return ok ? BoundExpr(.logical(op, bound), type: .bool, range: range) : nil
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

  /// Resolves a field path in the schema (``Schema/resolve(_:)``), reporting the first name
  /// that does not exist.
  func field(_ path: FieldPath) -> FieldRef? {
    switch schema.resolve(path) {
    case .success(let field):
      return field
    case .failure(.unknown(let index, let fields)):
      let name = path.components[index]
      let suggestion = Suggestion.closest(to: name.text, among: fields.names)
      var diagnostic = Diagnostic.unknownField(
        name.text, in: index == 0 ? nil : path.components[index - 1].text,
        suggestion: suggestion, fields: fields.names, at: name.range)
      if index == 0, suggestion == nil, let list = Checker.list(holding: name.text, in: schema) {
        diagnostic.help = Diagnostic.recordsInAList(name.text, list)
      }
      report(diagnostic)
      return nil
    case .failure(.notARecord(let index, let field)):
      report(
        .notARecord(
          field.name, what: field.type.description, at: path.components[index].range))
      return nil
    }
  }

  /// The dotted path of a list of records, at most three records down, whose records have a
  /// field `name`: the records a JSON document holds (`{"meta": ..., "tweets": [...]}`) when a
  /// filter names their fields.
  static func list(holding name: String, in schema: Schema, depth: Int = 0) -> String? {
    guard depth < 3 else { return nil }
    for field in schema.fields {
      switch field.type {
      case .list(.record(let inner)) where inner.field(named: name) != nil:
        return Name.written(field.name, step: depth > 0)
      case .record(let inner):
        if let path = list(holding: name, in: inner, depth: depth + 1) {
          return Name.written(field.name, step: depth > 0) + "." + path
        }
      default: continue
      }
    }
    return nil
  }

  private func parameter(_ name: Name, _ range: SourceRange) -> BoundExpr? {
    if let (slot, type) = layout.slots[name.text] {
      return BoundExpr(
        .parameter(ParameterRef(name: name.text, slot: slot, type: type)), type: type,
        range: range)
    }
    let suggestion = Suggestion.closest(to: name.text, among: parameters.keys)
    report(.unknownParameter(name.text, suggestion: suggestion, at: name.range))
    return nil
  }

  private func call(_ name: Name, _ arguments: [Expr], _ range: SourceRange) -> BoundExpr? {
    var bound: [BoundExpr?] = []
    for argument in arguments { bound.append(bind(argument)) }
    return resolve(name, arguments, bound, range)
  }

  /// A call whose arguments are bound (nil for those with errors): the function, its arity
  /// and type rule.
  private func resolve(
    _ name: Name, _ arguments: [Expr], _ bound: [BoundExpr?], _ range: SourceRange
  ) -> BoundExpr? {
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
    let known = bound.compactMap { $0 }
    guard known.count == bound.count else { return nil }
    var types = known.map(\.type)
    // A list given first to a function of single values: the function applies to each element.
    var mapped = false
    if function.mapsOverList(count: types.count), case .list(let element) = types.first {
      types[0] = element
      mapped = true
    }
    let reference = FunctionRef(definition: function, mapsOverList: mapped)
    switch function.resultType(types) {
    case .success(let result) where mapped:
      return BoundExpr(.call(reference, known), type: .list(result), range: range)
    case .success(let result):
      let literals = arguments.map { argument -> Literal? in
        if case .literal(let literal) = argument.kind { return literal }
        return nil
      }
      if let error = function.checkLiterals(literals) {
        report(.invalidArguments(error.message, at: range))
        return nil
      }
      return BoundExpr(.call(reference, known), type: result, range: range)
    case .failure(let error):
      report(.invalidArguments(error.message, at: range))
      return nil
    }
  }

  static func isOrderable(_ type: ValueType) -> Bool {
    switch type {
    // (Mixed values have no one order: a list and a number do not compare.)
    case .list, .record, .any: false
    default: true
    }
  }
}
