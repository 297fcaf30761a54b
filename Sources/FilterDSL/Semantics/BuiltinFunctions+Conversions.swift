/// Casts: `int(x)`, `double(x)`, `decimal(x)`, `text(x)`, `bool(x)` (and `date(x)`, with the
/// dates), and `typeof(x)`, the kind of a value. A value that does not convert is null and
/// counted as a fault, never a trap.
extension BuiltinFunctions {
  static let conversions: [FunctionDefinition] = [
    // `typeof(x)`: the kind of the value, as `--schema` names types (`int`, `string`,
    // `list`, `record`, `null`): what tells the values of a field of mixed kinds apart.
    FunctionDefinition(
      name: "typeof", arity: 1...1, resultType: { _ in .success(.string) },
      lazy: { _, argument, _ in .success(.string(argument(0).kind.kindName)) }),
    cast("int", to: .int, from: [.int, .double, .decimal, .string, .bool]) { value in
      switch value {
      case .int: return .success(value)
      case .decimal(let d):
        return d.truncated.map { .success(.int($0)) } ?? .failure(.integerOverflow)
      case .double(let d):
        // Toward zero, as Swift, Python and SQLite truncate.
        guard d.isFinite else { return .failure(.invalidConversion) }
        guard let i = Int64(exactly: d.rounded(.towardZero)) else {
          return .failure(.integerOverflow)
        }
        return .success(.int(i))
      case .string(let text):
        guard let i = Int64(trimmed(text)) else { return .failure(.invalidConversion) }
        return .success(.int(i))
      case .bool(let b): return .success(.int(b ? 1 : 0))
      default: return .failure(.invalidConversion)
      }
    },
    cast("double", to: .double, from: [.int, .double, .decimal, .string, .bool]) { value in
      switch value {
      case .int(let i): return .success(.double(Double(i)))
      case .decimal(let d): return .success(.double(d.doubleValue))
      case .double: return .success(value)
      case .string(let text):
        let digits = trimmed(text)
        // Only numbers as the language writes them (no "nan", "inf", hexadecimal floats).
        guard let d = Double(digits), d.isFinite, digits.first?.isLetter == false,
          !digits.lowercased().contains("x")
        else { return .failure(.invalidConversion) }
        return .success(.double(d))
      case .bool(let b): return .success(.double(b ? 1 : 0))
      default: return .failure(.invalidConversion)
      }
    },
    // A double is the decimal it is written as (`2.55`), as DuckDB casts one.
    cast("decimal", to: .decimal, from: [.int, .double, .decimal, .string, .bool]) { value in
      switch value {
      case .int(let i): return .success(.decimal(ExactDecimal(i)))
      case .decimal: return .success(value)
      case .double(let d):
        return ExactDecimal(d).map { .success(.decimal($0)) } ?? .failure(.invalidConversion)
      case .string(let text):
        let digits = trimmed(text)
        let exact =
          ExactDecimal(digits)
          ?? (digits.first?.isLetter == false && !digits.lowercased().contains("x")
            ? Double(digits).flatMap(ExactDecimal.init) : nil)
        return exact.map { .success(.decimal($0)) } ?? .failure(.invalidConversion)
      case .bool(let b): return .success(.decimal(ExactDecimal(b ? 1 : 0)))
      default: return .failure(.invalidConversion)
      }
    },
    cast(
      "text", to: .string,
      from: [.int, .double, .decimal, .string, .bool, .date, .dateTime, .time, .duration]
    ) { value in
      if case .string = value { return .success(value) }
      // Other values as the language writes them: 2.5, true, 2022-09-16, 22:00:00, 7d.
      return .success(.string(value.description))
    },
    cast("bool", to: .bool, from: [.bool, .int, .string]) { value in
      switch value {
      case .bool: return .success(value)
      case .int(0): return .success(.bool(false))
      case .int(1): return .success(.bool(true))
      case .string(let text):
        switch trimmed(text).lowercased() {
        case "true", "1": return .success(.bool(true))
        case "false", "0": return .success(.bool(false))
        default: return .failure(.invalidConversion)
        }
      default: return .failure(.invalidConversion)
      }
    },
  ]

  private static func cast(
    _ name: String, to result: ValueType, from accepted: [ValueType],
    _ convert: @escaping @Sendable (Value) -> Result<Value, Fault>
  ) -> FunctionDefinition {
    FunctionDefinition(
      name: name, arity: 1...1,
      resultType: { types in
        accepted.contains(types[0]) || types[0] == .null
          ? .success(result)
          : .failure(
            TypeRuleError(
              "\(name) takes \(accepted.map(\.description).joined(separator: ", ")), not \(types[0])"
            ))
      },
      evaluate: { args, _ in convert(args[0]) })
  }
}
