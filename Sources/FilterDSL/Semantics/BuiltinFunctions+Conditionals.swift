/// `if(condition, then, else)`, `coalesce(a, b, ...)` and `nullif(a, b)`: they see nulls, and
/// evaluate only the arguments they need, so a branch not taken never counts a fault.
extension BuiltinFunctions {
  static let conditionals: [FunctionDefinition] = [
    FunctionDefinition(
      name: "if", arity: 3...3,
      resultType: { types in
        guard types[0] == .bool || types[0] == .null else {
          return .failure(
            TypeRuleError(
              "if takes a condition first, not \(types[0]): if(price > 1000, \"high\", \"low\")"))
        }
        guard let result = Checker.unify(types[1], types[2]) else {
          return .failure(
            TypeRuleError("if gives one kind of value, not \(types[1]) or \(types[2])"))
        }
        return .success(result)
      },
      lazy: { _, argument, _ in
        // An unknown condition takes the else branch, as SQL's CASE does.
        if case .bool(true) = argument(0) { return .success(argument(1)) }
        return .success(argument(2))
      }),
    FunctionDefinition(
      name: "coalesce", arity: 1...64,
      resultType: { types in
        var result: ValueType = .null
        for type in types {
          guard let unified = Checker.unify(result, type) else {
            return .failure(
              TypeRuleError("coalesce takes values of one kind, not \(result) and \(type)"))
          }
          result = unified
        }
        return .success(result)
      },
      lazy: { count, argument, _ in
        for index in 0..<count {
          let value = argument(index)
          if !value.isNull { return .success(value) }
        }
        return .success(.null)
      }),
    // SQL's NULLIF: null where `a == b` is true, else `a` (a null `b` leaves `a`).
    FunctionDefinition(
      name: "nullif", arity: 2...2,
      resultType: { types in
        guard Checker.comparable(types[0], types[1], .equal) || types.contains(.null) else {
          return .failure(
            TypeRuleError(
              "nullif compares two values of one kind, not \(types[0]) and \(types[1]): nullif(price, 0)"
            ))
        }
        return .success(types[0] == .null ? types[1] : types[0])
      },
      lazy: { _, argument, _ in
        let value = argument(0)
        guard !value.isNull else { return .success(.null) }
        let equal = ValueComparison.compare(.equal, value, argument(1), [])
        return .success(equal == .true ? .null : value)
      }),
  ]
}
