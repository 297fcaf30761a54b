import FilterDSL

/// Writes bound trees as SQL, collecting their values as parameters. Every method gives nil
/// when the node cannot be written exactly; a caller that gives up on a node throws the writer
/// away (it is a value), so no stray parameter is left behind.
struct SQLWriter {
  let dialect: SQLDialect
  let table: SQLTable
  /// The values of the query's parameters, by name.
  let values: [String: Value]
  private(set) var parameters: [SQLValue] = []
  /// What the value being written is exact only under (see `SQLWriter+Narrowing.swift`): the
  /// test written around it becomes a narrowing one.
  var unsure: [Unsure] = []

  /// Something a value written is exact only under.
  enum Unsure: Equatable {
    /// This text is printable ASCII.
    case ascii(String)
    /// This condition is true.
    case holds(String)
  }
  /// Inside `any kids (...)` over a list of records: the SQL of the element, a JSON record,
  /// whose fields the test reads (those of the table are out of scope there).
  var element: String?
  /// How deep the test being written is nested, in levels of parenthesised tests: a test
  /// counts one, arithmetic (a subquery around a `CASE`) four.
  var depth = 0
  /// The deepest nesting written: SQLite's parser overflows its stack past about 60 levels of
  /// parenthesised tests, or 14 of arithmetic (flt allows 100), so deeper parts stay in flt.
  static let maximumDepth = 24

  /// The time `now()` and `today()` read, if known.
  let now: Instant?

  init(_ dialect: SQLDialect, _ table: SQLTable, values: [String: Value], now: Instant? = nil) {
    self.dialect = dialect
    self.table = table
    self.values = values
    self.now = now
  }

  /// A placeholder for `value`, of type `type`; nil when the dialect cannot hold it exactly.
  mutating func bind(_ value: Value, _ type: ValueType) -> String? {
    if case .null = value { return "NULL" }
    guard let encoded = dialect.encode(value) else { return nil }
    parameters.append(encoded)
    return dialect.placeholder(parameters.count, type)
  }

  /// A placeholder for `text` read as a value of the PostgreSQL type `type` (`jsonb`,
  /// `jsonpath`): the parameter is of that type itself, not text converted, which
  /// `postgres_fdw` would not send to a shard.
  mutating func bind(_ text: String, as type: String) -> String {
    parameters.append(.text(text))
    return "$\(parameters.count)::\(type)"
  }

  /// Runs `write` on a copy, and keeps the copy only when it succeeds.
  mutating func attempt<T>(_ write: (inout SQLWriter) -> T?) -> T? {
    var trial = self
    guard let result = write(&trial) else { return nil }
    self = trial
    return result
  }

  // MARK: Values

  /// `expr` as a SQL value that is NULL where flt's is null, and equal to it elsewhere.
  mutating func value(_ expr: BoundExpr) -> String? {
    switch expr.kind {
    case .call, .arithmetic, .negate:
      if let value = fieldFree(expr) { return value }
    default:
      break
    }
    switch expr.kind {
    case .constant(let value):
      return Self.fits(value, expr.type) ? bind(value, expr.type) : nil
    case .parameter(let parameter):
      let value = values[parameter.name] ?? .null
      return Self.fits(value, expr.type) ? bind(value, expr.type) : nil
    case .field(let field):
      guard dialect.comparesExactly(field.type) else { return nil }
      if field.isTopLevel && element == nil { return column(field) }
      // A scalar in a nested record, as JSON keeps it: numbers, text, true or false, dates
      // (date-times and durations are text of varying width there).
      guard [.int, .double, .string, .bool, .date].contains(field.type) else { return nil }
      // Numbers and truths by a JSON path, which postgres_fdw sends to a shard (the text of
      // a JSON value it does not: text compares under a collation).
      if let kind = [ValueType.int: "number", .double: "number", .bool: "boolean"][field.type],
        let type = dialect.columnType(field.type), let json = jsonPath(field, kind)
      {
        return "(\(json))::\(type)"
      }
      guard let extracted = nested(field) else { return nil }
      switch (dialect, field.type) {
      case (.sqlite, _), (.postgresql, .string): return extracted
      case (.postgresql, let type): return "(\(extracted))::\(dialect.columnType(type) ?? "text")"
      }
    case .logical, .not, .predicate, .quantified, .exists:
      guard let fragment = truth(expr), fragment.exact else { return nil }
      return fragment.text
    case .arithmetic(let op, let left, let right):
      return arithmetic(op, left, right, type: expr.type)
    case .call(let function, let arguments):
      return call(function, arguments, type: expr.type)
    case .negate(let operand) where dialect == .postgresql && expr.type == .double:
      // (Negating a decimal never overflows.)
      return value(operand).map { "(-\($0))" }
    case .negate(let operand):
      return arithmetic(
        .subtract, BoundExpr(.constant(.int(0)), type: .int), operand, type: expr.type)
    default:
      return nil
    }
  }

  /// `expr`, which reads no field, as a parameter holding the value flt computes for it
  /// (`today() - 30d`, `lower($color)`); nil when it reads a field, faults (flt then counts
  /// the fault on each record), or gives a value of another kind than its type says (an
  /// integer where a decimal is declared, a date-time from a date and hours).
  private mutating func fieldFree(_ expr: BoundExpr) -> String? {
    guard let (value, faults) = expr.fieldFreeValue(values, now: now), faults.total == 0,
      Self.fits(value, expr.type)
    else { return nil }
    return bind(value, expr.type)
  }

  /// Whether `value` is of `type` (or null): a constant the checker folded, or a parameter,
  /// may hold a value of another kind than the type it has in the tree (a date-time where a
  /// date and hours were added, an integer where a decimal is declared), which a placeholder
  /// of that type would convert.
  static func fits(_ value: Value, _ type: ValueType) -> Bool {
    switch (value, type) {
    case (.null, _), (.int, .int), (.double, .double), (.decimal, .decimal), (.string, .string),
      (.bool, .bool), (.date, .date), (.dateTime, .dateTime), (.time, .time),
      (.duration, .duration):
      true
    default:
      false
    }
  }

  /// `left op right` of decimals and integers, exactly: in PostgreSQL's `numeric`, whose
  /// sums keep the larger scale and whose products add the scales, as flt's do; NULL where
  /// flt's overflows (beyond 38 digits at that scale) or divides by zero. SQLite has no
  /// decimals: there flt computes it.
  private mutating func decimalArithmetic(
    _ op: ArithmeticOperator, _ left: BoundExpr, _ right: BoundExpr
  ) -> String? {
    // (A quotient of decimals is a double: `/` and `//` are not written here.)
    guard dialect == .postgresql, op != .divide, op != .integerDivide, !op.isBitwise else {
      return nil
    }
    depth += 4
    defer { depth -= 4 }
    guard depth <= Self.maximumDepth, let a = value(left), let b = value(right) else { return nil }
    let x =
      op == .remainder
      ? "mod((\(a))::numeric, NULLIF((\(b))::numeric, 0))"
      : "((\(a))::numeric \(op.rawValue) (\(b))::numeric)"
    return once(x) { x in
      "(CASE WHEN scale(\(x)) <= 38 AND abs(\(x)) < 10::numeric ^ (38 - scale(\(x))) THEN \(x) END)"
    }
  }

  /// `left op right` on numbers, null where flt's is: on a null operand, and where flt
  /// faults (an integer overflow, a division by zero, a result that is not a number).
  /// SQLite turns an integer that overflows into a real, and gives NULL for a division by
  /// zero and for NaN, so its integer results are kept only while they are integers.
  /// PostgreSQL raises errors instead, so integers are computed in `numeric` and kept only in
  /// range, and decimals only where the operands' sizes rule an error out (see
  /// `SQLWriter+Decimals.swift`).
  private mutating func arithmetic(
    _ op: ArithmeticOperator, _ left: BoundExpr, _ right: BoundExpr, type: ValueType
  ) -> String? {
    guard type.isNumeric, left.type.isNumeric, right.type.isNumeric else { return nil }
    if type == .decimal { return decimalArithmetic(op, left, right) }
    if left.type == .decimal || right.type == .decimal {
      // A decimal constant with a double is its nearest double; another decimal stays in flt.
      let (left, right) = (
        Self.standIn(left, against: .double), Self.standIn(right, against: .double)
      )
      guard type == .double, left.type != .decimal, right.type != .decimal else { return nil }
      return arithmetic(op, left, right, type: type)
    }
    depth += 4
    defer { depth -= 4 }
    guard depth <= Self.maximumDepth, let a = value(left), let b = value(right) else { return nil }
    if op.isBitwise { return bitwise(op, a, b) }
    switch (dialect, type) {
    case (.sqlite, .int):
      // (`//` is SQLite's `/` of integers.)
      let symbol = op == .integerDivide ? "/" : op.rawValue
      return once("(\(a) \(symbol) \(b))") { x in
        "(CASE WHEN typeof(\(x)) = 'integer' THEN \(x) END)"
      }
    case (.sqlite, _):
      // A real remainder: SQLite takes it of integers; `//` of reals would need trunc(),
      // which not every SQLite has. `/` of integers is a real division in flt, not SQLite.
      guard op != .remainder, op != .integerDivide else { return nil }
      return op == .divide
        ? "(CAST(\(a) AS REAL) / \(b))" : "(\(a) \(op.rawValue) \(b))"
    case (.postgresql, .int):
      let x: String
      switch op {
      case .add, .subtract, .multiply: x = "(\(a)::numeric \(op.rawValue) \(b))"
      case .divide, .integerDivide: x = "div(\(a)::numeric, NULLIF(\(b), 0))"
      case .remainder: x = "mod(\(a)::numeric, NULLIF(\(b), 0))"
      case .bitAnd, .bitOr, .bitXor, .shiftLeft, .shiftRight: return nil  // (written above)
      }
      return once(x) { x in
        "(CASE WHEN \(x) BETWEEN -9223372036854775808 AND 9223372036854775807 THEN \(x)::bigint END)"
      }
    case (.postgresql, _):
      return decimals(op, (left, a), (right, b))
    }
  }

  /// `a op b` for a bitwise operator on integers (both written), as flt computes it. SQLite
  /// shifts as flt does (an amount of 64 or more shifts every bit out, a negative one shifts
  /// the other way) and has no exclusive or, so it is `(a | b) - (a & b)` there (which is
  /// `a ^ b` and never overflows); its operands must be integers (it would take a real's
  /// integer part). PostgreSQL's `bigint << integer` is defined for amounts from 0 to 63
  /// alone, so the others are written out.
  private func bitwise(_ op: ArithmeticOperator, _ a: String, _ b: String) -> String? {
    switch (op, dialect) {
    case (_, .sqlite):
      // SQLite takes a real as its integer part here, where flt has no bits of a decimal.
      return once([a, b]) { n in
        let value =
          op == .bitXor
          ? "((\(n[0]) | \(n[1])) - (\(n[0]) & \(n[1])))" : "(\(n[0]) \(op.rawValue) \(n[1]))"
        return
          "(CASE WHEN typeof(\(n[0])) = 'integer' AND typeof(\(n[1])) = 'integer' THEN \(value) END)"
      }
    case (.bitAnd, _), (.bitOr, _):
      return "(\(a) \(op.rawValue) \(b))"
    case (.bitXor, .postgresql):
      return "(\(a) # \(b))"
    case (.shiftLeft, .postgresql), (.shiftRight, .postgresql):
      let (toward, away) = op == .shiftLeft ? ("<<", ">>") : (">>", "<<")
      return once([a, b]) { n in
        let (x, k) = (n[0], n[1])
        // Every bit shifted out: 0, or -1 for a negative number shifted right (null for null).
        let (zero, signs) = ("(\(x) & 0)", "(\(x) >> 63)")
        let (outToward, outAway) = op == .shiftLeft ? (zero, signs) : (signs, zero)
        // `% 64` keeps the amount an integer in branches not taken (PostgreSQL may fold
        // constants there).
        return "(CASE WHEN \(k) BETWEEN 0 AND 63 THEN \(x) \(toward) ((\(k)) % 64)::integer"
          + " WHEN \(k) BETWEEN -63 AND -1 THEN \(x) \(away) (-((\(k)) % 64))::integer"
          + " WHEN \(k) > 0 THEN \(outToward) WHEN \(k) < 0 THEN \(outAway) END)"
      }
    default:
      return nil
    }
  }

  /// `body` of the value `x`, with `x` computed once. A column, a parameter or a short
  /// expression is written as it is, each time it is used (a subquery would keep the test
  /// on a coordinator: `postgres_fdw` sends none to a shard); anything longer is named in a
  /// subquery, as SQL has no other way to use a value twice but writing it twice, which
  /// would double the statement at each level of nesting.
  func once(_ x: String, _ body: (String) -> String) -> String {
    once([x]) { body($0[0]) }
  }

  /// `body` of the values `xs`, each computed once (see ``once(_:_:)-(String,_)``).
  func once(_ xs: [String], _ body: ([String]) -> String) -> String {
    guard xs.contains(where: { $0.contains("(") && $0.utf8.count > Self.writtenTwice })
    else { return body(xs) }
    // Names no column has, so that no column the body reads is hidden.
    var name = "flt_once"
    while table.columns.contains(where: { $0.lowercased().hasPrefix(name) }) { name += "_" }
    let names = xs.indices.map { $0 == 0 ? name : name + "\($0)" }
    let values = zip(xs, names).map { "\($0) AS \($1)" }.joined(separator: ", ")
    return "(SELECT \(body(names)) FROM (SELECT \(values)) AS \(name))"
  }

  /// The longest value ``once(_:_:)-(String,_)`` writes more than once, in bytes: the
  /// statement grows by at most this at each level of nesting.
  static let writtenTwice = 400

  /// The column of a top-level field; nil for a nested path, or inside a quantifier over
  /// records.
  func column(_ field: FieldRef) -> String? {
    guard field.isTopLevel, element == nil, field.slot < table.columns.count else { return nil }
    return table.testing(field.slot, dialect)
  }

  /// A field of nested records (not through a list) read from its column's JSON, or from the
  /// element a quantifier is at: SQL's value for JSON scalars (SQLite), its text
  /// (PostgreSQL), NULL where it is null or missing. Nil for names JSON paths cannot spell.
  mutating func nested(_ field: FieldRef) -> String? {
    let names = field.path.components.map(\.text)
    guard field.steps.count == names.count, !field.steps.contains(where: \.throughList)
    else { return nil }
    let column: String
    let keys: ArraySlice<String>
    if let element {
      (column, keys) = (element, names[...])
    } else {
      guard names.count > 1, field.slot < table.columns.count else { return nil }
      (column, keys) = (table.reading(field.slot, dialect), names.dropFirst())
    }
    guard !keys.contains(where: { $0.contains("\"") || $0.contains("\\") }) else { return nil }
    switch dialect {
    case .sqlite:
      let path = "$" + keys.map { ".\"" + $0 + "\"" }.joined()
      return bind(.string(path), .string).map { "json_extract(\(column), \($0))" }
    case .postgresql:
      let path = "{" + keys.map { "\"" + $0 + "\"" }.joined(separator: ",") + "}"
      return bind(.string(path), .string).map { "(\(column) #>> \($0)::text[])" }
    }
  }

  /// `exists field` as a table has fields (`FieldPresence/columns`): a column always; a
  /// field of nested records where the record holding it is an object. Nil inside a
  /// quantifier, through a list, or for a name a path cannot spell: there a field exists where
  /// it has a value.
  mutating func present(_ field: FieldRef) -> String? {
    let names = field.path.components.map(\.text)
    guard element == nil, field.steps.count == names.count,
      !field.steps.contains(where: \.throughList), field.slot < table.columns.count
    else { return nil }
    guard names.count > 1 else { return dialect.literal(true) }
    let parent = names.dropFirst().dropLast()
    guard
      !parent.contains(where: {
        $0.unicodeScalars.contains { $0 == "\"" || $0 == "\\" || $0.value < 0x20 }
      })
    else { return nil }
    let column = table.reading(field.slot, dialect)
    let path = "$" + parent.map { ".\"" + $0 + "\"" }.joined()
    // (Never unknown: a null column, or a path that is not there, is false.)
    switch dialect {
    case .sqlite:
      return bind(.string(path), .string).map {
        "COALESCE(json_type(\(column), \($0)) = 'object', 0)"
      }
    case .postgresql:
      // (As ``jsonPath(_:_:)`` reads, a form postgres_fdw sends to a shard.)
      let test = bind("strict " + path + #" ? (@.type() == "object")"#, as: "jsonpath")
      return "(jsonb_path_query_first(\(column), \(test), '{}'::jsonb, true) IS NOT NULL)"
    }
  }

  /// A field of nested records read from its top-level column by a JSON path (PostgreSQL):
  /// the `jsonb` value there when its JSON type is `type` (a number of an integer field also
  /// whole), or any but `null` without a type; NULL where it is missing or of another
  /// type. Nil where ``nested(_:)`` would read it otherwise: inside a quantifier, through a
  /// list, or a name a path cannot spell.
  mutating func jsonPath(_ field: FieldRef, _ type: String?) -> String? {
    let names = field.path.components.map(\.text)
    guard dialect == .postgresql, element == nil, names.count > 1,
      field.steps.count == names.count, !field.steps.contains(where: \.throughList),
      field.slot < table.columns.count,
      !names.contains(where: {
        $0.unicodeScalars.contains { $0 == "\"" || $0 == "\\" || $0.value < 0x20 }
      })
    else { return nil }
    let test =
      switch (type, field.type) {
      case (nil, _): #"@.type() != "null""#
      case ("number", .int): #"@.type() == "number" && @ == @.floor()"#
      case (let type?, _): #"@.type() == ""# + type + #"""#
      }
    let path = "strict $" + names.dropFirst().map { ".\"" + $0 + "\"" }.joined() + " ? (\(test))"
    return
      "jsonb_path_query_first(\(table.reading(field.slot, dialect)), \(bind(path, as: "jsonpath")), '{}'::jsonb, true)"
  }

  // MARK: Truth

  /// `expr`, a test, as a SQL condition: narrowing when what it read is exact only on some
  /// rows (see `SQLWriter+Narrowing.swift`).
  mutating func truth(_ expr: BoundExpr) -> SQLFragment? {
    depth += 1
    defer { depth -= 1 }
    guard depth <= Self.maximumDepth else { return nil }
    let mark = unsure.count
    guard let fragment = unguardedTruth(expr) else { return nil }
    return released(fragment, from: mark)
  }

  /// `expr`, a test, as written before ``truth(_:)`` looks at what it read.
  private mutating func unguardedTruth(_ expr: BoundExpr) -> SQLFragment? {
    switch expr.kind {
    case .logical(.and, let operands):
      // Operands that cannot be written are left out: what remains still holds wherever the
      // whole does, so it narrows.
      var parts: [SQLFragment] = []
      for operand in operands {
        if let part = attempt({ $0.truth(operand) }) { parts.append(part) }
      }
      guard !parts.isEmpty else { return nil }
      let exact = parts.count == operands.count && parts.allSatisfy(\.exact)
      return SQLFragment(joined(parts, "AND"), exact: exact)
    case .logical(.or, let operands):
      var parts: [SQLFragment] = []
      for operand in operands {
        guard let part = truth(operand) else { return nil }
        parts.append(part)
      }
      return SQLFragment(joined(parts, "OR"), exact: parts.allSatisfy(\.exact))
    case .not(let operand):
      guard let inner = truth(operand), inner.exact else { return nil }
      return SQLFragment("(NOT \(inner.text))")
    case .predicate(let subject, let condition):
      return test(.expr(subject), condition)
    case .quantified(let quantifier, let subject, let condition):
      return quantified(quantifier, subject, condition)
    case .exists(let field):
      if let present = present(field) { return SQLFragment(present) }
      guard let read = column(field) ?? jsonPath(field, nil) ?? nested(field) else { return nil }
      return SQLFragment("(\(read) IS NOT NULL)")
    case .constant(.bool(let b)):
      return SQLFragment(dialect.literal(b))
    case .constant(.null):
      return SQLFragment("NULL")
    case .field, .parameter:
      return value(expr).map { SQLFragment($0) }
    default:
      return nil
    }
  }

  /// ` WHERE ...` for the conjuncts of `parts` (empty when there are none); nil unless each
  /// is written exactly.
  mutating func exactly(_ parts: [BoundExpr]) -> String? {
    var conditions: [String] = []
    for part in parts.flatMap(\.conjuncts) {
      guard let fragment = truth(part), fragment.exact else { return nil }
      conditions.append(fragment.text)
    }
    return conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
  }

  private func joined(_ parts: [SQLFragment], _ op: String) -> String {
    parts.count == 1 ? parts[0].text : "(" + parts.map(\.text).joined(separator: " \(op) ") + ")"
  }
}
