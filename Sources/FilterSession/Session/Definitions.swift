import FilterDSL

/// What `let` defined: named filters (used by name, `big and color == Gold`) and parameters
/// (used as `$budget`). Both are expanded into the statements that use them before they are
/// checked, so a named filter can be used anywhere a filter can, and a parameter anywhere a
/// value can (`in $sizes` with `let sizes = (256, 512)`, `in $range` with `let range = 1...5`).
public struct Definitions: Sendable {
  /// One definition, already expanded (it uses no other names), with its size. The names it
  /// used share their definitions' trees (a chain of names that each double the one before
  /// holds one node a level, not the doubled tree); a statement that uses it gets a copy of
  /// its own, placed at the use.
  public struct Definition: Sendable {
    /// What the name stands for, expanded.
    public var value: Expr
    /// Whether it is a parameter (a value that reads no field) rather than a named filter.
    public var isParameter: Bool
    /// A parameter's type.
    var type: ValueType?
    /// A parameter's value, when it is one (a constant or a list of them): such a parameter is
    /// bound to the compiled query, as an embedder binds one. A range (`let r = 1...5`) has
    /// no value of its own and is written into the statements that use it instead.
    public var constant: Value?
    /// The nodes and depth of `value` written out (shared parts counted each time).
    var nodes: Int
    var depth: Int
    /// What a named filter was checked against, when it was: a definition that uses it then
    /// checks its name, not its tree (``Definitions/skeleton(of:checkedAgainst:)``).
    var checked: Check?

    /// A definition of `value`, whose size is `size` when known (else counted).
    init(
      value: Expr, isParameter: Bool, type: ValueType?, constant: Value? = nil,
      size: (nodes: Int, depth: Int)? = nil
    ) {
      self.value = value
      self.isParameter = isParameter
      self.type = type
      self.constant = constant
      (nodes, depth) = size ?? Self.size(of: value)
    }

    /// The nodes and depth of `expr` (bounded: trees are at most the parser's depth).
    private static func size(of expr: Expr) -> (nodes: Int, depth: Int) {
      var nodes = 1
      var depth = 0
      _ = expr.mappingChildren { child in
        let (n, d) = size(of: child)
        nodes += n
        depth = Swift.max(depth, d)
        return child
      }
      return (nodes, depth + 1)
    }
  }

  /// The data's schema and the parameters' types a named filter was checked against.
  struct Check: Equatable {
    let schema: Schema
    let parameters: [String: ValueType]
  }

  /// The named filters, by name.
  public private(set) var filters: [String: Definition] = [:]
  /// The parameters, by name.
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

  /// The types of the parameters, for checking a filter that uses them.
  var parameterTypes: [String: ValueType] {
    parameters.compactMapValues(\.type)
  }

  /// The parameters that have values, bound to compiled queries: their types and values.
  var bound: (types: [String: ValueType], values: [String: Value]) {
    var types: [String: ValueType] = [:]
    var values: [String: Value] = [:]
    for (name, definition) in parameters {
      guard let value = definition.constant, let type = definition.type else { continue }
      types[name] = type
      values[name] = value
    }
    return (types, values)
  }

  /// `expr` with every named filter replaced by its definition and, when `parameters` is
  /// true, every `$parameter` by its value (except, when `constants` is false, those bound to
  /// compiled queries: they stay `$parameter`). Each node of a definition is placed at the name it
  /// replaces, so diagnostics point at the use. Named filters keep their parameters until they
  /// are used: redefining `$budget` changes every filter that reads it. Nil when the result
  /// would be deeper or larger than a parsed filter may be.
  /// Nil too when it is deeper or larger than `limits` allow (a session's policy: the
  /// untrusted limits hold after expansion as they hold for what was typed).
  /// With `sharing` (for a definition), the definitions it uses are not copied but shared,
  /// and their nodes keep the places they were written at: only a statement's copy is placed.
  func expand(
    _ expr: Expr, parameters: Bool = true, constants: Bool = true,
    limits: ParserLimits = .default, sharing: Bool = false
  ) -> (expr: Expr, depth: Int, nodes: Int)? {
    if isEmpty && !sharing { return (expr, 0, 0) }
    var nodes = 0
    var expanded = false
    let mode = Mode(
      filters: true, parameters: parameters, constants: constants, place: nil, sharing: sharing)
    let maxNodes = Swift.min(Definitions.maxNodes, limits.maxNodes)
    let (result, depth) = rewrite(expr, mode, nodes: &nodes, expanded: &expanded, max: maxNodes)
    let maxDepth = Swift.min(Definitions.maxDepth, limits.effectiveMaxDepth)
    if expanded && (depth > maxDepth || nodes > maxNodes) { return nil }
    return (result, depth, nodes)
  }

  /// What a rewrite replaces, and where it moves the nodes (inside an inserted definition).
  private struct Mode {
    var filters: Bool
    var parameters: Bool
    /// Whether parameters with values are replaced too.
    var constants: Bool
    var place: SourceRange?
    /// Whether definitions with nothing to replace in them are shared, not copied and placed.
    var sharing = false
  }

  /// `expr` as written, each named filter in it a parameter of the filter's type (named so
  /// that no one can write it), when each was checked against `check`: checking that checks
  /// the expansion, in the size of what was written (sixty names for one of 2^17 nodes were
  /// each checked on the whole tree: 12.7 s). Nil when a name was not checked so, or stands
  /// under `where` or a quantifier's `(filter)`, where the fields are another record's.
  func skeleton(of expr: Expr, checkedAgainst check: Check) -> (
    expr: Expr, types: [String: ValueType]
  )? {
    var types = check.parameters
    var failed = false
    func walk(_ expr: Expr, scoped: Bool) -> Expr {
      if failed { return expr }
      if case .field(let path) = expr.kind, path.components.count == 1,
        let definition = filters[path.components[0].text]
      {
        guard !scoped, definition.checked == check, let type = definition.type else {
          failed = true
          return expr
        }
        let name = "\u{0}" + path.components[0].text
        types[name] = type
        return Expr(.parameter(Name(name)), range: expr.range)
      }
      switch expr.kind {
      case .filtered(let list, let filter):
        return Expr(
          .filtered(walk(list, scoped: scoped), walk(filter, scoped: true)), range: expr.range)
      case .quantified(_, _, let condition):
        guard case .satisfies = condition.kind else { fallthrough }
        return expr.mappingChildren { walk($0, scoped: true) }
      default:
        return expr.mappingChildren { walk($0, scoped: scoped) }
      }
    }
    let result = walk(expr, scoped: false)
    return failed ? nil : (result, types)
  }

  /// Rebuilds `expr` as `mode` says. Recursion is bounded: parsed trees and definitions are
  /// both at most ``maxDepth`` deep. Once the result has more than `max` nodes the
  /// rewrite stops building it (the caller reports it as too large), so that names that double
  /// at each level cost at most the limit, not the whole doubled tree.
  private func rewrite(
    _ expr: Expr, _ mode: Mode, nodes: inout Int, expanded: inout Bool, max: Int
  ) -> (Expr, Int) {
    if nodes > max { return (expr, 0) }
    if let (definition, isFilter) = definition(named: expr, mode) {
      expanded = true
      // Inside a named filter, only its parameters are left to replace.
      let inner = Mode(
        filters: false, parameters: mode.parameters && isFilter, constants: mode.constants,
        place: expr.range, sharing: mode.sharing)
      if mode.sharing && !inner.parameters {
        nodes += definition.nodes
        return (definition.value, definition.depth)
      }
      return rewrite(definition.value, inner, nodes: &nodes, expanded: &expanded, max: max)
    }
    nodes += 1
    var deepest = 0
    var result = expr.mappingChildren { child in
      let (rewritten, depth) = rewrite(
        child, mode, nodes: &nodes, expanded: &expanded, max: max)
      deepest = Swift.max(deepest, depth)
      return rewritten
    }
    if let place = mode.place { result.relocate(to: place) }
    return (result, deepest + 1)
  }

  /// The definition a bare name (`big`) or parameter (`$budget`) stands for, if `mode`
  /// replaces it; and whether it is a named filter.
  private func definition(named expr: Expr, _ mode: Mode) -> (Definition, Bool)? {
    switch expr.kind {
    case .field(let path) where mode.filters && path.components.count == 1:
      filters[path.components[0].text].map { ($0, true) }
    case .parameter(let name) where mode.parameters:
      parameters[name.text].flatMap { mode.constants || $0.constant == nil ? ($0, false) : nil }
    default: nil
    }
  }
}
