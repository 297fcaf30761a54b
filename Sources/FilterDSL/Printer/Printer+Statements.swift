extension Printer {
  mutating func query(_ query: Query) {
    var parts: [String] = []
    if let filter = query.filter {
      var printer = Printer()
      printer.expr(filter)
      parts.append(printer.out)
    }
    if !query.ordering.isEmpty {
      let keys = query.ordering.map { key -> String in
        var printer = Printer()
        printer.expr(key.key, .bitwise)
        var text = printer.out
        if key.direction == .descending { text += " desc" }
        if let nulls = key.nulls { text += " nulls \(nulls.rawValue)" }
        return text
      }
      parts.append("order by " + keys.joined(separator: ", "))
    }
    if let limit = query.limit { parts.append("limit " + Printer.operand(limit)) }
    if let offset = query.offset { parts.append("offset " + Printer.operand(offset)) }
    out += parts.joined(separator: " ")
  }

  mutating func statement(_ statement: Stmt) {
    switch statement.kind {
    case .load(let path, let alias, let options):
      out += "load " + Quoting.string(path.text)
      if let alias { out += " as " + Quoting.name(alias.text, at: .statementName) }
      for option in options {
        out += " " + option.name.text + " "
        out += option.values.map { Quoting.string($0.text) }.joined(separator: ", ")
      }
    case .use(let name):
      out += "use " + Quoting.name(name.text, at: .statementName)
    case .let(let name, let value):
      out += "let " + Quoting.name(name.text, at: .statementName) + " = "
      expr(value)
    case .query(let query):
      self.query(query)
    case .count(let filter):
      out += "count"
      if let filter {
        out += " "
        expr(filter)
      }
    case .facets(let fields, let filter):
      out += "facets " + Printer.fieldList(fields)
      if let filter {
        out += " where "
        expr(filter)
      }
    case .stats(let stats):
      out += "stats " + stats.description
    case .explain(let query):
      out += "explain"
      if query != Query(filter: nil) {
        out += " "
        self.query(query)
      }
    case .show(let fields):
      out += "show " + (fields.isEmpty ? "*" : Printer.fieldList(fields))
    case .set(let option, let value):
      let name = option.text == "null" ? "null" : Quoting.name(option.text, at: .statementName)
      out += "set " + name + " "
      expr(value, .prefix, value: true)
    case .settings:
      out += "set"
    }
  }

  /// `mean(price) as m, max(price)`: items as `--select` and `stats` read them.
  static func selection(_ items: [SelectItem]) -> String {
    items.map { item in
      var printer = Printer()
      if case .call(let name, let arguments) = item.expr.kind, Aggregate(spelling: name.text) != nil
      {
        // (An aggregate's name needs no quotes here: `count` starts no statement after stats.)
        printer.out += name.text + "("
        printer.join(arguments) { $0.expr($1) }
        printer.out += ")"
      } else {
        printer.expr(item.expr, .bitwise)
      }
      if let alias = item.alias {
        printer.out += " as " + Quoting.name(alias.text, at: .statementName)
      }
      return printer.out
    }.joined(separator: ", ")
  }

  private static func operand(_ expr: Expr) -> String {
    var printer = Printer()
    printer.expr(expr, .bitwise, value: true)
    return printer.out
  }

  private static func fieldList(_ fields: [FieldPath]) -> String {
    fields.map { text(of: $0, value: false) }.joined(separator: ", ")
  }
}

extension Expr: CustomStringConvertible {
  /// The canonical source text of the expression.
  public var description: String {
    var printer = Printer()
    printer.expr(self)
    return printer.out
  }
}

extension Query: CustomStringConvertible {
  /// The canonical source text of the query.
  public var description: String {
    var printer = Printer()
    printer.query(self)
    return printer.out
  }
}

extension StatsQuery: CustomStringConvertible {
  /// The canonical source text, as `flt --stats` reads it: `mean(price) by color where ...`.
  public var description: String {
    var text = Printer.selection(items)
    if !groups.isEmpty { text += " by " + Printer.selection(groups) }
    if let filter { text += " where " + filter.description }
    let clauses = Query(filter: nil, ordering: ordering, limit: limit, offset: offset)
    if !ordering.isEmpty || limit != nil || offset != nil { text += " " + clauses.description }
    return text
  }
}

extension Stmt: CustomStringConvertible {
  /// The canonical source text of the statement.
  public var description: String {
    var printer = Printer()
    printer.statement(self)
    return printer.out
  }
}

extension Script: CustomStringConvertible {
  /// The canonical source text of the script: one statement per line.
  public var description: String {
    statements.map(\.description).joined(separator: "\n")
  }
}

extension Literal: CustomStringConvertible {
  /// The literal as it is written in source.
  public var description: String { Printer.text(of: self) }
}
