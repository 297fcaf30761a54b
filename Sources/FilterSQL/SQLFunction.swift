/// How one of the embedder's functions is written in SQL: a template in which `{1}`, `{2}`, ...
/// stand for the arguments, or the name of a SQL function taking the same arguments in the
/// same order.
///
/// ```swift
/// let table = SQLTable(
///   name: "shops", schema: schema,
///   functions: [
///     SQLFunction("distance", sql: "earth_distance(ll_to_earth({1}, {2}), ll_to_earth({3}, {4}))"),
///     SQLFunction("initials", sql: "initials"),  // initials(name) -> initials("name")
///   ])
/// ```
///
/// The SQL must give what the function gives in flt: NULL where flt's value is null, equal
/// elsewhere. The translator trusts it, as it trusts the table's column types; the template is
/// the embedder's text, never a user's (the arguments are columns, parameters, and SQL the
/// translator wrote).
public struct SQLFunction: Hashable, Sendable {
  /// The name filters call the function by.
  public let name: String
  /// The template, or a SQL function's name.
  public let sql: String

  /// The function `name`, written as `sql`: a template with `{1}`, `{2}`, ... for the
  /// arguments, or (with no `{`) the name of a SQL function called with them.
  public init(_ name: String, sql: String) {
    self.name = name
    self.sql = sql
  }

  /// The call with `arguments` written as SQL; nil when the template names an argument the
  /// call does not have.
  func call(_ arguments: [String]) -> String? {
    guard sql.contains("{") else { return "\(sql)(\(arguments.joined(separator: ", ")))" }
    // One pass, so that an argument's own text is never read as a template.
    var written = ""
    var rest = Substring(sql)
    while let open = rest.firstIndex(of: "{") {
      written += rest[..<open]
      let digits = rest[rest.index(after: open)...].prefix(while: \.isASCIIDigit)
      let close = digits.endIndex
      guard !digits.isEmpty, close < rest.endIndex, rest[close] == "}",
        let number = Int(digits), number >= 1, number <= arguments.count
      else { return nil }
      written += "(" + arguments[number - 1] + ")"
      rest = rest[rest.index(after: close)...]
    }
    return written + rest
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
