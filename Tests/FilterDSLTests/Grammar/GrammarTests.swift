import Foundation
import Testing

@testable import FilterDSL

/// The grammar in `grammar/` is the specification: its examples parse, its invalid examples do
/// not, and its precedence table is the parser's.
@Suite struct GrammarTests {
  static let grammarDirectory = Golden.directory.deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("grammar")

  /// The text of every `(* label: TEXT *)` line of the grammar.
  static func lines(labelled label: String) -> [String] {
    let text = Golden.read(grammarDirectory.appendingPathComponent("filter.ebnf"))
    return text.split(separator: "\n").compactMap { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      let prefix = "(* \(label): "
      guard trimmed.hasPrefix(prefix), trimmed.hasSuffix(" *)") else { return nil }
      return String(trimmed.dropFirst(prefix.count).dropLast(3))
    }
  }

  @Test func examplesParse() {
    let examples = GrammarTests.lines(labelled: "example")
    #expect(examples.count >= 30)
    for example in examples {
      let result = Parser.parseScript(SourceText(example, name: "example"))
      #expect(!result.hasErrors, "\(example)\n\(result.renderedDiagnostics)")
    }
  }

  @Test func invalidExamplesFail() {
    let invalid = GrammarTests.lines(labelled: "invalid")
    #expect(invalid.count >= 10)
    for text in invalid {
      #expect(Parser.parseScript(SourceText(text)).hasErrors, "\(text)")
    }
  }

  /// The rows of the README's precedence table name the parser's levels, in order.
  @Test func precedenceTableMatchesTheParser() {
    let readme = Golden.read(GrammarTests.grammarDirectory.appendingPathComponent("README.md"))
    let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.first != nil }
      .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
      .filter { $0.count >= 2 && Int($0[0]) != nil }
    #expect(rows.map { $0[1] } == Precedence.allCases.map { "\($0)" })
    #expect(rows.map { Int($0[0]) } == Precedence.allCases.map(\.rawValue))
  }

  /// Every keyword of the lexer appears in the grammar's keyword rule.
  @Test func keywordsMatchTheLexer() {
    let text = Golden.read(GrammarTests.grammarDirectory.appendingPathComponent("filter.ebnf"))
    guard let start = text.range(of: "keyword     ="),
      let end = text[start.upperBound...].range(of: ";")
    else {
      Issue.record("no keyword rule in the grammar")
      return
    }
    let rule = text[start.upperBound..<end.lowerBound].lowercased()
    for (spelling, _) in Keywords.table {
      #expect(
        rule.contains("\"\(spelling)\""), "\(spelling) missing from the grammar's keyword rule")
    }
  }
}
