extension Schema {
  /// Why a path does not resolve: the index of the name that fails, and why.
  public enum PathError: Error, Hashable, Sendable {
    /// The name at `index` is not a field of `fields` (the record reached so far).
    case unknown(index: Int, fields: Schema)
    /// The name at `index` follows a field that holds no records: `field` of that type.
    case notARecord(index: Int, field: Field)
  }

  /// Resolves `path`: the one walk of a dotted path, which the checker and every other
  /// consumer of names use. A step through a list of records reaches into each of them, and
  /// the result is a list (lists met on the way are flattened into one). Under a field with no
  /// values (typed `null`) every name resolves, to null.
  public func resolve(_ path: FieldPath) -> Result<FieldRef, PathError> {
    var schema = self
    var steps: [PathStep] = []
    var found: Field? = nil
    var throughList = false
    var stepping = false
    for (index, name) in path.components.enumerated() {
      if let current = found {
        switch current.type {
        case .null:
          return .success(
            FieldRef(
              path: path, steps: steps, type: .null, isOptional: true, knownValues: nil))
        case .record(let inner):
          (schema, stepping) = (inner, false)
        case .list(.record(let inner)):
          (schema, stepping, throughList) = (inner, true, true)
        default:
          return .failure(.notARecord(index: index, field: current))
        }
      }
      guard let (slot, field) = schema.field(named: name.text) else {
        return .failure(.unknown(index: index, fields: schema))
      }
      steps.append(PathStep(slot: slot, throughList: stepping))
      found = field
    }
    guard let field = found else { return .failure(.unknown(index: 0, fields: self)) }
    guard throughList else {
      return .success(
        FieldRef(
          path: path, steps: steps, type: field.type, isOptional: field.isOptional,
          knownValues: field.knownValues))
    }
    let element = if case .list(let inner) = field.type { inner } else { field.type }
    return .success(
      FieldRef(
        path: path, steps: steps, type: .list(element), isOptional: true,
        knownValues: field.knownValues))
  }

  /// The type of the field at `path`, if it resolves.
  public func type(of path: FieldPath) -> ValueType? {
    try? resolve(path).get().type
  }
}
