extension Schema {
  /// The type of the field at `path`. A step through a list of records reaches into each of
  /// them, and the result is a list (lists met on the way are flattened): the rule the checker
  /// applies, without its diagnostics.
  public func type(of path: FieldPath) -> ValueType? {
    var schema = self
    var type: ValueType? = nil
    var throughList = false
    for name in path.components {
      if let current = type {
        switch current {
        case .record(let inner): schema = inner
        case .list(.record(let inner)):
          schema = inner
          throughList = true
        case .null: return .null
        default: return nil
        }
      }
      guard let (_, field) = schema.field(named: name.text) else { return nil }
      type = field.type
    }
    guard throughList, let found = type else { return type }
    if case .list = found { return found }
    return .list(found)
  }

  /// The fields of the records in the list `expr` names (`children`, `order.lines`): the
  /// scope of `any children (age < 18)`.
  func elementSchema(of expr: Expr) -> Schema? {
    guard case .field(let path) = expr.kind, case .list(.record(let inner)) = type(of: path)
    else { return nil }
    return inner
  }
}
