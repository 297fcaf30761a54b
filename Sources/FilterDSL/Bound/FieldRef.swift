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

/// One step of a resolved path: the slot in a record, and whether the value stepped from is a
/// list of records (the rest of the path is then read in each of them).
public struct PathStep: Hashable, Sendable {
  /// The field's slot in the record stepped into.
  public let slot: Int
  /// Whether the value stepped from is a list of records.
  public let throughList: Bool

  /// A step to `slot`, through a list of records when `throughList`.
  public init(slot: Int, throughList: Bool) {
    self.slot = slot
    self.throughList = throughList
  }
}

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
