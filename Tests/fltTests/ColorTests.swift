import Foundation
import Testing

/// `--color auto|always|never`: tables and diagnostics in colour, for the one-shot command,
/// scripts and the REPL alike.
@Suite struct ColorTests {
  static let escape = "\u{1B}["

  func flt(_ arguments: [String], stdin: String? = nil) throws -> CLITests.Run {
    try CLITests.flt(arguments, stdin: stdin)
  }

  @Test func alwaysColoursTablesAndDiagnosticsEvenIntoAPipe() throws {
    let table = try flt([
      "--color", "always", "-f", "table", "price > 1500", "examples/phones.json",
    ])
    #expect(table.status == 0 && table.stdout.hasPrefix(Self.escape + "1mmodel"))
    let error = try flt(["--color=always", "pric > 1", "examples/phones.json"])
    #expect(error.status == 2 && error.stderr.hasPrefix(Self.escape + "1;31merror[FLT301]"))
    let script = try flt(["run", "--color", "always", "examples/mistake.flt"])
    #expect(script.stderr.contains(Self.escape))
  }

  @Test func neverAndAutoIntoAPipeAreUncoloured() throws {
    for choice in [["--color", "never"], ["--color=auto"], []] {
      let table = try flt(choice + ["-f", "table", "price > 1500", "examples/phones.json"])
      let error = try flt(choice + ["pric > 1", "examples/phones.json"])
      #expect(!table.stdout.contains(Self.escape) && !error.stderr.contains(Self.escape))
    }
  }

  @Test func aWrongChoiceIsAUsageError() throws {
    let run = try flt(["--color", "sometimes", "true", "examples/phones.json"])
    #expect(run.status == 2 && run.stderr.contains("--color takes auto, always or never"))
    let script = try flt(["run", "--colour=bright", "examples/phones.flt"])
    #expect(script.status == 2 && script.stderr.contains("--color takes auto, always or never"))
  }
}
