import Foundation
import TestSupport
import Testing

/// `flt --filter-file FILE`: the query read from a file, with its errors placed in it.
@Suite struct FilterFileTests {
  func flt(_ arguments: [String], stdin: String = "") throws -> CLITests.Run {
    try CLITests.flt(arguments, stdin: stdin)
  }

  /// A query file with `text`.
  func file(_ text: String, _ name: String) throws -> String {
    try TemporaryFiles.write(text, name).path
  }

  @Test func theQueryComesFromTheFileOverSeveralLines() throws {
    let query = try file(
      "# phones on a budget\ncolor in (Starlight, \"Space Black\")\n  and price < 1000\norder by price desc limit 2\n",
      "budget.flt")
    let run = try flt(["--filter-file", query, "examples/phones.json", "-f", "csv", "-s", "price"])
    let inline = try flt([
      "color in (Starlight, \"Space Black\") and price < 1000 order by price desc limit 2",
      "examples/phones.json", "-f", "csv", "-s", "price",
    ])
    #expect(run.status == 0 && run.stderr.isEmpty)
    #expect(run.stdout == inline.stdout && run.stdout.split(separator: "\n").count == 3)
    // Every other argument is a data file: two files, both read.
    let big = try file("diskSpace >= 256\n", "big.flt")
    let both = try flt([
      "--filter-file=\(big)", "-c", "examples/phones.json", "examples/phones.json",
    ])
    #expect(both.status == 0 && both.stdout == "144\n")
  }

  @Test func errorsNameTheFileLineAndColumn() throws {
    let query = try file("# a typo on line 2\npric > 500\n", "typo.flt")
    let run = try flt(["--filter-file", query, "examples/phones.json"])
    #expect(run.status == 2 && run.stdout.isEmpty)
    #expect(run.stderr.contains("error[FLT301]: unknown field 'pric'"))
    #expect(run.stderr.contains("--> \(query):2:1"))
    #expect(run.stderr.contains("2 | pric > 500"))
  }

  @Test func aMissingFileOrNoDataIsAnError() throws {
    let missing = try flt(["--filter-file", "/nonexistent/q.flt", "examples/phones.json"])
    #expect(missing.status == 2 && missing.stderr.contains("/nonexistent/q.flt: no such file"))
    let fromStdin = try flt(
      ["--filter-file", "-", "examples/phones.json", "-c"], stdin: "diskSpace >= 256")
    #expect(fromStdin.status == 0 && fromStdin.stdout == "72\n")
    let both = try flt(["--filter-file", "-"], stdin: "true")
    #expect(both.status == 2 && both.stderr.contains("the data needs a FILE"))
  }
}
