/// Checking `stats`: each column one aggregate of a value, each key a value to group by.
extension Checker {
  /// Checks and binds `stats`: its filter must be true or false for each record, each key a
  /// value (or a list of values), each item an aggregate of a value it takes (`sum` of
  /// numbers or durations, `min` of what can be ordered), or a value alone, which stands for
  /// its summary (count, min, max, and sum and mean for numbers and durations). Two columns
  /// may not share a name.
  public static func check(
    _ stats: StatsQuery, schema: Schema, parameters: [String: ValueType] = [:],
    functions: FunctionRegistry = .builtins
  ) -> Checked<BoundStats> {
    let checker = Checker(schema: schema, parameters: parameters, functions: functions)
    var ok = true
    let filter = stats.filter.map { filter in
      checker.noAggregate(in: filter, "the filter")
        ? checker.requireBool(filter, what: "the filter") : nil
    }
    if case .some(nil) = filter { ok = false }
    var names: [String] = []
    func named(_ name: String, _ item: SelectItem) -> Bool {
      guard !names.contains(name) else {
        checker.report(
          Diagnostic(
            .invalidAggregate, at: item.alias?.range ?? item.expr.range,
            message: "two columns are called '\(name)'",
            help: "name one of them: \(item.expr) as another_name"))
        return false
      }
      names.append(name)
      return true
    }
    var groups: [BoundGroupKey] = []
    for item in stats.groups {
      guard checker.noAggregate(in: item.expr, "a key of 'by'"),
        let bound = checker.bind(item.expr)
      else {
        ok = false
        continue
      }
      switch bound.type {
      case .record, .list(.record), .list(.list):
        checker.report(
          .invalidOperand(
            "cannot group by \(checker.describe(item.expr, bound.type))", at: item.expr.range,
            help: "group by one of its fields, such as '\(item.expr).<name>'"))
        ok = false
      default:
        if named(item.name, item) { groups.append(BoundGroupKey(bound, name: item.name)) }
      }
    }
    var aggregates: [BoundAggregate] = []
    for item in stats.items {
      guard let column = checker.aggregates(item) else {
        ok = false
        continue
      }
      for aggregate in column where named(aggregate.name, item) { aggregates.append(aggregate) }
    }
    if !ok || checker.diagnostics.hasErrors { return checker.result(nil) }
    var bound = BoundStats(groups: groups, aggregates: aggregates, filter: filter ?? nil)
    guard checker.arrange(&bound, as: stats) else { return checker.result(nil) }
    return checker.result(bound)
  }

  /// Resolves the `order by` keys of `stats` to the columns they name, and its `limit` and
  /// `offset` to whole numbers; false after an error.
  private func arrange(_ bound: inout BoundStats, as stats: StatsQuery) -> Bool {
    let names = bound.schema.names
    for key in stats.ordering {
      let written = Checker.columnName(of: key.key)
      guard let column = names.firstIndex(of: written) else {
        report(
          Diagnostic(
            .invalidAggregate, at: key.key.range,
            message: "no column of the stats is called '\(written)'",
            help: "order by one of the columns: "
              + names.map { "'\($0)'" }.joined(separator: ", ")))
        return false
      }
      bound.ordering.append(
        StatsOrder(column: column, direction: key.direction, nullsFirst: key.nulls == .first))
    }
    for (expr, clause) in [(stats.limit, "limit"), (stats.offset, "offset")] {
      guard let expr else { continue }
      guard let value = bind(expr)?.constant, case .int(let n) = value, n >= 0 else {
        report(
          .invalidOperand(
            "the \(clause) of stats is a whole number written in it, from 0", at: expr.range,
            help: "write a number: \(clause) 10"))
        return false
      }
      if clause == "limit" { bound.limit = Int(n) } else { bound.offset = Int(n) }
    }
    return true
  }

  /// The name of the column a key of `order by` names: an aggregate as its column is named
  /// (`count()`, `mean(price)`), a single name as written (an `as` name), anything else as
  /// printed.
  static func columnName(of key: Expr) -> String {
    switch key.kind {
    case .call(let name, let arguments) where Aggregate.called(by: key) != nil:
      return "\(name.text)(\(arguments.map(\.description).joined(separator: ", ")))"
    case .field(let path) where path.components.count == 1:
      return path.components[0].text
    default:
      return key.description
    }
  }

  /// The aggregates one item stands for: itself when it is an aggregate's call, else the
  /// summary of its value. Nil after an error (reported).
  private func aggregates(_ item: SelectItem) -> [BoundAggregate]? {
    if let (function, name, arguments) = Aggregate.called(by: item.expr) {
      let arity = function.arity
      guard arity.contains(arguments.count) else {
        report(
          .wrongArity(name.text, expected: arity, got: arguments.count, at: item.expr.range))
        return nil
      }
      // Named as written, without the quotes a callee named like a statement word needs.
      let column = item.alias?.text ?? Checker.columnName(of: item.expr)
      guard let argument = arguments.first else {
        return [BoundAggregate(.count, of: nil, name: column, type: .int)]
      }
      guard noAggregate(in: argument, "the value of \(name.text)"),
        let bound = bind(argument)
      else { return nil }
      guard let type = function.resultType(of: bound.type) else {
        let takes =
          switch function {
          case .sum, .mean: "numbers, durations or true/false values"
          case .median, .quantile: "numbers"
          default: "values that can be ordered"
          }
        report(
          .invalidOperand(
            "\(name.text) takes \(takes), not \(describe(argument, bound.type))",
            at: argument.range,
            help: Checker.isList(bound.type) && functions.definition(named: name.text) != nil
              ? "\(name.text) of each record's list first: \(name.text)(\(name.text)(\(argument)))"
              : function == .sum || function == .mean
                ? "count(\(argument)) counts its values (those not null), distinct(\(argument)) its different values"
                : "count(\(argument)) counts its values (those not null)"))
        return nil
      }
      var aggregate = BoundAggregate(function, of: bound, name: column, type: type)
      if function == .quantile {
        guard let fraction = self.fraction(arguments[1]) else { return nil }
        aggregate.fraction = fraction
      }
      return [aggregate]
    }
    guard noAggregate(in: item.expr, "a column of stats"), let bound = bind(item.expr) else {
      return nil
    }
    let label = item.alias?.text ?? item.expr.description
    return [Aggregate.count, .min, .max, .sum, .mean].compactMap { function in
      function.resultType(of: bound.type).map {
        BoundAggregate(function, of: bound, name: "\(function.rawValue)(\(label))", type: $0)
      }
    }
  }

  /// The fraction of `quantile(x, p)`: a number written in the statement, from 0 to 1.
  private func fraction(_ expr: Expr) -> Double? {
    let value = bind(expr)?.constant
    let fraction: Double? =
      switch value {
      case .int(let i): Double(i)
      case .double(let d): d
      case .decimal(let d): d.doubleValue
      default: nil
      }
    guard let fraction, fraction >= 0 && fraction <= 1 else {
      report(
        .invalidOperand(
          "the fraction of quantile is a number from 0 to 1 written in it", at: expr.range,
          help: "quantile(delay, 0.9) is the value 90% of the way through the delays"))
      return nil
    }
    return fraction
  }

  /// Whether `expr` calls no aggregate (reported when it does: an aggregate is a whole column,
  /// never a part of one, and not inside `where` or `by`). `max(a, b)` is a function, and so
  /// is an aggregate's name called with one list: `sum(items.price)` adds up a record's list.
  private func noAggregate(in expr: Expr, _ place: String) -> Bool {
    var found: Expr? = nil
    func visit(_ expr: Expr) -> Expr {
      if found != nil { return expr }
      if let (_, name, arguments) = Aggregate.called(by: expr),
        !(arguments.count == 1 && functions.definition(named: name.text) != nil
          && typeIfBound(arguments[0]).map(Checker.isList) == true)
      {
        found = expr
        return expr
      }
      return expr.mappingChildren(visit)
    }
    _ = visit(expr)
    guard let found else { return true }
    report(
      Diagnostic(
        .invalidAggregate, at: found.range,
        message: "\(found) is an aggregate, and cannot be part of \(place)",
        help: "write each aggregate as a column of its own: stats \(found), ..."))
    return false
  }
}
