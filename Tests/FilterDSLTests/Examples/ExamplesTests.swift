import Testing

@testable import FilterDSL

/// Every bundled example script is valid and round-trips through the printer.
@Suite struct ExamplesTests {
  @Test func examplesExist() {
    #expect(Golden.examples.map(\.lastPathComponent).contains("phones.flt"))
  }

  @Test(arguments: Golden.examples.map(\.lastPathComponent))
  func exampleParsesWithoutDiagnostics(name: String) throws {
    guard let url = Golden.examples.first(where: { $0.lastPathComponent == name }) else { return }
    let result = Parser.parseScript(SourceText(Golden.read(url), name: name))
    #expect(result.diagnostics.isEmpty, "\(result.renderedDiagnostics)")
    let script = try #require(result.value)
    #expect(script.statements.count >= 3)
    #expect(Parser.parseScript(SourceText(script.description)).value == script)
  }
}
