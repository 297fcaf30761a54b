import FilterDSL

/// How a schema inferred from the first records grows when later records do not fit it: a
/// value of another kind widens its field's type, and a key never seen before becomes a new
/// field at the end (so the slots of the fields already there do not move).
///
/// Types only ever widen, along `null < bool`, `null < int < decimal < double`, `null < date`,
/// ..., other mixes of scalars are text, and lists or records mixed with anything are mixed
/// values (``ValueType/any``, which holds every value), so a reader that grows its schema for
/// each misfit stops growing after a few steps per field, and nothing is read as null that
/// was not null.
extension ValueType {
  /// The narrowest type that holds values of both types, as the reader infers it: `int` and
  /// `double` are `double`, lists widen their elements, records gather their fields, lists or
  /// records among other values are mixed values (``ValueType/any``), and any other mix is
  /// text (numbers and booleans keep their spelling).
  func widened(with other: ValueType) -> ValueType {
    switch (self, other) {
    case _ where self == other: return self
    case (.null, _): return other
    case (_, .null): return self
    case (.int, .double), (.double, .int): return .double
    // (Integers beyond 2^53 make a field of decimals: a later one widens an integer field so;
    // a number no decimal holds, `1e300`, makes it a field of doubles.)
    case (.int, .decimal), (.decimal, .int): return .decimal
    case (.decimal, .double), (.double, .decimal): return .double
    case (.list(let a), .list(let b)): return .list(a.widened(with: b))
    case (.record(let a), .record(let b)): return .record(a.merged(with: b))
    // Lists and records among other values (or each other): each value keeps its kind.
    case (.list, _), (_, .list), (.record, _), (_, .record), (.any, _), (_, .any): return .any
    default: return .string
    }
  }
}

extension Schema {
  /// The fields of this schema widened by those of `other`, then `other`'s new fields, which
  /// are optional (the records before them lacked them).
  func merged(with other: Schema) -> Schema {
    var fields = self.fields
    for field in other.fields {
      if let (slot, known) = self.field(named: field.name) {
        fields[slot] = known.grown(to: known.type.widened(with: field.type), with: field.type)
      } else {
        fields.append(Schema.Field(field.name, field.type, optional: true))
      }
    }
    return Schema(fields)
  }

  /// This schema with the field at `path` (a dotted path through nested records and lists of
  /// records) widened to hold a value of type `found`, or added when the path's last name is
  /// not a field yet.
  func grown(at path: ArraySlice<String>, found: ValueType) -> Schema {
    guard let name = path.first else { return self }
    var fields = self.fields
    guard let (slot, field) = self.field(named: name) else {
      // A new field: build the records around it when it is deeper than one name.
      guard path.count == 1 else { return self }
      fields.append(Schema.Field(name, found, optional: true))
      return Schema(fields)
    }
    let rest = path.dropFirst()
    if rest.isEmpty {
      fields[slot] = field.grown(to: field.type.widened(with: found), with: found)
    } else {
      switch field.type {
      case .record(let inner):
        fields[slot] = field.grown(to: .record(inner.grown(at: rest, found: found)), with: .null)
      case .list(.record(let inner)):
        fields[slot] = field.grown(
          to: .list(.record(inner.grown(at: rest, found: found))), with: .null)
      default:
        return self
      }
    }
    return Schema(fields)
  }
}

extension Schema {
  /// The type of the field at `path`, through nested records and lists of records.
  func type(at path: ArraySlice<String>) -> ValueType? {
    guard let name = path.first, let (_, field) = field(named: name) else { return nil }
    let rest = path.dropFirst()
    if rest.isEmpty { return field.type }
    switch field.type {
    case .record(let inner), .list(.record(let inner)): return inner.type(at: rest)
    default: return nil
    }
  }
}

extension Schema.Field {
  /// This field widened to `type` to hold a value of type `found`; its known values stay only
  /// while the type does. A number field grown to text by a later value keeps the hint that it
  /// held numbers.
  func grown(to type: ValueType, with found: ValueType) -> Schema.Field {
    guard type != self.type else { return self }
    let numbers: NumericText? =
      switch (self.type, type) {
      case (.int, .string): NumericText(integers: true)
      case (.double, .string): NumericText(integers: false)
      default: nil
      }
    return Schema.Field(name, type, optional: isOptional, numericText: numbers)
  }
}

/// A change to a reader's schema made by a record that did not fit it.
public struct SchemaChange: Sendable {
  /// The names on the way to the field: `["camera", "zoom"]`.
  public var path: [String]
  /// Its type before, or nil for a field seen for the first time.
  public var before: ValueType?
  /// Its type from now on.
  public var after: ValueType
  /// The first value that did not fit, with its file, line and column (a note).
  public var place: DataError

  /// Whether the change adds a top-level field: the records read before it are null there,
  /// as they are read again.
  public var isNewField: Bool { before == nil && path.count == 1 }

  /// The field's dotted path, for messages.
  public var field: String { path.joined(separator: ".") }
}
