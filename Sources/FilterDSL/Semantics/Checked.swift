/// What checking produced: the bound tree (nil when there is an error) and every diagnostic,
/// in source order.
public struct Checked<Tree: Sendable>: Sendable {
  /// The bound tree; nil when ``diagnostics`` has an error.
  public var tree: Tree?
  /// Errors and warnings, in source order.
  public var diagnostics: [Diagnostic]

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.hasErrors }

  /// The tree, or a ``FilterError`` over `source` carrying every diagnostic.
  public func get(_ source: SourceText) throws(FilterError) -> Tree {
    guard let tree, !hasErrors else {
      throw FilterError(source: source, diagnostics: diagnostics)
    }
    return tree
  }
}
