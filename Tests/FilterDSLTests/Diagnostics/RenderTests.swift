import Testing

@testable import FilterDSL

/// Rendered diagnostics, exactly: golden files in `Golden/diagnostics/`, one `.flt` input and
/// one `.txt` expected rendering each.
@Suite struct RenderTests {
  static var inputs: [String] { Golden.inputs("diagnostics", ext: "flt").map(\.lastPathComponent) }

  @Test(arguments: inputs)
  func goldenRendering(file: String) {
    let url = Golden.directory.appendingPathComponent("diagnostics").appendingPathComponent(file)
    let source = SourceText(Golden.read(url), name: file)
    let result = Parser.parseScript(source)
    #expect(result.hasErrors, "\(file) should have errors")
    let expected = url.deletingPathExtension().appendingPathExtension("txt")
    Golden.check(result.renderedDiagnostics, against: expected)
  }

  @Test func goldenInputsExist() {
    #expect(RenderTests.inputs.count >= 15)
  }

  /// Text taken from a larger file (a REPL entry, one line of a data file) numbers its lines
  /// from where it was: one mechanism, in the source itself.
  @Test func linesCountFromTheSourcesFirstLine() {
    let source = SourceText("count\nprice >= abc", name: "<repl>", firstLine: 41)
    #expect(source.location(of: 8) == SourceLocation(line: 42, column: 3))
    let diagnostic = Diagnostic(
      .unexpectedToken, at: SourceRange(start: 15, end: 18), message: "m", label: "here")
    #expect(
      DiagnosticRenderer(source: source).render(diagnostic) == """
        error[FLT202]: m
          --> <repl>:42:10
           |
        42 | price >= abc
           |          ^^^ here

        """)
  }

  /// What `print` shows an embedder: text, never a struct dump. A diagnostic alone has no
  /// source, so it says its bytes; the error and the parse result carry the source and render
  /// the line and the caret.
  @Test func diagnosticsAndResultsPrintAsText() {
    let result = Parser.parseFilter("colr ==")
    #expect(
      "\(result.diagnostics[0])" == """
        error[FLT201]: expected a value after '==', found the end of the input at bytes 7..<7
          = help: \(result.diagnostics[0].help ?? "")
        """)
    #expect("\(result)" == result.renderedDiagnostics)
    #expect("\(result)".contains("1 | colr ==\n  |        ^"))
    #expect("\(Parser.parseFilter("a  ==  1"))" == "a == 1")
    let note = Diagnostic(
      .unexpectedToken, at: SourceRange(start: 1, end: 2), message: "m", notes: [.init("n")])
    #expect("\(note)" == "error[FLT202]: m at bytes 1..<2\n  = note: n")
  }

  @Test func caretRunsUnderTheRange() {
    let source = SourceText("price >= abc and x", name: "f")
    let diagnostic = Diagnostic(
      .unexpectedToken, at: SourceRange(start: 9, end: 12), message: "m", label: "here", help: "h")
    #expect(
      DiagnosticRenderer(source: source).render(diagnostic) == """
        error[FLT202]: m
         --> f:1:10
          |
        1 | price >= abc and x
          |          ^^^ here
          = help: h

        """)
  }

  @Test func emptyRangeAtTheEndGetsOneCaret() {
    let source = SourceText("a ==", name: "f")
    let diagnostic = Diagnostic(.expectedExpression, at: .empty(at: 4), message: "m")
    #expect(DiagnosticRenderer(source: source).render(diagnostic).contains("  |     ^\n"))
  }

  @Test func rangesOutsideTheSourceAreClamped() {
    let source = SourceText("abc", name: "f")
    for range in [
      SourceRange(start: 50, end: 60), SourceRange(start: -5, end: 2),
      SourceRange(start: 2, end: 1),
    ] {
      let text = DiagnosticRenderer(source: source).render(
        Diagnostic(.unexpectedToken, at: range, message: "m"))
      #expect(text.contains("1 | abc"))
    }
  }

  @Test func columnsCountCharacters() {
    let source = SourceText("é日\n👍🏽 x", name: "f")
    #expect(source.location(of: 0) == SourceLocation(line: 1, column: 1))
    #expect(source.location(of: 2) == SourceLocation(line: 1, column: 2))
    #expect(source.location(of: 5) == SourceLocation(line: 1, column: 3))
    #expect(source.location(of: 15) == SourceLocation(line: 2, column: 3))
  }

  @Test func displayWidths() {
    #expect(DisplayWidth.of("abc") == 3)
    #expect(DisplayWidth.of("日本") == 4)
    #expect(DisplayWidth.of("e\u{301}") == 1)
    #expect(DisplayWidth.of("👍🏽") == 2)
    #expect(DisplayWidth.of("🇫🇷") == 2)
  }

  /// Many diagnostics on one long line: each column is counted on from the one before, and
  /// each snippet reads only the window it shows (both cost the line per diagnostic before:
  /// 20,000 unknown fields on one line took 68 s in a debug build, now 17 s, linear). The
  /// columns and snippets are those each diagnostic gets alone.
  @Test func manyDiagnosticsOnOneLongLineRenderAsEachAlone() throws {
    var text = "é日 price > 1"
    var ranges: [SourceRange] = []
    for i in 0..<300 {
      text += " and "
      let start = text.utf8.count
      text += "👍🏽nosuch\(i)"
      ranges.append(SourceRange(start: start, end: text.utf8.count))
      text += " > \(i)"
    }
    let source = SourceText(text, name: "long")
    let diagnostics = ranges.reversed().map {
      Diagnostic(.unknownField, at: $0, message: "no such field", label: "here")
    }
    let renderer = DiagnosticRenderer(source: source)
    let together = renderer.render(diagnostics)
    let alone = diagnostics.sortedByPosition().map { renderer.render($0) }.joined(separator: "\n")
    #expect(together == alone)
    // The last one's column, in characters (each 👍🏽 is one).
    let last = try #require(ranges.last)
    let column = String(decoding: source.utf8[..<last.start], as: UTF8.self).count + 1
    #expect(together.contains("--> long:1:\(column)\n"))
  }

  /// A line or a range megabytes long is shown as a window around the range's start, cut at
  /// character boundaries, with `…` where it is cut.
  @Test func aHugeLineOrRangeShowsAWindow() {
    let padding = String(repeating: "日", count: 400_000)
    let source = SourceText(padding + " bad " + padding, name: "wide")
    let start = padding.utf8.count + 1
    let rendered = DiagnosticRenderer(source: source).render(
      Diagnostic(.unknownField, at: SourceRange(start: start, end: start + 3), message: "m"))
    let lines = rendered.split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines[3].hasPrefix("1 | …") && lines[3].hasSuffix("…"))
    #expect(lines[3].contains(" bad "))
    #expect(lines[3].count < 120)
    // A range as long as the line: the caret run stops at the window.
    let whole = DiagnosticRenderer(source: source).render(
      Diagnostic(.unknownField, at: SourceRange(start: 0, end: source.utf8.count), message: "m"))
    #expect(whole.split(separator: "\n").allSatisfy { $0.count < 220 })
    #expect(!whole.contains("\u{FFFD}"))
  }
}
