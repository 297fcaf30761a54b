/// A statement with its parameters: `text` holds placeholders (`$1` / `?1`) and never a value.
public struct SQLStatement: Hashable, Sendable, CustomStringConvertible {
  /// The SQL text.
  public var text: String
  /// The value of each placeholder, the first for `$1` / `?1`.
  public var parameters: [SQLValue]
  /// Whether the result is a few rows (a count, a row per group, a page with a limit): a
  /// client may then ask for all of it at once, which lets PostgreSQL plan the statement in
  /// parallel; other results are fetched a batch at a time.
  public var isSmall: Bool

  /// A statement of `text` with `parameters`.
  public init(_ text: String, parameters: [SQLValue] = [], isSmall: Bool = false) {
    self.text = text
    self.parameters = parameters
    self.isSmall = isSmall
  }

  /// The text, then the parameters in brackets.
  public var description: String {
    parameters.isEmpty
      ? text : text + "  -- " + parameters.map(\.description).joined(separator: ", ")
  }
}
