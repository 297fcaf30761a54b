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

/// Every line of the README's tour runs on the bundled phones, without an error or a warning.
@Suite struct ReadmeTourTests {
  static var lines: [String] {
    let readme =
      (try? String(
        contentsOf: CLITests.root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    guard let start = readme.range(of: "## A tour of the language\n\n```sh\n"),
      let end = readme.range(of: "\n```", range: start.upperBound..<readme.endIndex)
    else { return [] }
    return readme[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
      // A comment after two spaces or more ends the filter.
      let filter = line.range(of: "  #").map { line[..<$0.lowerBound] } ?? line
      let text = filter.trimmingCharacters(in: .whitespaces)
      return text.isEmpty || text.hasPrefix("#") ? nil : text
    }
  }

  @Test func theTourHasItsLines() {
    #expect(ReadmeTourTests.lines.count >= 20)
  }

  @Test(arguments: lines)
  func tourLineRunsOnThePhones(line: String) throws {
    let run = try CLITests.flt(["-p", "budget=1000", "--count", line, "examples/phones.json"])
    #expect(run.status == 0, "\(line): \(run.stderr)")
    #expect(run.stderr.isEmpty, "\(line): \(run.stderr)")
    #expect(Int(run.stdout.trimmingCharacters(in: .newlines)) != nil, "\(line)")
  }
}
