import FilterDSL

/// Why a statement failed: diagnostics pointing into the script or REPL entry, rendered with
/// `file:line:column`, the source line and a caret.
public struct SessionError: ReportableError, Sendable {
  /// The text the diagnostics point into.
  public let source: SourceText
  /// The diagnostics, in source order.
  public let diagnostics: [Diagnostic]
  /// Text shown before the diagnostics, such as a data file's own error.
  public let preamble: String

  /// An error of `diagnostics` pointing into `source`, shown after `preamble`.
  public init(source: SourceText, diagnostics: [Diagnostic], preamble: String = "") {
    self.source = source
    self.diagnostics = diagnostics.sortedByPosition()
    self.preamble = preamble
  }

  /// The error as `flt` prints it; `colored` adds ANSI colours for a terminal.
  public func rendered(colored: Bool = false) -> String {
    var renderer = DiagnosticRenderer(source: source)
    renderer.colored = colored
    return preamble + renderer.render(diagnostics)
  }
}
