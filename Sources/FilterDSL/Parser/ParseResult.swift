/// What a parse produced: the tree (if any) and every diagnostic, in source order.
///
/// Parsing never throws. For a filter or query, ``value`` is nil when there is an error. For a
/// script, ``value`` holds the statements that parsed, so that tools can still work with them;
/// check ``hasErrors`` before running it.
public struct ParseResult<Value: Sendable>: Sendable, CustomStringConvertible {
  /// The tree.
  public var value: Value?
  /// Errors and warnings, in source order.
  public var diagnostics: [Diagnostic]
  /// The text that was parsed, for rendering the diagnostics.
  public let source: SourceText

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.hasErrors }

  /// The tree, or a ``FilterError`` carrying every diagnostic when there is an error.
  public func get() throws(FilterError) -> Value {
    guard let value, !hasErrors else {
      throw FilterError(source: source, diagnostics: diagnostics)
    }
    return value
  }

  /// The diagnostics rendered for display.
  public var renderedDiagnostics: String {
    DiagnosticRenderer(source: source).render(diagnostics)
  }

  /// The diagnostics rendered with their lines and carets, or the tree when there are none.
  public var description: String {
    if !diagnostics.isEmpty { return renderedDiagnostics }
    return value.map { "\($0)" } ?? ""
  }
}
