/// A parameter resolved to its slot among the declared parameters (sorted by name).
public struct ParameterRef: Hashable, Sendable, CustomStringConvertible {
  /// The name, without `$`.
  public let name: String
  /// The slot among the declared parameters, sorted by name.
  public let slot: Int
  /// The declared type.
  public let type: ValueType

  /// `$name`.
  public var description: String { "$" + name }
}
