/// A one-line S-expression of a tree, for tests, golden files and the REPL's `:ast`:
/// `(and (in color (list "Starlight" "Space Black")) (>= diskSpace 256))`.
///
/// Unlike the canonical text, it shows the tree's shape: every node in its own parentheses.
enum TreeDump {
  static func expr(_ expr: Expr) -> String {
    switch expr.kind {
    case .literal(let literal): Printer.text(of: literal)
    case .field(let path): Printer.text(of: path, value: false)
    case .parameter(let name): "$" + name.text
    case .list(let items): node("list", items.map(self.expr))
    case .range(let lower, let upper, let kind):
      node(kind.rawValue, [self.expr(lower), self.expr(upper)])
    case .call(let name, let arguments):
      node("call", [Quoting.name(name.text, at: .callee)] + arguments.map(self.expr))
    case .negate(let operand): node("-", [self.expr(operand)])
    case .not(let operand): node("not", [self.expr(operand)])
    case .arithmetic(let op, let left, let right):
      node(op.rawValue, [self.expr(left), self.expr(right)])
    case .logical(let op, let operands): node(op.rawValue, operands.map(self.expr))
    case .predicate(let subject, let condition):
      self.condition(condition, subject: self.expr(subject))
    case .quantified(let quantifier, let subject, let condition):
      node(quantifier.rawValue, [self.expr(subject), self.condition(condition, subject: nil)])
    case .exists(let path): node("exists", [Printer.text(of: path, value: false)])
    case .filtered(let list, let filter): node("filtered", [self.expr(list), self.expr(filter)])
    }
  }

  static func condition(_ condition: Condition, subject: String?) -> String {
    let s = subject.map { [$0] } ?? []
    switch condition.kind {
    case .compare(let op, let operand, let options):
      return node(op.rawValue + options.spelling, s + [expr(operand)])
    case .text(let op, let operand, let options, let negated):
      return node((negated ? "not-" : "") + op.rawValue + options.spelling, s + [expr(operand)])
    case .member(let operand, let options, let negated):
      return node((negated ? "not-in" : "in") + options.spelling, s + [expr(operand)])
    case .between(let lower, let upper, let options, let negated):
      return node(
        (negated ? "not-between" : "between") + options.spelling, s + [expr(lower), expr(upper)])
    case .isNull(let negated):
      return node(negated ? "is-not-null" : "is-null", s)
    case .isEmpty(let negated):
      return node(negated ? "is-not-empty" : "is-empty", s)
    case .same(let operand, let negated):
      return node(negated ? "is-not" : "is", s + [expr(operand)])
    case .satisfies(let filter):
      return node("where", s + [expr(filter)])
    }
  }

  static func query(_ query: Query) -> String {
    var parts = [query.filter.map(expr) ?? "*"]
    if !query.ordering.isEmpty {
      let keys = query.ordering.map { key in
        node(
          key.direction.rawValue,
          [expr(key.key)] + (key.nulls.map { ["nulls-\($0.rawValue)"] } ?? []))
      }
      parts.append(node("order-by", keys))
    }
    if let limit = query.limit { parts.append(node("limit", [expr(limit)])) }
    if let offset = query.offset { parts.append(node("offset", [expr(offset)])) }
    return node("query", parts)
  }

  static func statement(_ statement: Stmt) -> String {
    switch statement.kind {
    case .load(let path, let alias, let options):
      node(
        "load",
        [Quoting.string(path.text)]
          + (alias.map { ["as", Quoting.name($0.text, at: .statementName)] } ?? [])
          + options.map { option in
            node(option.name.text, option.values.map { Quoting.string($0.text) })
          })
    case .use(let name): node("use", [Quoting.name(name.text, at: .statementName)])
    case .let(let name, let value):
      node("let", [Quoting.name(name.text, at: .statementName), expr(value)])
    case .query(let q): query(q)
    case .count(let filter): node("count", filter.map { [expr($0)] } ?? [])
    case .facets(let fields, let filter):
      node(
        "facets",
        fields.map { Printer.text(of: $0, value: false) }
          + (filter.map { ["where", expr($0)] } ?? []))
    case .stats(let stats):
      node(
        "stats",
        stats.items.map(item) + (stats.groups.isEmpty ? [] : ["by"] + stats.groups.map(item))
          + (stats.filter.map { ["where", expr($0)] } ?? []))
    case .explain(let q): node("explain", [query(q)])
    case .show(let fields):
      node("show", fields.isEmpty ? ["*"] : fields.map { Printer.text(of: $0, value: false) })
    case .set(let option, let value):
      node("set", [Quoting.name(option.text, at: .statementName), expr(value)])
    case .settings: node("set", [])
    }
  }

  /// `(as (mean price) m)`, or the expression alone.
  private static func item(_ item: SelectItem) -> String {
    item.alias.map { node("as", [expr(item.expr), Quoting.name($0.text, at: .statementName)]) }
      ?? expr(item.expr)
  }

  private static func node(_ head: String, _ children: [String]) -> String {
    "(" + ([head] + children).joined(separator: " ") + ")"
  }
}

extension Expr: CustomDebugStringConvertible {
  /// The tree as an S-expression: `(>= diskSpace 256)`.
  public var debugDescription: String { TreeDump.expr(self) }
}

extension Query: CustomDebugStringConvertible {
  /// The tree as an S-expression: `(query (== color "Gold") (limit 5))`.
  public var debugDescription: String { TreeDump.query(self) }
}

extension Stmt: CustomDebugStringConvertible {
  /// The tree as an S-expression: `(load "phones.json" as phones)`.
  public var debugDescription: String { TreeDump.statement(self) }
}

extension Script: CustomDebugStringConvertible {
  /// One S-expression per statement, one per line.
  public var debugDescription: String { statements.map(\.debugDescription).joined(separator: "\n") }
}
