/// A named filter the user switches on or off: one option of a multi-select catalog filter,
/// such as "256 GB" (`diskSpace == 256`).
public struct Toggle: Hashable, Sendable {
  /// What the user sees.
  public var name: String
  /// The filter the option stands for.
  public var filter: Expr
  public var isOn: Bool

  public init(_ name: String, filter: Expr, isOn: Bool = false) {
    self.name = name
    self.filter = filter
    self.isOn = isOn
  }

  /// The option "field is value": `Toggle.equals("color", .string("Starlight"))`.
  public static func equals(
    _ field: String, _ value: Literal, name: String? = nil, isOn: Bool = false
  ) -> Toggle {
    let filter = Expr(
      .predicate(
        Expr(.field(FieldPath(field))), Condition(.compare(.equal, Expr(.literal(value)), []))))
    return Toggle(name ?? value.description, filter: filter, isOn: isOn)
  }
}

/// The options of one attribute: alternatives, so the set ORs the toggles that are on. A set
/// with all of its toggles on, or none, does not constrain at all.
public struct ToggleSet: Hashable, Sendable {
  public var name: String
  public var toggles: [Toggle]

  public init(_ name: String, _ toggles: [Toggle]) {
    self.name = name
    self.toggles = toggles
  }

  /// One "field is value" toggle per value, all off.
  public static func values(_ field: String, _ values: [Literal]) -> ToggleSet {
    ToggleSet(field, values.map { Toggle.equals(field, $0) })
  }

  /// Switches the toggle called `name`.
  public mutating func set(_ name: String, on: Bool) {
    for i in toggles.indices where toggles[i].name == name { toggles[i].isOn = on }
  }

  /// The OR of the toggles that are on, or nil when the set does not constrain. One toggle is
  /// its own filter.
  public var filter: Expr? {
    let on = toggles.filter(\.isOn)
    guard !on.isEmpty, on.count < toggles.count else { return nil }
    return on.count == 1 ? on[0].filter : Expr(.logical(.or, on.map(\.filter)))
  }
}

/// A catalog filter made of sets: the AND of the sets that constrain. Adding an attribute is
/// adding a set; the others are untouched.
public struct Requirement: Hashable, Sendable {
  public var sets: [ToggleSet]

  public init(_ sets: [ToggleSet]) { self.sets = sets }

  /// Switches the toggle `toggle` of the set `set`.
  public mutating func set(_ set: String, _ toggle: String, on: Bool) {
    for i in sets.indices where sets[i].name == set { sets[i].set(toggle, on: on) }
  }

  /// The AND of the constraining sets, or nil when nothing constrains (every record matches).
  public var filter: Expr? {
    let parts = sets.compactMap(\.filter)
    if parts.isEmpty { return nil }
    return parts.count == 1 ? parts[0] : Expr(.logical(.and, parts))
  }

  /// The filter as text, ready to show, save, or compile; empty when nothing constrains.
  public var text: String { filter?.description ?? "" }
}
