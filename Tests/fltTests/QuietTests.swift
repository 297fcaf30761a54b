import Foundation
import Testing

/// `flt -q`: nothing printed, the exit status answers, reading stops at the first match.
@Suite struct QuietTests {
  typealias Run = CLITests.Run

  func flt(_ arguments: [String], stdin: String? = nil) throws -> Run {
    try CLITests.flt(arguments, stdin: stdin)
  }

  @Test func theExitStatusAnswersAndNothingIsPrinted() throws {
    let match = try flt(["-q", "diskSpace >= 256", "examples/phones.json"])
    #expect(match.status == 0 && match.stdout.isEmpty && match.stderr.isEmpty)
    let none = try flt(["--quiet", "diskSpace > 99999", "examples/phones.json"])
    #expect(none.status == 1 && none.stdout.isEmpty && none.stderr.isEmpty)
    // Warnings (a division by zero counted as unknown) are not printed either.
    let faults = try flt(["-q", "10 / a > 1"], stdin: "{\"a\": 0}\n{\"a\": 1}\n")
    #expect(faults.status == 0 && faults.stderr.isEmpty)
    let loud = try flt(["10 / a > 1"], stdin: "{\"a\": 0}\n{\"a\": 1}\n")
    #expect(loud.stderr.contains("division by zero"))
  }

  @Test func errorsStillSayWhatIsWrong() throws {
    let bad = try flt(["-q", "diskSpace >=", "examples/phones.json"])
    #expect(bad.status == 2 && bad.stderr.contains("error[FLT201]"))
    let usage = try flt(["-q", "-c", "true", "examples/phones.json"])
    #expect(usage.status == 2 && usage.stderr.contains("leave out --count"))
  }

  @Test func readingStopsAtTheFirstMatch() throws {
    // A broken record 6 MB in, past the first block: never read once the first record
    // matched.
    var text = String(repeating: "{\"n\": 1, \"pad\": \"xxxxxxxxxxxxxxxxxxxx\"}\n", count: 150_000)
    text += "{\"n\": \n"
    let path = try CLITests.temporaryFile(Array(text.utf8), name: "long.jsonl").path
    let quiet = try flt(["-q", "n == 1", path])
    #expect(quiet.status == 0 && quiet.stderr.isEmpty)
    // So with a limit: the next block is read ahead while the first is printed, and its error
    // is none, since the query needed nothing from it.
    let limited = try flt(["-f", "jsonl", "n == 1 limit 2", path])
    #expect(limited.status == 0 && limited.stderr.isEmpty)
    #expect(limited.stdout.split(separator: "\n").count == 2)
    let full = try flt(["-c", "n == 1", path])
    #expect(full.status == 2 && full.stderr.contains("error[FLT40"))
  }
}
