import FilterDSL

/// Calls of functions: flt's own where SQL gives the same value (null where flt's is null,
/// faults included), and the embedder's as ``SQLTable/functions`` spells them.
extension SQLWriter {
  /// `function` called with `arguments`, of type `type`; nil when SQL cannot give its value.
  mutating func call(_ function: FunctionRef, _ arguments: [BoundExpr], type: ValueType)
    -> String?
  {
    guard !function.mapsOverList else { return nil }
    depth += 4
    defer { depth -= 4 }
    guard depth <= Self.maximumDepth else { return nil }
    guard function.definition.isBuiltin else {
      guard let spelling = table.functions[function.name],
        let written = values(of: arguments)
      else { return nil }
      return spelling.call(written)
    }
    switch (function.name, arguments.count) {
    case ("abs", 1): return absolute(arguments[0])
    case ("len", 1): return length(arguments[0])
    case ("coalesce", 1): return sameType(arguments, type).flatMap { values(of: $0)?[0] }
    case ("coalesce", _):
      guard let written = sameType(arguments, type).flatMap({ values(of: $0) }) else { return nil }
      guard dialect == .postgresql else { return "coalesce(\(written.joined(separator: ", ")))" }
      // CASE, which postgres_fdw sends to a shard (COALESCE it keeps on the coordinator).
      return once(written) { written in
        "(CASE "
          + written.dropLast().map { "WHEN \($0) IS NOT NULL THEN \($0) " }.joined()
          + "ELSE \(written[written.count - 1]) END)"
      }
    case ("if", 3):
      guard sameType(Array(arguments.dropFirst()), type) != nil,
        let condition = truth(arguments[0]), condition.exact,
        let then = value(arguments[1]), let otherwise = value(arguments[2])
      else { return nil }
      return "(CASE WHEN \(condition.text) THEN \(then) ELSE \(otherwise) END)"
    case ("nullif", 2):
      // NULL where `a == b` holds, written as the comparison would be.
      let equal = BoundExpr(
        .predicate(arguments[0], BoundCondition(.compare(.equal, arguments[1], []))), type: .bool)
      guard arguments[0].type == type, let condition = truth(equal), condition.exact,
        let value = value(arguments[0])
      else { return nil }
      return "(CASE WHEN \(condition.text) THEN NULL ELSE \(value) END)"
    case ("min", _), ("max", _):
      return extremum(function.name, arguments, type)
    case ("floor", 1), ("ceil", 1), ("round", 1):
      return rounded(function.name, arguments[0])
    case ("lower", 1), ("upper", 1), ("trim", 1), ("replace", 3), ("indexOf", 2),
      ("substring", 2), ("substring", 3):
      return text(function.name, arguments)
    default:
      return nil
    }
  }

  /// Each of `arguments` written, or nil.
  private mutating func values(of arguments: [BoundExpr]) -> [String]? {
    var written: [String] = []
    for argument in arguments {
      guard let value = value(argument) else { return nil }
      written.append(value)
    }
    return written
  }

  /// `arguments` when each is of type `type` (or null): a function returning one of them
  /// returns it unconverted in flt (an integer stays one where the type says decimal).
  private func sameType(_ arguments: [BoundExpr], _ type: ValueType) -> [BoundExpr]? {
    arguments.allSatisfy { $0.type == type || $0.type == .null } ? arguments : nil
  }

  /// `abs(x)`: NULL for the one integer whose absolute value overflows (flt's fault; SQL
  /// raises an error).
  private mutating func absolute(_ argument: BoundExpr) -> String? {
    let type = argument.type
    guard
      type == .int || type == .double || (type == .duration && dialect == .sqlite)
        || (type == .decimal && dialect == .postgresql),
      let x = value(argument)
    else { return nil }
    guard type != .double && type != .decimal else { return "abs(\(x))" }
    return once(x) { x in
      "(CASE WHEN \(x) = -9223372036854775807 - 1 THEN NULL ELSE abs(\(x)) END)"
    }
  }

  /// `len(x)`: the elements of a list column, or the characters of text (code points, so on
  /// printable ASCII only).
  private mutating func length(_ argument: BoundExpr) -> String? {
    if argument.type.isList {
      guard case .field(let field) = argument.kind, let list = column(field) else { return nil }
      return dialect == .sqlite ? "json_array_length(\(list))" : "jsonb_array_length(\(list))"
    }
    guard argument.type == .string, let x = value(argument), requireASCII(argument) else {
      return nil
    }
    return "length(\(x))"
  }

  /// `min` / `max` of values of one kind (integers with decimals as decimals): NULL when one
  /// is null (or NaN), as in flt.
  private mutating func extremum(_ name: String, _ arguments: [BoundExpr], _ type: ValueType)
    -> String?
  {
    // (A decimal constant among doubles is its nearest double.)
    let arguments = arguments.map { Self.standIn($0, against: type) }
    guard [.int, .double, .string, .date, .dateTime, .time, .duration].contains(type),
      arguments.allSatisfy({ $0.type == type || ($0.type == .int && type == .double) }),
      var written = values(of: arguments)
    else { return nil }
    for (index, argument) in arguments.enumerated() where argument.type != type {
      written[index] =
        dialect == .sqlite ? "CAST(\(written[index]) AS REAL)" : "(\(written[index]))::float8"
    }
    switch dialect {
    case .sqlite:
      // SQLite's min and max of several values are NULL when one is.
      return "\(name)(\(written.joined(separator: ", ")))"
    case .postgresql:
      // LEAST and GREATEST pass over NULLs (and postgres_fdw keeps them on the coordinator):
      // NULL when a value is null (or NaN), else the first value at or beyond every later one.
      return once(written) { xs in
        let missing = xs.map { "\($0) IS NULL" + (type == .double ? " OR \($0) = 'NaN'" : "") }
        let beyond = name == "min" ? "<=" : ">="
        let firsts = xs.indices.dropLast().map { i in
          let tests = xs[(i + 1)...].map {
            "\(ordered(xs[i], type)) \(beyond) \(ordered($0, type))"
          }
          return "WHEN \(tests.joined(separator: " AND ")) THEN \(xs[i]) "
        }
        return "(CASE WHEN \(missing.joined(separator: " OR ")) THEN NULL "
          + firsts.joined() + "ELSE \(xs[xs.count - 1]) END)"
      }
    }
  }

  /// `floor`, `ceil` or `round` (halves away from zero) of a number, as an integer: NULL
  /// where flt faults (beyond the integers, infinite, NaN). From the integral part `t` and
  /// the fraction `x - t`, which a double holds exactly.
  private mutating func rounded(_ name: String, _ argument: BoundExpr) -> String? {
    // (A decimal: PostgreSQL's `numeric`, exactly; SQLite has none.)
    guard argument.type.isNumeric, argument.type != .decimal || dialect == .postgresql,
      let x = value(argument)
    else { return nil }
    guard argument.type != .int else { return x }
    let truth = dialect == .postgresql ? "::int" : ""
    return once(x) { x in
      let t = dialect == .postgresql ? "trunc(\(x))::bigint" : "CAST(\(x) AS INTEGER)"
      let result: String
      switch name {
      case "floor": result = "\(t) - (\(x) < \(t))\(truth)"
      case "ceil": result = "\(t) + (\(x) > \(t))\(truth)"
      default: result = "\(t) + (\(x) - \(t) >= 0.5)\(truth) - (\(x) - \(t) <= -0.5)\(truth)"
      }
      return
        "(CASE WHEN \(x) >= -9.223372036854775808e18 AND \(x) < 9.223372036854775808e18 THEN \(result) END)"
    }
  }

  /// Text functions, exact on printable ASCII text (see `SQLWriter+Narrowing.swift`): `lower`,
  /// `upper`, `trim`, `replace`, `indexOf` and `substring` (positions from 0, a negative
  /// start from the end, clamped to the text).
  private mutating func text(_ name: String, _ arguments: [BoundExpr]) -> String? {
    guard arguments[0].type == .string, var written = values(of: arguments),
      arguments.allSatisfy({ requireASCII($0) })
    else { return nil }
    let postgres = dialect == .postgresql
    switch name {
    case "lower", "upper":
      return postgres ? "\(name)(\(byteOrdered(written[0])))" : "\(name)(\(written[0]))"
    case "trim": return postgres ? "btrim(\(written[0]))" : "trim(\(written[0]))"
    case "replace": return "replace(\(written.joined(separator: ", ")))"
    case "indexOf":
      return "(\(postgres ? "strpos" : "instr")(\(written[0]), \(written[1])) - 1)"
    default:
      if written.count == 2 { written.append("NULL") }
      return once(written) { v in
        let (s, start, length) = (v[0], v[1], v[2])
        let (larger, smaller) = postgres ? ("GREATEST", "LEAST") : ("max", "min")
        let count = "length(\(s))"
        let from =
          "(CASE WHEN \(start) < 0 THEN \(larger)(0, \(count) + \(start)) ELSE \(smaller)(\(start), \(count)) END)"
        let to =
          arguments.count == 2
          ? count
          : "(CASE WHEN \(length) <= 0 THEN \(from) WHEN \(length) >= \(count) - \(from) THEN \(count) ELSE \(from) + \(length) END)"
        let first = "\(smaller)(\(from), \(to))"
        let cast = postgres ? "::int" : ""
        let nulls = [s, start] + (arguments.count == 3 ? [length] : [])
        return
          "(CASE WHEN \(nulls.map { "\($0) IS NULL" }.joined(separator: " OR ")) THEN NULL "
          + "ELSE substr(\(s), (\(first) + 1)\(cast), (\(to) - \(first))\(cast)) END)"
      }
    }
  }
}
