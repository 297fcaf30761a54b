import Testing

@testable import FilterDSL

/// `parse(print(tree)) == tree`: the canonical printer loses nothing.
@Suite struct RoundTripTests {
  /// Random trees, seeded; a failure names its seed.
  @Test(arguments: 0..<40)
  func randomTreesRoundTrip(batch: Int) {
    for i in 0..<50 {
      let seed = UInt64(batch * 1000 + i)
      var generator = ASTGenerator(seed: seed)
      let statement = generator.statement(5)
      let text = statement.description
      let result = Parser.parseScript(SourceText(text, name: "<printed>"))
      let reparsed = result.value?.statements ?? []
      #expect(
        !result.hasErrors && reparsed == [statement],
        """
        seed \(seed): printed text does not parse back to the same tree
        text:     \(text)
        original: \(statement.debugDescription)
        reparsed: \(reparsed.map(\.debugDescription))
        \(result.renderedDiagnostics)
        """)
      if result.hasErrors || reparsed != [statement] { return }
    }
  }

  /// Printing is a fixed point: printing a reparsed tree gives the same text.
  @Test func printingIsStable() {
    var generator = ASTGenerator(seed: 7)
    for _ in 0..<300 {
      let text = generator.statement(4).description
      let again = Parser.parseScript(SourceText(text)).value?.description
      #expect(again == text)
    }
  }

  /// Every golden input and example script: parse, print, parse gives the same tree.
  @Test func goldenInputsRoundTrip() throws {
    let files = Golden.inputs("parse", ext: "flt") + Golden.examples
    #expect(!files.isEmpty)
    for file in files {
      let first = Parser.parseScript(SourceText(Golden.read(file), name: file.lastPathComponent))
      guard let script = first.value else { continue }
      let second = Parser.parseScript(SourceText(script.description, name: "printed"))
      #expect(second.value == script, "\(file.lastPathComponent) does not round-trip:\n\(script)")
    }
  }

  @Test(arguments: [
    ("color = Midnight", #"color == "Midnight""#),
    ("a AND b Or NOT c", "a and b or not c"),
    ("(a and b) and c", "(a and b) and c"),
    ("a and (b or c)", "a and (b or c)"),
    ("((a))", "a"),
    ("a - (b - c)", "a - (b - c)"),
    ("(a - b) - c", "a - b - c"),
    ("-(3)", "-(3)"),
    ("- 3", "-3"),
    ("--3", "--3"),
    ("x in (Red)", #"x in ("Red")"#),
    ("let x = (Red,)", #"let x = ("Red",)"#),
    ("x <> 1 && y || !z", "x != 1 and y or not z"),
    ("name CONTAINS[CD] 'pro'", #"name contains[cd] "pro""#),
    ("d > 2022-09-16T10:00:00.500+02:00", "d > 2022-09-16T08:00:00.5Z"),
    ("t < 90m", "t < 1h30m"),
    ("x == `y`", "x == `y`"),
    ("`a b` == 1", "`a b` == 1"),
    ("`count` > 1", "`count` > 1"),
    ("x == nil", "x == null"),
    ("name beginsWith Pro", #"name startsWith "Pro""#),
    ("show  *", "show *"),
    ("tags IS EMPTY or model is not Empty", "tags is empty or model is not empty"),
    ("color is Gold and price is not $budget", #"color is "Gold" and price is not $budget"#),
    ("x is `empty` and y is -3 and z is +4", "x is `empty` and y is -3 and z is 4"),
    ("+x > 1", "x > 1"),
    ("any kids (age<18 AND name == A)", #"any kids (age < 18 and name == "A")"#),
    (
      "any (lower(x)) == a and all tags[0] == b",
      #"any lower(x) == "a" and all at(tags, 0) == "b""#
    ),
    (
      #"load "s.csv" as s NULL "NA", - type zip=string,n=int root data.items"#,
      #"load "s.csv" as s null "NA", "-" type "zip=string", "n=int" root "data.items""#
    ),
    ("tags[0] == a and m[-1][i] > 1", #"at(tags, 0) == "a" and at(at(m, -1), i) > 1"#),
    ("beginsWith(m, a) and contains(m, 1)", #"startsWith(m, a) and contains(m, 1)"#),
    ("order by price ASC, model DESC nulls FIRST", "order by price, model desc nulls first"),
  ])
  func canonicalForm(input: String, expected: String) {
    let script = Parser.parseScript(SourceText(input)).value
    #expect(script?.description == expected)
  }
}
