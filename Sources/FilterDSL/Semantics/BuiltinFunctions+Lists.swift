/// Aggregates of a list's elements: `sum(items.price)`, `mean(scores)` (also `avg`),
/// `min(scores)`, `max(scores)`, `count(children where age > 12)`; nulls are passed over, as SQL's aggregates pass them over,
/// and a list with no value gives null. They compute as `stats` does (integers exactly,
/// decimals with compensation), through the same accumulator. `min` and `max` of two values or
/// more are the functions of those values.
extension BuiltinFunctions {
  static let listAggregates: [FunctionDefinition] = [
    listAggregate(.sum, "sum", example: "sum(items.price) > 100"),
    listAggregate(.mean, "mean", example: "mean(scores) >= 4"),
    FunctionDefinition(
      name: "count", arity: 1...1,
      resultType: { types in
        switch types[0] {
        case .list, .null: .success(.int)
        default:
          .failure(
            TypeRuleError(
              "count takes a list, not \(types[0]): count(children where age > 12); "
                + "over the records, count(x) is a column of stats"))
        }
      },
      takesLists: true,
      evaluate: { args, _ in
        guard case .list(let items) = args[0] else { return .success(.null) }
        return aggregate(.count, items)
      }),
    extremum("min", .min, pickFirst: true),
    extremum("max", .max, pickFirst: false),
  ]

  /// `name(list)`: `function` of the list's elements.
  private static func listAggregate(_ function: Aggregate, _ name: String, example: String)
    -> FunctionDefinition
  {
    FunctionDefinition(
      name: name, arity: 1...1,
      resultType: { types in
        switch types[0] {
        case .null: return .success(.null)
        case .list(let element):
          if let type = function.resultType(of: element) { return .success(type) }
        default: break
        }
        return .failure(
          TypeRuleError(
            "\(name) takes a list of numbers or durations, not \(types[0]): \(example); "
              + "over the records, \(name)(x) is a column of stats"))
      },
      takesLists: true,
      evaluate: { args, _ in
        guard case .list(let items) = args[0] else { return .success(.null) }
        return aggregate(function, items)
      })
  }

  /// `function` of `items`, as `stats` computes it; a value it cannot take, or an integer sum
  /// beyond 64 bits, is a fault.
  static func aggregate(_ function: Aggregate, _ items: [Value]) -> Result<Value, Fault> {
    var accumulator = StatsAccumulator(function)
    var faults = FaultCounts()
    var type: ValueType = .null
    for item in items {
      accumulator.add(item, &faults)
      // The widest kind met: an integer sum stays one, an exact decimal makes it one, a
      // double a double.
      switch item {
      case .int where type == .null: type = .int
      case .decimal where type == .null || type == .int: type = .decimal
      case .double: type = .double
      case .duration: type = .duration
      default: break
      }
    }
    if function == .mean && (type == .int || type == .decimal) { type = .double }
    let (value, beyond) = accumulator.result(as: type, &faults)
    if beyond { return .failure(.integerOverflow) }
    if let fault = Fault.allCases.first(where: { faults[$0] > 0 }) {
      return .failure(fault)
    }
    // The least of 1 and 2.5 is the decimal 1.0, as the list's type says.
    return .success(function == .min || function == .max ? value.converted(toNumber: type) : value)
  }

  /// `min(a, b, ...)` and `max(a, b, ...)` of values, or of one list's elements.
  private static func extremum(_ name: String, _ function: Aggregate, pickFirst: Bool)
    -> FunctionDefinition
  {
    var definition = FunctionDefinition(
      name: name, arity: 1...64,
      resultType: { types in
        if types.count == 1 {
          switch types[0] {
          case .null: return .success(.null)
          case .list(let element) where Checker.isOrderable(element): return .success(element)
          default:
            return .failure(
              TypeRuleError(
                "\(name) takes a list, or two values or more, not \(types[0]) alone: "
                  + "\(name)(scores) or \(name)(price, 100)"))
          }
        }
        let known = types.filter { $0 != .null }
        guard let first = known.first else { return .success(.null) }
        if known.allSatisfy(\.isNumeric) {
          return .success(known.dropFirst().reduce(first) { Checker.unify($0, $1) ?? .double })
        }
        if known.allSatisfy({ $0 == first }), first != .bool, Checker.isOrderable(first) {
          return .success(first)
        }
        return .failure(
          TypeRuleError("\(name) takes values of one kind, all numbers, all text or all dates"))
      },
      evaluate: { args, _ in
        if args.count == 1, case .list(let items) = args[0] {
          return aggregate(function, items)
        }
        var best: Value? = nil
        for arg in args {
          guard let current = best else {
            best = arg
            continue
          }
          guard let order = ValueOrder.compare(arg, current) else { return .success(.null) }
          if pickFirst ? order < 0 : order > 0 { best = arg }
        }
        // Mixed numbers: the result is of the widest kind, as the type says.
        guard let chosen = best else { return .success(.null) }
        if args.contains(where: { if case .double = $0 { true } else { false } }) {
          return .success(chosen.converted(toNumber: .double))
        }
        if args.contains(where: { if case .decimal = $0 { true } else { false } }) {
          return .success(chosen.converted(toNumber: .decimal))
        }
        return .success(chosen)
      })
    definition.takesListAlone = true
    return definition
  }
}
