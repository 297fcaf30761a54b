// libFuzzer harness for the front end: any bytes, as a script and as a filter, must end in a
// tree or diagnostics; rendering must work; whatever parses must print and parse back to the
// same tree. Build and run with `Fuzz/run` (not part of Package.swift: a fuzzer executable
// does not link inside the package).

public func fuzzParse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let source = SourceText(text, name: "fuzz")
  for script in [true, false] {
    if script {
      let result = Parser.parseScript(source)
      _ = result.renderedDiagnostics
      if let parsed = result.value, !result.hasErrors {
        let again = Parser.parseScript(SourceText(parsed.description))
        if again.value != parsed || again.hasErrors {
          let pairs = zip(parsed.statements, again.value?.statements ?? []).filter { $0 != $1 }
          fatalError(
            """
            script round trip
            \(again.renderedDiagnostics)
            \(pairs.map { "\($0.debugDescription)\n\($1.debugDescription)" }.joined(separator: "\n"))
            """)
        }
      }
    } else {
      let result = Parser.parseFilter(source)
      _ = result.renderedDiagnostics
      if result.value == nil && !result.hasErrors { fatalError("no tree and no error") }
      if let expr = result.value {
        _ = expr.debugDescription
        let again = Parser.parseFilter(SourceText(expr.description))
        if again.value != expr {
          fatalError("filter round trip: \(expr)\n\(again.renderedDiagnostics)")
        }
      }
    }
  }
  return 0
}
