@testable import FilterDSL

/// Short helpers for tests.
enum Parse {
  /// The S-expression of a query, or the rendered diagnostics prefixed with `error:`.
  static func dump(_ text: String) -> String {
    let result = Parser.parseQuery(SourceText(text, name: "<query>"))
    if let query = result.value { return query.debugDescription }
    return "error: " + result.diagnostics.map { "\($0.code) \($0.message)" }.joined(separator: "; ")
  }

  /// The codes of the diagnostics a script gets.
  static func codes(_ text: String) -> [DiagnosticCode] {
    Parser.parseScript(SourceText(text, name: "<script>")).diagnostics.map(\.code)
  }

  /// The tokens of `text` as `kind` or `kind(text)` for names and literals.
  static func tokens(_ text: String, newlines: Bool = false) -> String {
    let source = SourceText(text)
    return Lexer.tokenize(source, newlines: newlines).tokens.dropLast().map { token in
      switch token.kind {
      case .identifier, .quotedIdentifier, .word, .parameter, .integer, .decimal, .string, .date,
        .dateTime, .duration, .length, .invalid, .modifier:
        "\(token.kind)(\(source.slice(token.range)))"
      default:
        "\(token.kind)"
      }
    }.joined(separator: " ")
  }
}
