/// The built-in functions.
enum BuiltinFunctions {
  static let all: [FunctionDefinition] =
    core + textFunctions + positions + dateFunctions + conversions + conditionals + geography
    + listAggregates

  private static let core: [FunctionDefinition] = [
    textFunction("lower") { $0.lowercased() },
    textFunction("upper") { $0.uppercased() },
    FunctionDefinition(
      name: "len", arity: 1...1,
      resultType: { types in
        switch types[0] {
        case .string, .list, .any, .null: .success(.int)
        default: .failure(TypeRuleError("len takes text or a list, not \(types[0])"))
        }
      },
      takesLists: true,
      evaluate: { args, _ in
        switch args[0] {
        case .string(let s): .success(.int(Int64(s.count)))
        case .list(let items): .success(.int(Int64(items.count)))
        // (Of mixed values: an object's keys; other values have no length.)
        case .object(let object): .success(.int(Int64(object.keys.count)))
        default: .success(.null)
        }
      }),
    FunctionDefinition(
      name: "abs", arity: 1...1,
      resultType: { types in
        switch types[0] {
        case .int, .double, .decimal, .duration, .null:
          .success(types[0] == .null ? .int : types[0])
        default: .failure(TypeRuleError("abs takes a number or a duration, not \(types[0])"))
        }
      },
      evaluate: { args, _ in
        switch args[0] {
        case .int(let i): Arithmetic.abs(i).map { .int($0) }
        case .double(let d): .success(.double(Swift.abs(d)))
        case .decimal(let d): .success(.decimal(d.significand < 0 ? d.negated : d))
        case .duration(let span):
          Arithmetic.abs(span.nanoseconds).map { .duration(TimeSpan(nanoseconds: $0)) }
        default: .success(.null)
        }
      }),
    rounding("round", .toNearestOrAwayFromZero),
    rounding("floor", .down),
    rounding("ceil", .up),

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
        case .decimal(let d):
          return d.rounded(rule).map { .success(.int($0)) } ?? .failure(.integerOverflow)
        default: return .success(.null)
        }
      })
  }
}
