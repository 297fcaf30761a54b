/// The fields a filter may use, with their types: an allow-list. A name that is not here is an
/// error, and the error reveals only names that are here.
public struct Schema: Hashable, Sendable {
  /// One field.
  public struct Field: Hashable, Sendable {
    /// The name, as a filter writes it (`price`, or `screen size` in backticks).
    public var name: String
    /// The type of its values.
    public var type: ValueType
    /// Whether some records have no value (null or missing).
    public var isOptional: Bool
    /// For text fields with a small set of values (an enum-like field such as `color`): those
    /// values. A filter comparing with another value gets a warning with a suggestion.
    public var knownValues: [String]?
    /// For a text field whose values were mostly numbers written as text: what was seen, so
    /// that comparing it with a number suggests converting it (see ``NumericText``).
    public var numericText: NumericText?
    /// Texts read as null in this field (a file's null marker, `NA`; a `--null` text): no
    /// record has them as values, so comparing with one is pointed to `is null`.
    public var nullTexts: [String]?

    /// A field called `name` of `type`; `optional` when some records lack it.
    public init(
      _ name: String, _ type: ValueType, optional: Bool = false, knownValues: [String]? = nil,
      numericText: NumericText? = nil, nullTexts: [String]? = nil
    ) {
      self.name = name
      self.type = type
      self.isOptional = optional
      self.knownValues = knownValues
      self.numericText = numericText
      self.nullTexts = nullTexts
    }
  }

  /// The fields, in order; a field's position is its slot in a record.
  public let fields: [Field]
  private let slots: [String: Int]

  /// A schema of `fields`. If two fields share a name, the first one counts.
  public init(_ fields: [Field]) {
    self.fields = fields
    var slots: [String: Int] = [:]
    for (slot, field) in fields.enumerated() where slots[field.name] == nil {
      slots[field.name] = slot
    }
    self.slots = slots
  }

  /// The slot and description of the field called `name`, if there is one.
  public func field(named name: String) -> (slot: Int, field: Field)? {
    guard let slot = slots[name] else { return nil }
    return (slot, fields[slot])
  }

  /// The names of the fields, in order.
  public var names: [String] { fields.map(\.name) }
}
