import Foundation
import Testing

/// The CSV options as a user gives them: `--delimiter`, `--no-header`, `--spaces`, and the
/// same as `load` options in a script.
@Suite struct CSVOptionsCommandTests {
  func flt(_ arguments: [String]) throws -> CLITests.Run { try CLITests.flt(arguments) }

  func file(_ text: String, _ name: String) throws -> String {
    try CLITests.temporaryFile(Array(text.utf8), name: name).path
  }

  @Test func spacesAfterTheDelimiterAreSkippedOrKeptAsAsked() throws {
    // The header has no spaces: by default the cells keep theirs.
    let path = try file("name,price\nA, 3\nB, 12\n", "spaced.csv")
    let kept = try flt(["-f", "jsonl", "true", path])
    #expect(
      kept.stdout == "{\"name\":\"A\",\"price\":\" 3\"}\n{\"name\":\"B\",\"price\":\" 12\"}\n")
    let skipped = try flt(["-f", "jsonl", "--spaces", "skip", "price > 5", path])
    #expect(skipped.status == 0 && skipped.stdout == "{\"name\":\"B\",\"price\":12}\n")
    // A header with a space after every comma says so itself; `keep` overrides it.
    let sniffed = try file("name, price\nA, 3\n", "sniffed.csv")
    #expect(
      try flt(["-f", "jsonl", "price == 3", sniffed]).stdout == "{\"name\":\"A\",\"price\":3}\n")
    let overridden = try flt(["-f", "csv", "--spaces", "keep", "true", sniffed])
    #expect(overridden.stdout == "name, price\nA, 3\n")
    let wrong = try flt(["--spaces", "trim", "true", sniffed])
    #expect(wrong.status == 2 && wrong.stderr.contains("--spaces trim: say skip"))
  }

  @Test func aDelimiterAndNoHeaderFromTheCommandLine() throws {
    let path = try file("1|x\n2|y\n", "rows.txt")
    let run = try flt([
      "-i", "csv", "--delimiter", "|", "--no-header", "-f", "csv", "column1 > 1", path,
    ])
    #expect(run.status == 0 && run.stdout == "column1,column2\n2,y\n")
    let wrong = try flt(["--delimiter", ";;", "true", path])
    #expect(wrong.status == 2 && wrong.stderr.contains("--delimiter ;;"))
  }

  @Test func theSameAsLoadOptions() throws {
    let data = try file("a; b\n1; x\n2; y\n", "semi.csv")
    let script = try file(
      "load \"\(data)\" as d delimiter \";\" spaces skip\ncount b == y\n", "semi.flt")
    let run = try flt(["run", script])
    #expect(run.status == 0 && run.stdout == "1\n", "\(run.stderr)")
    let bad = try file("load \"\(data)\" spaces trim\n", "bad.flt")
    let failed = try flt(["run", bad])
    #expect(failed.status == 2 && failed.stderr.contains("'spaces' takes skip or keep"))
  }
}
