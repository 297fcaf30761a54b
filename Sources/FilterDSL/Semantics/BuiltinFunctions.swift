/// The built-in functions.
enum BuiltinFunctions {
  static let all: [FunctionDefinition] =
    core + textFunctions + positions + dateFunctions + conversions + conditionals + geography

  private static let core: [FunctionDefinition] = [
    textFunction("lower") { $0.lowercased() },
    textFunction("upper") { $0.uppercased() },
    FunctionDefinition(
      name: "len", arity: 1...1,
      resultType: { types in
        switch types[0] {
        case .string, .list, .null: .success(.int)
        default: .failure(TypeRuleError("len takes text or a list, not \(types[0])"))
        }
      },
      takesLists: true,
      evaluate: { args, _ in
        switch args[0] {
        case .string(let s): .success(.int(Int64(s.count)))
        case .list(let items): .success(.int(Int64(items.count)))
        default: .success(.null)
        }
      }),
    FunctionDefinition(
      name: "abs", arity: 1...1,
      resultType: { types in
        switch types[0] {
        case .int, .double, .duration, .null: .success(types[0] == .null ? .int : types[0])
        default: .failure(TypeRuleError("abs takes a number or a duration, not \(types[0])"))
        }
      },
      evaluate: { args, _ in
        switch args[0] {
        case .int(let i): Arithmetic.abs(i).map { .int($0) }
        case .double(let d): .success(.double(Swift.abs(d)))
        case .duration(let span):
          Arithmetic.abs(span.nanoseconds).map { .duration(TimeSpan(nanoseconds: $0)) }
        default: .success(.null)
        }
      }),
    rounding("round", .toNearestOrAwayFromZero),
    rounding("floor", .down),
    rounding("ceil", .up),
    extremum("min", pickFirst: true),
    extremum("max", pickFirst: false),
    FunctionDefinition(
      name: "now", arity: 0...0, resultType: { _ in .success(.dateTime) },
      evaluate: { _, context in .success(.dateTime(context.now)) }),
    FunctionDefinition(
      name: "today", arity: 0...0, resultType: { _ in .success(.date) },
      evaluate: { _, context in .success(.date(TimeArithmetic.day(of: context.now))) }),
  ]

  static func textFunction(
    _ name: String, _ transform: @escaping @Sendable (String) -> String
  ) -> FunctionDefinition {
    FunctionDefinition(
      name: name, arity: 1...1,
      resultType: { types in
        types[0] == .string || types[0] == .null
          ? .success(.string) : .failure(TypeRuleError("\(name) takes text, not \(types[0])"))
      },
      evaluate: { args, _ in
        if case .string(let s) = args[0] { return .success(.string(transform(s))) }
        return .success(.null)
      })
  }

  private static func rounding(_ name: String, _ rule: FloatingPointRoundingRule)
    -> FunctionDefinition
  {
    FunctionDefinition(
      name: name, arity: 1...1,
      resultType: { types in
        types[0].isNumeric || types[0] == .null
          ? .success(.int) : .failure(TypeRuleError("\(name) takes a number, not \(types[0])"))
      },
      evaluate: { args, _ in
        switch args[0] {
        case .int(let i): return .success(.int(i))
        case .double(let d):
          let rounded = d.rounded(rule)
          guard rounded.isFinite else { return .failure(.invalidConversion) }
          guard let value = Int64(exactly: rounded) else { return .failure(.integerOverflow) }
          return .success(.int(value))
        default: return .success(.null)
        }
      })
  }

  private static func extremum(_ name: String, pickFirst: Bool) -> FunctionDefinition {
    FunctionDefinition(
      name: name, arity: 2...64,
      resultType: { types in
        let known = types.filter { $0 != .null }
        guard let first = known.first else { return .success(.null) }
        if known.allSatisfy(\.isNumeric) {
          return .success(known.contains(.double) ? .double : .int)
        }
        if known.allSatisfy({ $0 == first }), first != .bool, !Self.isCollection(first) {
          return .success(first)
        }
        return .failure(
          TypeRuleError("\(name) takes values of one kind, all numbers, all text or all dates"))
      },
      evaluate: { args, _ in
        var best: Value? = nil
        for arg in args {
          guard let current = best else {
            best = arg
            continue
          }
          guard let order = ValueOrder.compare(arg, current) else { return .success(.null) }
          if pickFirst ? order < 0 : order > 0 { best = arg }
        }
        // Mixed int and double: the result is a double, like the type says.
        if let chosen = best, case .int(let i) = chosen,
          args.contains(where: { if case .double = $0 { true } else { false } })
        {
          return .success(.double(Double(i)))
        }
        return .success(best ?? .null)
      })
  }

  private static func isCollection(_ type: ValueType) -> Bool {
    switch type {
    case .list, .record: true
    default: false
    }
  }
}
