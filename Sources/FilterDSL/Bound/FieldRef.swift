/// A field resolved in a schema: the slots that lead to it, its type and optionality. The
/// only way to make one is ``Schema/resolve(_:)``, the one walk of a dotted path.
public struct FieldRef: Hashable, Sendable, CustomStringConvertible {
  /// The path as written.
  public let path: FieldPath
  /// One step per name of the path, from the record inwards. (Fewer when a name on the way is
  /// a field with no values, typed `null`: what lies under it is null too.)
  public let steps: [PathStep]
  /// The type of the value read: a list when a step goes through a list of records (lists met
  /// on the way are flattened into one).
  public let type: ValueType
  /// Whether some records have no value here.
  public let isOptional: Bool
  /// The values a text field is known to take, if the schema says.
  public let knownValues: [String]?

  /// The slot of the top-level field.
  public var slot: Int { steps[0].slot }

  /// Whether the path is one top-level field.
  public var isTopLevel: Bool { steps.count == 1 && path.components.count == 1 }

  /// The path, dotted: `camera.megapixels`.
  public var description: String { path.dotted }

  init(
    path: FieldPath, steps: [PathStep], type: ValueType, isOptional: Bool, knownValues: [String]?
  ) {
    self.path = path
    self.steps = steps
    self.type = type
    self.isOptional = isOptional
    self.knownValues = knownValues
  }
}
