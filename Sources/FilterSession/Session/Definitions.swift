import FilterDSL

/// What `let` defined: named filters (used by name, `big and color == Gold`) and parameters
/// (used as `$budget`). Both are expanded into the statements that use them before they are
/// checked, so a named filter can be used anywhere a filter can, and a parameter anywhere a
/// value can (`in $sizes` with `let sizes = (256, 512)`, `in $range` with `let range = 1...5`).
public struct Definitions: Sendable {
  /// One definition, already expanded (it uses no other names), with its size.
  public struct Definition: Sendable {
    public var value: Expr
    /// Whether it is a parameter (a value that reads no field) rather than a named filter.
    public var isParameter: Bool
    var depth: Int
    var nodes: Int
  }

  public private(set) var filters: [String: Definition] = [:]
  public private(set) var parameters: [String: Definition] = [:]

  /// Whether nothing is defined.
  public var isEmpty: Bool { filters.isEmpty && parameters.isEmpty }

  mutating func define(_ name: String, _ definition: Definition) {
    filters[name] = nil
    parameters[name] = nil
    if definition.isParameter {
      parameters[name] = definition
    } else {
      filters[name] = definition
    }
  }

  /// The deepest and largest an expansion may be: what the parser allows one filter.
  static let maxDepth = ParserLimits.maximumDepth
  static let maxNodes = ParserLimits.default.maxNodes

  /// `expr` with every name replaced by its definition, each node of a definition placed at
  /// the name it replaces (so diagnostics point at the use). Nil when the result would be
  /// deeper or larger than a parsed filter may be.
  func expand(_ expr: Expr) -> (expr: Expr, depth: Int, nodes: Int)? {
    if isEmpty { return (expr, 0, 0) }
    var nodes = 0
    var expanded = false
    let (result, depth) = rewrite(expr, at: nil, nodes: &nodes, expanded: &expanded)
    if expanded && (depth > Definitions.maxDepth || nodes > Definitions.maxNodes) { return nil }
    return (result, depth, nodes)
  }

  /// Rebuilds `expr`: replacing names (when `place` is nil), or moving every range to `place`
  /// (inside a definition being inserted, which holds no names to replace). Recursion is
  /// bounded: parsed trees and definitions are both at most ``maxDepth`` deep.
  private func rewrite(
    _ expr: Expr, at place: SourceRange?, nodes: inout Int, expanded: inout Bool
  ) -> (Expr, Int) {
    if place == nil, let definition = definition(named: expr) {
      expanded = true
      let (moved, _) = rewrite(definition.value, at: expr.range, nodes: &nodes, expanded: &expanded)
      return (moved, definition.depth)
    }
    nodes += 1
    var deepest = 0
    var result = expr.mappingChildren { child in
      let (rewritten, depth) = rewrite(child, at: place, nodes: &nodes, expanded: &expanded)
      deepest = Swift.max(deepest, depth)
      return rewritten
    }
    if let place { result.relocate(to: place) }
    return (result, deepest + 1)
  }

  /// The definition a bare name (`big`) or parameter (`$budget`) stands for.
  private func definition(named expr: Expr) -> Definition? {
    switch expr.kind {
    case .field(let path) where path.components.count == 1:
      filters[path.components[0].text]
    case .parameter(let name): parameters[name.text]
    default: nil
    }
  }
}
