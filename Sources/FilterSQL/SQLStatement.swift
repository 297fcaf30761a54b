/// A statement with its parameters: `text` holds placeholders (`$1` / `?1`) and never a value.
public struct SQLStatement: Hashable, Sendable, CustomStringConvertible {
  /// The SQL text.
  public var text: String
  /// The value of each placeholder, the first for `$1` / `?1`.
  public var parameters: [SQLValue]

  /// A statement of `text` with `parameters`.
  public init(_ text: String, parameters: [SQLValue] = []) {
    self.text = text
    self.parameters = parameters
  }

  /// The text, then the parameters in brackets.
  public var description: String {
    parameters.isEmpty
      ? text : text + "  -- " + parameters.map(\.description).joined(separator: ", ")
  }
}
