/// The compiled chain of strategies, as `explain` shows it: each strategy wraps the ones it
/// combines, the way a stack of decorators describes itself:
/// `And(In(color, {Starlight, Space Black}), Ge(diskSpace, 256))`.
public struct Plan: Hashable, Sendable, CustomStringConvertible {
  /// The strategy: `And`, `Or`, `Not`, `Eq`, `Ge`, `In`, `Contains`...
  public let name: String
  /// What it applies to: field names, constants, nested strategies.
  public let arguments: [Argument]

  /// One argument of a strategy.
  public enum Argument: Hashable, Sendable {
    /// A value or field as text: `256`, `color`.
    case text(String)
    /// A strategy the strategy wraps.
    case plan(Plan)
  }

  init(_ name: String, _ arguments: [Argument]) {
    self.name = name
    self.arguments = arguments
  }

  init(_ name: String, plans: [Plan]) {
    self.init(name, plans.map { .plan($0) })
  }

  /// The chain as `explain` prints it: `And(In(color, {Gold}), Ge(diskSpace, 256))`.
  public var description: String {
    let inner = arguments.map { argument -> String in
      switch argument {
      case .text(let text): text
      case .plan(let plan): plan.description
      }
    }
    return "\(name)(\(inner.joined(separator: ", ")))"
  }
}
