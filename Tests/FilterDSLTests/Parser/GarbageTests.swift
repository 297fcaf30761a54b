import TestSupport
import Testing

@testable import FilterDSL

/// Bad input of any kind ends in a tree or a diagnostic, never a crash; and whatever parses
/// round-trips through the printer.
@Suite struct GarbageTests {
  /// Checks one input: a tree or an error, renderable diagnostics, and the round trip.
  static func check(_ text: String, seed: UInt64) -> Bool {
    let source = SourceText(text, name: "garbage")
    let script = Parser.parseScript(source)
    let filter = Parser.parseFilter(source)
    _ = script.renderedDiagnostics
    _ = filter.renderedDiagnostics
    guard filter.value != nil || filter.hasErrors, script.value != nil else { return false }
    if let expr = filter.value, !filter.hasErrors {
      let again = Parser.parseFilter(SourceText(expr.description)).value
      if again != expr { return false }
    }
    if let parsed = script.value, !script.hasErrors {
      let again = Parser.parseScript(SourceText(parsed.description)).value
      if again != parsed { return false }
    }
    return true
  }

  @Test(arguments: 0..<20)
  func randomBytes(batch: Int) {
    for i in 0..<100 {
      let seed = UInt64(batch * 100 + i)
      var rng = SplitMix64(seed: seed)
      let bytes = (0..<rng.int(0...200)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      let text = String(decoding: bytes, as: UTF8.self)
      #expect(GarbageTests.check(text, seed: seed), "seed \(seed)")
    }
  }

  static let pieces = [
    "a", "color", "`x y`", "5G", "$p", "1", "-", "2.5", "1e400", "7d", "1h30", "2022-09-16",
    "2022-02-30", "\"s\"", "'unterminated", "\"\\q\"", "(", ")", ",", ".", "...", "..<", "==", "=",
    "!=", "<>", "<", ">=", "=>", "+", "*", "/", "%", "and", "or", "not", "!", "&&", "||", "in",
    "between", "is", "null", "true", "contains", "[c]", "[x]", "like", "matches", "any", "all",
    "none", "exists", "order", "by", "desc", "nulls", "first", "limit", "offset", "load", "as",
    "use", "let", "count", "facets", "where", "explain", "show", "set", ";", "\n", "#c\n", " ",
    "é", "日本", "“", "\u{0}", "@", "{", "lower(", "f()", "9223372036854775808",
  ]

  /// Random sequences of tokens and near-tokens: far more of them reach deep into the parser
  /// than random bytes do.
  @Test(arguments: 0..<20)
  func tokenSoup(batch: Int) {
    for i in 0..<100 {
      let seed = UInt64(batch * 100 + i)
      var rng = SplitMix64(seed: seed)
      let text = (0..<rng.int(1...40)).map { _ in rng.pick(GarbageTests.pieces) }.joined(
        separator: rng.chance(0.8) ? " " : "")
      #expect(GarbageTests.check(text, seed: seed), "seed \(seed): \(text)")
    }
  }

  /// Every prefix of valid inputs: what a REPL sees while someone types.
  @Test func everyPrefixOfValidInputs() {
    let inputs = [
      #"color in (Starlight, "Space Black") and diskSpace >= 256 order by price desc limit 5"#,
      "created > 2022-09-16T10:00:00.5+02:00 - 7d and name contains[cd] 'É' or not exists camera.mp",
      "any tags in (\"5G\", LTE) and price between $min and $max * 2",
      "let sizes = 256...1024; facets color, diskSpace where diskSpace in $sizes",
    ]
    for input in inputs {
      let scalars = Array(input.unicodeScalars)
      for length in 0...scalars.count {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[..<length])
        #expect(GarbageTests.check(text, seed: 0), "\(text)")
      }
    }
  }
}
