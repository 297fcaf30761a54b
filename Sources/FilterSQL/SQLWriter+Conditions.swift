import FilterDSL

extension SQLWriter {
  /// `subject` tested by `condition`.
  mutating func test(_ subject: SQLSubject, _ condition: BoundCondition) -> SQLFragment? {
    if let fragment = attempt({ $0.folded(subject, condition) }) { return fragment }
    switch condition.kind {
    case .compare(let op, let operand, let options):
      guard let (a, b) = pair(subject, operand, options) else { return nil }
      let left = op == .equal || op == .notEqual ? a : ordered(a, subject.type)
      return SQLFragment("(\(left) \(Self.spelling(op)) \(b))")
    case .between(let lower, let upper, let options, let negated):
      guard let range = range(subject, lower, upper, upper: .lessOrEqual, options) else {
        return nil
      }
      return SQLFragment(negated ? "(NOT \(range))" : range)
    case .member(let operand, let options, let negated):
      guard let member = member(subject, operand, options) else { return nil }
      return SQLFragment(negated ? "(NOT \(member))" : member)
    case .isNull(let negated):
      // Any field can be tested for null, lists and records too.
      let tested: String?
      if case .expr(let expr) = subject, case .field(let field) = expr.kind {
        tested = column(field) ?? jsonPath(field, nil) ?? nested(field)
      } else {
        tested = value(subject)
      }
      guard let tested else { return nil }
      return SQLFragment("(\(tested) IS \(negated ? "NOT " : "")NULL)")
    case .isEmpty(let negated):
      guard subject.type == .string, let text = value(subject),
        let empty = bind(.string(""), .string)
      else { return nil }
      return SQLFragment("(\(text) \(negated ? "<>" : "=") \(empty))")
    case .same(let operand, let negated):
      guard let (a, b) = pair(subject, operand, []) else { return nil }
      switch dialect {
      case .sqlite: return SQLFragment("(\(a) IS \(negated ? "NOT " : "")\(b))")
      case .postgresql:
        return SQLFragment("(\(a) IS \(negated ? "" : "NOT ")DISTINCT FROM \(b))")
      }
    case .text(.contains, let operand, let options, let negated) where subject.type.isList:
      guard let test = listContains(subject, operand, options) else { return nil }
      return SQLFragment(negated ? "(NOT \(test))" : test)
    case .text(.matches, let operand, let options, let negated) where dialect == .postgresql:
      // Exact on printable ASCII text (see PostgresRegex), so `not matches` is too.
      guard options.isEmpty, case .expr(let expr) = subject, expr.type == .string,
        operand.type == .string, case .string(let pattern) = operand.constantValue ?? .null,
        let regex = PostgresRegex.translate(pattern), let text = value(expr),
        let bound = bind(.string(regex), .string), requireASCII(expr)
      else { return nil }
      return SQLFragment("(\(text) \(negated ? "!~" : "~") \(bound))")
    case .text(let op, let operand, let options, let negated):
      // flt matches whole characters (a letter and the accents on it), SQL code points, so SQL
      // can only narrow; and a narrowing test cannot be negated.
      guard !negated, options.isEmpty, subject.type == .string, operand.type == .string,
        let text = value(subject), let pattern = textPattern(op, operand)
      else { return nil }
      return SQLFragment(narrowing(op, text, pattern), exact: false)
    case .satisfies:
      return nil
    }
  }

  static func spelling(_ op: ComparisonOperator) -> String {
    switch op {
    case .equal: "="
    case .notEqual: "<>"
    case .less: "<"
    case .lessOrEqual: "<="
    case .greater: ">"
    case .greaterOrEqual: ">="
    }
  }

  /// Both sides of a comparison, when SQL compares them as flt does: no `[c]` / `[d]` on text.
  private mutating func pair(_ a: SQLSubject, _ b: BoundExpr, _ options: StringOptions) -> (
    String, String
  )? {
    let b = Self.standIn(b, against: a.type)
    guard comparable(a.type, b.type), options.isEmpty || (a.type != .string && b.type != .string),
      let left = value(a), let right = value(b)
    else { return nil }
    return (compared(left, a.type, with: b.type), compared(right, b.type, with: a.type))
  }

  /// `lower <= subject` and `subject upper bound`, as one condition.
  private mutating func range(
    _ subject: SQLSubject, _ lower: BoundExpr, _ bound: BoundExpr, upper: ComparisonOperator,
    _ options: StringOptions
  ) -> String? {
    let (lower, bound) = (
      Self.standIn(lower, against: subject.type), Self.standIn(bound, against: subject.type)
    )
    guard comparable(subject.type, lower.type), comparable(subject.type, bound.type),
      options.isEmpty || subject.type != .string,
      let value = value(subject), let low = self.value(lower), let high = self.value(bound)
    else { return nil }
    // The subject is written once, so both bounds must want it in the same form (an integer
    // compared with an integer and a decimal: as a decimal with both).
    var form = compared(value, subject.type, with: lower.type)
    if form != compared(value, subject.type, with: bound.type) {
      guard subject.type == .int else { return nil }
      form = compared(value, .int, with: .double)
    }
    let (a, b) = (
      compared(low, lower.type, with: subject.type), compared(high, bound.type, with: subject.type)
    )
    return once(ordered(form, subject.type)) { value in
      "(\(value) >= \(a) AND \(value) \(Self.spelling(upper)) \(b))"
    }
  }

  /// `subject in operand`: SQL's `IN` has flt's three-valued meaning (true if equal to one,
  /// else unknown if the subject or an element is null, else false).
  private mutating func member(
    _ subject: SQLSubject, _ operand: BoundExpr, _ options: StringOptions
  )
    -> String?
  {
    if case .range(let lower, let upper, let kind) = operand.kind {
      return range(
        subject, lower, upper, upper: kind == .closed ? .lessOrEqual : .less, options)
    }
    let elementType: ValueType
    if case .list(let type) = operand.type { elementType = type } else { elementType = .null }
    guard comparable(subject.type, elementType),
      options.isEmpty || (subject.type != .string && elementType != .string)
    else { return nil }
    // Each element as it compares with the subject, and the types the subject is compared
    // with (it is written once, so in one form).
    var elements: [String] = []
    var types: [ValueType] = []
    let items: [(value: Value?, expr: BoundExpr?)]
    switch operand.kind {
    case .list(let exprs): items = exprs.map { (nil, $0) }
    case .parameter(let parameter):
      guard case .list(let values) = values[parameter.name] ?? .null else { return nil }
      items = values.map { ($0, nil) }
    default:
      guard case .list(let values) = operand.constantValue ?? .null else { return nil }
      items = values.map { ($0, nil) }
    }
    for item in items {
      let element: String?
      let type: ValueType
      if let expr = item.expr.map({ Self.standIn($0, against: subject.type) }) {
        type = expr.type
        guard comparable(subject.type, type) else { return nil }
        element = value(expr)
      } else {
        // A number keeps its own type (an integer in a list of decimals stays exact).
        let (value, valueType) = Self.standIn(item.value ?? .null, against: subject.type)
        switch value {
        case .int: type = .int
        case .double: type = .double
        default: type = valueType ?? elementType
        }
        element = Self.fits(value, type) ? bind(value, type) : nil
      }
      guard let element else { return nil }
      elements.append(compared(element, type, with: subject.type))
      types.append(type)
    }
    // `x in ()` is false even for a null x, as nothing is compared.
    guard !elements.isEmpty else { return dialect.literal(false) }
    guard let value = value(subject) else { return nil }
    var forms = Set(types.map { compared(value, subject.type, with: $0) })
    // An integer compared with integers and decimals: as a decimal with every one of them.
    if forms.count > 1, subject.type == .int { forms = [compared(value, .int, with: .double)] }
    guard forms.count == 1, let form = forms.first else { return nil }
    return "(\(form) IN (\(elements.joined(separator: ", "))))"
  }

  /// `expr` with a decimal constant compared with a column of integers or doubles written as a
  /// number of that kind that compares the same (so that SQLite, which has no decimals, and
  /// PostgreSQL compare as they compare the other numbers): with a double, its nearest double;
  /// with an integer, the integer it is, else a double (see `NumberComparison`). Else `expr`.
  static func standIn(_ expr: BoundExpr, against other: ValueType) -> BoundExpr {
    guard case .constant(let constant) = expr.kind else { return expr }
    let (value, type) = standIn(constant, against: other)
    guard let type else { return expr }
    return BoundExpr(.constant(value), type: type, range: expr.range)
  }

  /// `value` so, with its new type; the type is nil where it stays.
  static func standIn(_ value: Value, against other: ValueType) -> (Value, ValueType?) {
    guard case .decimal(let d) = value else { return (value, nil) }
    if other == .int, d.isWhole, let whole = d.truncated { return (.int(whole), .int) }
    guard let double = d.standIn(against: other) else {
      return (value, .decimal)
    }
    return (.double(double), .double)
  }

  /// `list contains x` on a list column: true when an element equals x; else unknown when the
  /// list, x or an element is null; else false.
  private mutating func listContains(
    _ subject: SQLSubject, _ operand: BoundExpr, _ options: StringOptions
  ) -> String? {
    guard case .expr(let expr) = subject, case .field(let field) = expr.kind,
      case .list(let element) = subject.type,
      let list = column(field), [.int, .double, .string, .bool, .date].contains(element),
      comparable(element, operand.type), options.isEmpty || element != .string,
      // jsonb compares numbers as decimals, and a double's decimal is its shortest one.
      dialect == .sqlite || !element.isNumeric || element == operand.type
    else { return nil }
    if dialect == .postgresql, let json = jsonElement(operand) {
      // The list of x as a jsonb parameter, which postgres_fdw sends to a shard (it keeps
      // jsonb_build_array, which is not immutable, on the coordinator).
      let one = bind("[" + json + "]", as: "jsonb")
      return
        "(CASE WHEN \(list) IS NULL THEN NULL WHEN \(list) @> \(one) THEN TRUE "
        + "WHEN \(list) @> '[null]'::jsonb THEN NULL ELSE FALSE END)"
    }
    guard let x = value(operand) else { return nil }
    return once(x) { x in
      switch dialect {
      case .sqlite:
        let elements = "SELECT 1 FROM json_each(\(list)) WHERE value"
        return
          "(CASE WHEN \(list) IS NULL OR \(x) IS NULL THEN NULL WHEN EXISTS (\(elements) = \(x)) THEN 1 "
          + "WHEN EXISTS (\(elements) IS NULL) THEN NULL ELSE 0 END)"
      case .postgresql:
        return
          "(CASE WHEN \(list) IS NULL OR \(x) IS NULL THEN NULL WHEN \(list) @> jsonb_build_array(\(x)) THEN TRUE "
          + "WHEN \(list) @> '[null]'::jsonb THEN NULL ELSE FALSE END)"
      }
    }
  }

  /// The JSON of `operand`'s value when it reads no field and is text, an integer or a
  /// truth (whose JSON is theirs alone: a double or a date has several spellings); nil else,
  /// or when it is null.
  private func jsonElement(_ operand: BoundExpr) -> String? {
    guard let (value, faults) = operand.fieldFreeValue(values, now: now), faults.total == 0
    else { return nil }
    switch value {
    case .string(let text) where !text.utf8.contains(0):
      var json = "\""
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"", "\\": json += "\\" + String(scalar)
        case _ where scalar.value < 0x20:
          let hex = String(scalar.value, radix: 16)
          json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: json.unicodeScalars.append(scalar)
        }
      }
      return json + "\""
    case .int(let n): return String(n)
    case .bool(let truth): return truth ? "true" : "false"
    default: return nil
    }
  }

  /// The operand of a text test as the narrowing test needs it: the text itself, or for
  /// `like`, a `LIKE` pattern; nil for `matches`.
  private mutating func textPattern(_ op: TextOperator, _ operand: BoundExpr) -> String? {
    switch op {
    case .contains, .startsWith, .endsWith: return value(operand)
    case .matches: return nil
    case .like:
      guard case .string(let glob) = operand.constantValue ?? .null else { return nil }
      return bind(.string(Self.likePattern(glob)), .string)
    }
  }

  /// A test true wherever `text op pattern` is (in whole characters) true.
  func narrowing(_ op: TextOperator, _ text: String, _ pattern: String) -> String {
    switch (op, dialect) {
    case (.contains, .sqlite): "(instr(\(text), \(pattern)) > 0)"
    case (.contains, .postgresql): "(strpos(\(text), \(pattern)) > 0)"
    case (.startsWith, _): "(substr(\(text), 1, length(\(pattern))) = \(pattern))"
    case (.endsWith, .sqlite):
      "(length(\(pattern)) = 0 OR substr(\(text), -length(\(pattern))) = \(pattern))"
    case (.endsWith, .postgresql):
      "(length(\(pattern)) = 0 OR right(\(text), length(\(pattern))) = \(pattern))"
    case (.like, _), (.matches, _): "(\(text) LIKE \(pattern) ESCAPE '\\')"
    }
  }

  /// A `LIKE` pattern matching every text the glob matches: `*` is `%`; `?` and a set, which
  /// match one character (perhaps several code points), are `_%`; `%`, `_` and `\` are
  /// escaped with `\`.
  static func likePattern(_ glob: String) -> String {
    var pattern = ""
    var characters = Array(glob)[...]
    while let c = characters.popFirst() {
      switch c {
      case "*": pattern += "%"
      case "?": pattern += "_%"
      case "[":
        // A set when it is closed: `]` right after `[` or `[!` / `[^` belongs to it.
        var rest = characters
        if rest.first == "!" || rest.first == "^" { rest.removeFirst() }
        if rest.first == "]" { rest.removeFirst() }
        if let close = rest.firstIndex(of: "]") {
          characters = characters[(close + 1)...]
          pattern += "_%"
        } else {
          pattern += "["
        }
      case "\\":
        let next = characters.popFirst() ?? "\\"
        pattern += escapedLike(next)
      default:
        pattern += escapedLike(c)
      }
    }
    return pattern
  }

  private static func escapedLike(_ c: Character) -> String {
    c == "%" || c == "_" || c == "\\" ? "\\" + String(c) : String(c)
  }
}

/// The subject of a test: a node of the tree, or (inside a quantifier) each element of a list,
/// already written as SQL.
enum SQLSubject {
  case expr(BoundExpr)
  case element(String, ValueType)

  /// The type of the subject's values.
  var type: ValueType {
    switch self {
    case .expr(let expr): expr.type
    case .element(_, let type): type
    }
  }
}

extension SQLWriter {
  /// The subject's value, as ``value(_:)`` writes a node.
  mutating func value(_ subject: SQLSubject) -> String? {
    switch subject {
    case .expr(let expr): value(expr)
    case .element(let sql, _): sql
    }
  }

  /// `any` / `all` / `none` of a list column's elements: Kleene's `or` (`and`) of the test on
  /// each element, unknown for a null list. The test on values may not read fields (SQL's
  /// elements would hide columns of the same name); a test on records reads the element's
  /// fields, and is unknown on an element that is not a record (null), as in flt. The test
  /// must be exact.
  mutating func quantified(
    _ quantifier: Quantifier, _ subject: BoundExpr, _ condition: BoundCondition
  )
    -> SQLFragment?
  {
    guard case .field(let field) = subject.kind, case .list(let element) = subject.type,
      let list = column(field)
    else { return nil }
    let (elements, test): (String, String)
    let mark = unsure.count
    if case .satisfies(let filter, _) = condition.kind {
      guard case .record = element else { return nil }
      let (item, isRecord): (String, String)
      switch dialect {
      case .sqlite:
        (elements, item, isRecord) = ("json_each(\(list))", "value", "type = 'object'")
      case .postgresql:
        elements = "jsonb_array_elements(\(list)) AS flt_e(v)"
        (item, isRecord) = ("flt_e.v", "jsonb_typeof(flt_e.v) = 'object'")
      }
      self.element = item
      defer { self.element = nil }
      guard let inner = truth(filter), inner.exact, unsure.count == mark else { return nil }
      test = "(CASE WHEN \(isRecord) THEN \(inner.text) END)"
    } else {
      guard [.int, .double, .string, .bool, .date].contains(element),
        condition.operands.allSatisfy({ $0.fields.isEmpty })
      else { return nil }
      let item: String
      switch dialect {
      case .sqlite: (elements, item) = ("json_each(\(list))", "value")
      case .postgresql:
        elements = "jsonb_array_elements_text(\(list)) AS e(v)"
        item = element == .string ? "e.v" : "(e.v)::\(dialect.columnType(element) ?? "text")"
      }
      guard let inner = self.test(.element(item, element), condition), inner.exact,
        unsure.count == mark
      else { return nil }
      test = inner.text
    }
    let (yes, no) = (dialect.literal(true), dialect.literal(false))
    let some = "EXISTS (SELECT 1 FROM \(elements) WHERE"
    let unknown = "WHEN \(some) (\(test)) IS NULL) THEN NULL"
    switch quantifier {
    case .any, .none:
      let any =
        "(CASE WHEN \(list) IS NULL THEN NULL WHEN \(some) \(test)) THEN \(yes) \(unknown) ELSE \(no) END)"
      return SQLFragment(quantifier == .any ? any : "(NOT \(any))")
    case .all:
      return SQLFragment(
        "(CASE WHEN \(list) IS NULL THEN NULL WHEN \(some) NOT \(test)) THEN \(no) \(unknown) ELSE \(yes) END)"
      )
    case .one:
      // flt's order: two true is false, then an unknown is unknown, then one true is true.
      let trues = "(SELECT count(*) FROM \(elements) WHERE \(test))"
      return SQLFragment(
        "(CASE WHEN \(list) IS NULL THEN NULL WHEN \(trues) >= 2 THEN \(no) \(unknown) WHEN \(trues) = 1 THEN \(yes) ELSE \(no) END)"
      )
    }
  }
}
