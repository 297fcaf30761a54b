/// The canonical printer: a tree back to normalized source text.
///
/// Keywords are lower case, text is always in double quotes, operators have one spelling
/// (`==`, not `=`), and parentheses appear only where the precedence table needs them. For
/// every tree the parser can produce, parsing the printed text gives the same tree back.
struct Printer {
  var out = ""

  // MARK: Expressions

  /// Prints `expr`, in parentheses if it binds less tightly than `minimum`. In value position
  /// (`value`), fields are quoted so that they are not read back as text.
  mutating func expr(_ expr: Expr, _ minimum: Precedence = .or, value: Bool = false) {
    if Printer.precedence(of: expr) < minimum {
      out += "("
      self.expr(expr, .or, value: false)
      out += ")"
      return
    }
    switch expr.kind {
    case .literal(let literal):
      out += Printer.text(of: literal)
    case .field(let path):
      out += Printer.text(of: path, value: value)
    case .parameter(let name):
      out += "$" + name.text
    case .list(let items):
      list(items, afterIn: false)
    case .range(let lower, let upper, let kind):
      self.expr(lower, .bitwise, value: value)
      out += kind.rawValue
      self.expr(upper, .bitwise, value: value)
    case .call(let name, let arguments):
      out += Quoting.name(name.text, at: .callee)
      out += "("
      join(arguments) { printer, argument in
        // `count(children where age > 12)`: a filtered list needs no parentheses of its own.
        if case .filtered = argument.kind {
          printer.filtered(argument)
        } else {
          printer.expr(argument)
        }
      }
      out += ")"
    case .negate(let operand):
      out += "-"
      if Printer.isUnsignedNumber(operand) {
        // `-3` would read back as the literal -3, not as a negated 3.
        out += "("
        self.expr(operand)
        out += ")"
      } else {
        self.expr(operand, .prefix, value: value)
      }
    case .not(let operand):
      out += "not "
      self.expr(operand, .not)
    case .arithmetic(let op, let left, let right):
      self.expr(left, op.precedence, value: value)
      out += " \(op.rawValue) "
      self.expr(right, Printer.tighter(than: op.precedence), value: value)
    case .logical(let op, let operands):
      let separator = " \(op.rawValue) "
      for (i, operand) in operands.enumerated() {
        if i > 0 { out += separator }
        self.expr(operand, Printer.tighter(than: op.precedence))
      }
    case .predicate(let subject, let condition):
      self.expr(subject, .bitwise)
      out += " "
      self.condition(condition)
    case .quantified(let quantifier, let subject, let condition):
      out += quantifier.rawValue + " "
      self.expr(subject, .postfix)
      out += " "
      self.condition(condition)
    case .exists(let path):
      out += "exists " + Printer.text(of: path, value: false)
    case .filtered:
      out += "("
      filtered(expr)
      out += ")"
    }
  }

  /// `list where filter`, without parentheses. (Out of line: ``expr(_:_:value:)`` recurses.)
  @inline(never)
  private mutating func filtered(_ node: Expr) {
    guard case .filtered(let list, let filter) = node.kind else { return }
    expr(list, .bitwise)
    out += " where "
    expr(filter)
  }

  mutating func condition(_ condition: Condition) {
    switch condition.kind {
    case .compare(let op, let operand, let options):
      out += op.rawValue + options.spelling + " "
      expr(operand, .bitwise, value: true)
    case .text(let op, let operand, let options, let negated):
      out += (negated ? "not " : "") + op.rawValue + options.spelling + " "
      expr(operand, .bitwise, value: true)
    case .member(let operand, let options, let negated):
      out += (negated ? "not " : "") + "in" + options.spelling + " "
      if case .list(let items) = operand.kind {
        list(items, afterIn: true)
      } else if case .range = operand.kind {
        expr(operand, .or, value: true)
      } else {
        expr(operand, .bitwise, value: true)
      }
    case .between(let lower, let upper, let options, let negated):
      out += (negated ? "not " : "") + "between" + options.spelling + " "
      expr(lower, .bitwise, value: true)
      out += " and "
      expr(upper, .bitwise, value: true)
    case .isNull(let negated):
      out += negated ? "is not null" : "is null"
    case .isEmpty(let negated):
      out += negated ? "is not empty" : "is empty"
    case .same(let operand, let negated):
      out += negated ? "is not " : "is "
      let start = out.endIndex
      expr(operand, .bitwise, value: true)
      // `is null ...` and `is empty` would read as the tests of those names.
      let written = out[start...].lowercased()
      if written.hasPrefix("null") || written.hasPrefix("empty") {
        out.insert("(", at: start)
        out += ")"
      }
    case .satisfies(let filter):
      out += "("
      expr(filter)
      out += ")"
    }
  }

  /// `(a, b)`. One item is written `(a,)` except after `in`, where parentheses always make a
  /// list; elsewhere `(a)` would read back as grouping.
  private mutating func list(_ items: [Expr], afterIn: Bool) {
    out += "("
    join(items) { $0.expr($1, .bitwise, value: true) }
    if items.count == 1 && !afterIn { out += "," }
    out += ")"
  }

  mutating func join(_ items: [Expr], _ each: (inout Printer, Expr) -> Void) {
    for (i, item) in items.enumerated() {
      if i > 0 { out += ", " }
      each(&self, item)
    }
  }

  // MARK: Precedence

  /// How tightly a node binds, from the same table the parser uses.
  static func precedence(of expr: Expr) -> Precedence {
    switch expr.kind {
    case .literal(let literal): isNegative(literal) ? .prefix : .postfix
    case .field, .parameter, .list, .call, .filtered: .postfix
    case .negate: .prefix
    case .not: .not
    case .arithmetic(let op, _, _): op.precedence
    case .logical(let op, _): op.precedence
    case .predicate, .quantified, .exists, .range: .comparison
    }
  }

  /// The next level up: the right operand of a left-associative operator, and the operands of
  /// `and`/`or` (a nested chain of the same operator keeps its parentheses).
  static func tighter(than level: Precedence) -> Precedence {
    Precedence(rawValue: level.rawValue + 1) ?? .postfix
  }

  private static func isNegative(_ literal: Literal) -> Bool {
    switch literal {
    case .int(let v): v < 0
    case .double(let v): v.sign == .minus
    case .decimal(let v): v.significand < 0
    case .duration(let span): span.nanoseconds < 0
    default: false
    }
  }

  /// A number or duration literal without a sign, which a minus in front would absorb.
  private static func isUnsignedNumber(_ expr: Expr) -> Bool {
    guard case .literal(let literal) = expr.kind else { return false }
    switch literal {
    case .int, .double, .decimal, .duration: return !isNegative(literal)
    default: return false
    }
  }

  // MARK: Leaves

  static func text(of literal: Literal) -> String {
    switch literal {
    case .null: "null"
    case .bool(let b): b ? "true" : "false"
    case .int(let v): String(v)
    case .double(let v): doubleLiteral(v)
    // (Always with a point, which makes it a decimal: `5km` is `5000.0`.)
    case .decimal(let v): v.scale == 0 ? v.description + ".0" : v.description
    case .string(let s): Quoting.string(s)
    case .date(let d): d.description
    case .dateTime(let t): t.description
    case .time(let t): t.description
    case .duration(let span): span.description
    }
  }

  /// A double as a literal that reads back as one: with an exponent (`6.1e0`; a number
  /// written with a point alone is a decimal).
  static func doubleLiteral(_ v: Double) -> String {
    let text = v.description
    return text.contains("e") || !v.isFinite ? text : text + "e0"
  }

  static func text(of path: FieldPath, value: Bool) -> String {
    path.components.enumerated().map { i, name in
      Quoting.name(name.text, at: i > 0 ? .pathStep : value ? .value : .start)
    }.joined(separator: ".")
  }
}
