/// A named filter the user switches on or off: one option of a multi-select catalog filter,
/// such as "256 GB" (`diskSpace == 256`).
public struct Toggle: Hashable, Sendable {
  /// What the user sees, and how ``ToggleSet/set(_:on:)`` finds it.
  public var name: String
  /// The filter the option stands for.
  public var filter: Expr
  /// Whether the shopper switched it on.
  public var isOn: Bool

  /// A toggle called `name` for `filter`, off unless `isOn`.
  public init(_ name: String, filter: Expr, isOn: Bool = false) {
    self.name = name
    self.filter = filter
    self.isOn = isOn
  }

  /// The option "field is value": `Toggle.equals("color", .string("Starlight"))`, named
  /// after the value as a shopper reads it (`Starlight`, `256`), unless `name` says otherwise.
  public static func equals(
    _ field: String, _ value: Literal, name: String? = nil, isOn: Bool = false
  ) -> Toggle {
    let filter = Expr(
      .predicate(
        Expr(.field(FieldPath(field))), Condition(.compare(.equal, Expr(.literal(value)), []))))
    return Toggle(name ?? Toggle.label(value), filter: filter, isOn: isOn)
  }

  /// A value as a label: text without its quotes, anything else as the language writes it.
  static func label(_ value: Literal) -> String {
    if case .string(let text) = value { return text }
    return value.description
  }
}

/// The options of one attribute: alternatives, so the set ORs the toggles that are on. A set
/// with none of its toggles on does not constrain. With all of them on it constrains to those
/// values, unless it ``coversEveryValue`` (its toggles list every value the data has): then,
/// as the shopper expects, it does not constrain at all.
public struct ToggleSet: Hashable, Sendable {
  /// The attribute the toggles choose among: `color`.
  public var name: String
  /// One toggle per value.
  public var toggles: [Toggle]
  /// Whether the toggles cover every value the attribute can have, so that all of them on
  /// means "any": say so only when they do (from the data's facets, say), or records with
  /// other values (and null) would come back.
  public var coversEveryValue: Bool

  /// A set of `toggles`; `coversEveryValue` when they list every value the data has (then all on
  /// does not constrain).
  public init(_ name: String, _ toggles: [Toggle], coversEveryValue: Bool = false) {
    self.name = name
    self.toggles = toggles
    self.coversEveryValue = coversEveryValue
  }

  /// One "field is value" toggle per value, all off.
  public static func values(
    _ field: String, _ values: [Literal], coversEveryValue: Bool = false
  ) -> ToggleSet {
    ToggleSet(field, values.map { Toggle.equals(field, $0) }, coversEveryValue: coversEveryValue)
  }

  /// Switches the toggle called `name`; a name that is none of them is an error that says
  /// which names there are.
  public mutating func set(_ name: String, on: Bool) throws(MultiSelectError) {
    guard let index = toggles.firstIndex(where: { $0.name == name }) else {
      throw MultiSelectError(
        kind: "toggle", name: name, of: self.name, among: toggles.map(\.name))
    }
    toggles[index].isOn = on
  }

  /// The OR of the toggles that are on, or nil when the set does not constrain. One toggle is
  /// its own filter.
  public var filter: Expr? {
    let on = toggles.filter(\.isOn)
    guard !on.isEmpty, !(coversEveryValue && on.count == toggles.count) else { return nil }
    return on.count == 1 ? on[0].filter : Expr(.logical(.or, on.map(\.filter)))
  }
}

/// A catalog filter made of sets: the AND of the sets that constrain. Adding an attribute is
/// adding a set; the others are untouched.
public struct Requirement: Hashable, Sendable {
  /// The sets, each ORing its toggles that are on.
  public var sets: [ToggleSet]

  /// A requirement ANDing `sets`.
  public init(_ sets: [ToggleSet]) { self.sets = sets }

  /// Switches the toggle `toggle` of the set `set`; unknown names are errors.
  public mutating func set(_ set: String, _ toggle: String, on: Bool) throws(MultiSelectError) {
    guard let index = sets.firstIndex(where: { $0.name == set }) else {
      throw MultiSelectError(kind: "set", name: set, of: nil, among: sets.map(\.name))
    }
    try sets[index].set(toggle, on: on)
  }

  /// The AND of the constraining sets, or nil when nothing constrains (every record matches).
  public var filter: Expr? {
    let parts = sets.compactMap(\.filter)
    if parts.isEmpty { return nil }
    return parts.count == 1 ? parts[0] : Expr(.logical(.and, parts))
  }

  /// The filter as text, ready to show, save, or compile: `true` when nothing constrains.
  public var text: String { filter?.description ?? "true" }
}

/// A toggle or set name that a ``Requirement`` or ``ToggleSet`` does not have.
public struct MultiSelectError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was not found: `toggle` or `set`.
  public var kind: String
  /// The name asked for.
  public var name: String
  /// The set it was asked of, for a toggle.
  public var set: String?
  /// The names there are.
  public var names: [String]

  init(kind: String, name: String, of set: String?, among names: [String]) {
    self.kind = kind
    self.name = name
    self.set = set
    self.names = names
  }

  /// "no toggle 'starlight' in 'color'; did you mean 'Starlight'?"
  public var description: String {
    let place = set.map { " in '\($0)'" } ?? ""
    let help =
      Suggestion.closest(to: name, among: names).map { "did you mean '\($0)'?" }
      ?? "the \(kind)s are \(names.map { "'\($0)'" }.joined(separator: ", "))"
    return "no \(kind) '\(name)'\(place); \(help)"
  }
}
