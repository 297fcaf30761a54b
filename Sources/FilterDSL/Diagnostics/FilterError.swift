/// An error that carries every diagnostic found in one source text.
///
/// Thrown by the throwing entry points (``ParseResult/get()``); its description is the
/// rendered diagnostics, ready to print.
public struct FilterError: Error, Sendable, CustomStringConvertible {
  /// The text the diagnostics point into.
  public let source: SourceText
  /// The diagnostics, in source order.
  public let diagnostics: [Diagnostic]

  /// An error carrying `diagnostics`, which point into `source`.
  public init(source: SourceText, diagnostics: [Diagnostic]) {
    self.source = source
    self.diagnostics = diagnostics.sortedByPosition()
  }

  /// The diagnostics rendered as plain text, one block each.
  public var description: String { rendered(colored: false) }

  /// The diagnostics rendered, with ANSI colours for a terminal when `colored`.
  public func rendered(colored: Bool) -> String {
    var renderer = DiagnosticRenderer(source: source)
    renderer.colored = colored
    return renderer.render(diagnostics)
  }
}
