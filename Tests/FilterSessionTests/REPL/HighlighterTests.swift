import FilterDSL
import Testing

@testable import FilterSession

/// Syntax colouring of the REPL's input line, character by character.
@Suite struct HighlighterTests {
  let highlighter = Highlighter(names: ["color", "price", "big", "limit"])

  /// The line with each character's kind as a letter: k keyword, f field, t text, l literal,
  /// p parameter, e error, . plain.
  func marks(_ line: String, error: Range<Int>? = nil) -> String {
    String(
      highlighter.kinds(of: line, error: error).map { kind -> Character in
        switch kind {
        case .plain: "."
        case .keyword: "k"
        case .field: "f"
        case .text: "t"
        case .literal: "l"
        case .parameter: "p"
        case .error: "e"
        }
      })
  }

  @Test func fieldsKeywordsAndValues() {
    #expect(marks("color == Starlight and price > 1000") == "fffff....ttttttttt.kkk.fffff...llll")
    #expect(marks("color in (Gold, \"Space Black\")") == "fffff.kk..tttt..ttttttttttttt.")
    #expect(marks("price between 10 and 20") == "fffff.kkkkkkk.ll.kkk.ll")
    #expect(marks("color ==[c] gold") == "fffff...ppp.tttt")
    #expect(marks("price <= $budget") == "fffff....ppppppp")
    #expect(marks("big and `screen size` > 6") == "fff.kkk.fffffffffffff...l")
  }

  @Test func statementWordsColourWhereTheyAreKeywords() {
    #expect(marks("count price > 5") == "kkkkk.fffff...l")
    #expect(marks("load \"a.json\" as a") == "kkkk.tttttttt.kk..")
    // `limit` is a field of this data: as a name it is a field, after `order by` too.
    #expect(marks("price > 1 order by price limit 5") == "fffff...l.kkkkk.kk.fffff.fffff.l")
    // An unknown name stays plain; a value after an operator is text whatever its name.
    #expect(marks("colr == price") == "........ttttt")
  }

  @Test func errorsAreMarked() {
    #expect(marks("color == \"open") == "fffff....eeeee")
    #expect(marks("colr == 1", error: 0..<4) == "eeee....l")
    // An error at the end of the line (a missing value) marks nothing past it.
    #expect(marks("price > ", error: 8..<8) == "fffff...")
  }

  @Test func renderingColoursRunsAndResets() {
    let line = "price > 5"
    let kinds = highlighter.kinds(of: line)
    let rendered = Highlighter.render(Array(line)[...], kinds[...])
    #expect(rendered == "\u{1B}[0m\u{1B}[36mprice\u{1B}[0m > \u{1B}[0m\u{1B}[33m5\u{1B}[0m")
    // Wide characters and combining marks keep one kind per character.
    #expect(marks("color == \"日本\"") == "fffff....tttt")
  }
}
