import FilterDSL

/// Front-end throughput: lexing and parsing a generated 1 MB filter, and parses per second of
/// the design example.
enum ParseBenchmark {
  static let designExample = #"color in (Starlight, "Space Black") and diskSpace >= 256"#

  /// About `bytes` of filter text: a long `or` of varied clauses, the shape a generated
  /// multi-select filter takes.
  static func generatedFilter(bytes: Int) -> String {
    let clauses = [
      #"(color in (Starlight, "Space Black", Midnight) and diskSpace >= 256)"#,
      #"(price between 799 and 1299.99 and model contains[c] "pro")"#,
      #"(released >= 2022-09-16 and camera.megapixels > 12 and not refurbished)"#,
      #"(any tags == 5G and lower(processor) startsWith "a1" and memory in 6...8)"#,
      #"(updated > 2022-09-16T10:00:00Z - 7d or `screen size` != 6.1 and price * 1.2 < $budget)"#,
    ]
    var text = ""
    var i = 0
    while text.utf8.count < bytes {
      if i > 0 { text += " or\n" }
      text += clauses[i % clauses.count]
      i += 1
    }
    return text
  }

  static func profile() {
    let source = SourceText(generatedFilter(bytes: 1 << 20))
    let runs = Int(CommandLine.arguments.dropFirst(2).first ?? "30") ?? 30
    for _ in 0..<runs { blackHole(Parser.parseFilter(source)) }
  }

  static func run() {
    let text = generatedFilter(bytes: 1 << 20)
    let source = SourceText(text, name: "generated")
    let megabytes = Double(source.utf8.count) / 1_048_576

    // The reference for the ratios: lexing the same input in the same process.
    let lex = Timing.median(runs: 15) { blackHole(Lexer.tokenize(source)) }
    // Parsing with the tree freed outside the timing; then parsing and freeing together.
    var kept: [ParseResult<Expr>] = []
    kept.reserveCapacity(15)
    let parseOnly = Timing.median(runs: 15) { kept.append(Parser.parseFilter(source)) }
    var clauses = 0
    if case .logical(_, let operands)? = kept.first?.value?.kind { clauses = operands.count }
    kept.removeAll()
    let parse = Timing.median(runs: 15) { blackHole(Parser.parseFilter(source)) }
    guard let tree = Parser.parseFilter(source).value else {
      print("the generated filter does not parse")
      return
    }
    let printing = Timing.median(runs: 15) { blackHole(tree.description) }

    let example = SourceText(designExample)
    let count = 200_000
    let exampleParse = Timing.median(runs: 7) {
      for _ in 0..<count { blackHole(Parser.parseFilter(example)) }
    }
    let exampleLex = Timing.median(runs: 7) {
      for _ in 0..<count { blackHole(Lexer.tokenize(example)) }
    }

    func row(_ name: String, _ seconds: Double) -> String {
      name.padding(toLength: 22, withPad: " ", startingAt: 0)
        + "\(Timing.format(megabytes / seconds)) MB/s".padding(
          toLength: 14, withPad: " ", startingAt: 0)
        + "\(Timing.format(seconds / lex, 2)) x lex"
    }
    print("flt-bench parse (release build)")
    print(
      "  input: generated filter, \(Timing.format(megabytes, 2)) MB, an 'or' of \(clauses) clauses")
    print("  " + row("lex (reference)", lex))
    print("  " + row("parse (tree kept)", parseOnly))
    print("  " + row("parse and free tree", parse))
    print("  " + row("print canonical text", printing))
    let nanos = exampleParse / Double(count) * 1e9
    print(
      "  design example: \(Timing.format(Double(count) / exampleParse, 0)) parses/s, \(Timing.format(nanos, 0)) ns each, \(Timing.format(exampleParse / exampleLex, 2)) x lexing it"
    )
    print("    \(designExample)")
  }
}
