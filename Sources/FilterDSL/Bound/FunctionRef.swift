/// A function resolved to its definition.
public struct FunctionRef: Sendable, CustomStringConvertible {
  /// The function called.
  public let definition: FunctionDefinition
  /// Whether the call applies the function to each element of a list given first (`lower(tags)`)
  /// rather than to the list whole.
  public let mapsOverList: Bool

  /// The function's name.
  public var name: String { definition.name }
  /// The function's name.
  public var description: String { definition.name }
}
