import Foundation
import Testing

/// Every script in `examples/` runs and prints exactly what its `.out` file holds. A script
/// with a `.err` file must fail (exit status 2) with exactly that on standard error; the
/// others must succeed with nothing on standard error.
///
/// After an intended change, `FLT_UPDATE_EXAMPLES=1 swift test --filter ExamplesTests`
/// rewrites the expected files; review them with `git diff`.
@Suite struct ExamplesTests {
  static var scripts: [String] {
    let folder = CLITests.root.appendingPathComponent("examples")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".flt") }.sorted()
  }

  @Test func thereAreExamples() {
    #expect(ExamplesTests.scripts.contains("phones.flt"))
    #expect(ExamplesTests.scripts.contains("cards.flt"))
  }

  @Test(arguments: scripts)
  func exampleMatchesItsExpectedOutput(script: String) throws {
    let base = CLITests.root.appendingPathComponent("examples")
      .appendingPathComponent(String(script.dropLast(4)))
    let run = try CLITests.flt(["run", "examples/\(script)"])
    let outFile = base.appendingPathExtension("out")
    let errFile = base.appendingPathExtension("err")
    if ProcessInfo.processInfo.environment["FLT_UPDATE_EXAMPLES"] == "1" {
      try Data(run.stdout.utf8).write(to: outFile)
      if run.status != 0 { try Data(run.stderr.utf8).write(to: errFile) }
    }
    let expected = try String(contentsOf: outFile, encoding: .utf8)
    #expect(run.stdout == expected, "\(script): standard output differs from \(outFile.path)")
    if let expectedErrors = try? String(contentsOf: errFile, encoding: .utf8) {
      #expect(run.status == 2, "\(script)")
      #expect(run.stderr == expectedErrors, "\(script): standard error differs")
    } else {
      #expect(run.status == 0, "\(script): \(run.stderr)")
      #expect(run.stderr.isEmpty, "\(script): \(run.stderr)")
    }
  }
}
