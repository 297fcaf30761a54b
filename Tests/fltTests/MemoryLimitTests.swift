import Foundation
import Testing

/// `--max-memory`: a one-shot run has a memory limit, as a session's loads have (issue 51.13:
/// it had none), looked at after each block read.
@Suite struct MemoryLimitTests {
  typealias Run = CLITests.Run

  func flt(_ arguments: [String], stdin: String? = nil) throws -> Run {
    try CLITests.flt(arguments, stdin: stdin)
  }

  /// Past the limit the run stops, says how much it used and what to do, and writes no file.
  @Test func pastTheLimitTheRunStopsAndSaysSo() throws {
    let stopped = try flt(["--max-memory", "1MB", "-c", "true", "examples/phones.json"])
    #expect(stopped.status == 2 && stopped.stdout.isEmpty)
    #expect(
      stopped.stderr.hasPrefix("error: stopped reading examples/phones.json: flt used "))
    #expect(stopped.stderr.contains("over the memory limit of 1 MB\nhelp: raise it (--max-memory"))
    let output = CLITests.root.appendingPathComponent(".build/memory-limit-\(getpid()).jsonl")
    let written = try flt(["--max-memory=1MB", "-o", output.path, "true", "examples/phones.json"])
    #expect(written.status == 2 && !FileManager.default.fileExists(atPath: output.path))
    // Stats keep their groups in memory: the same limit.
    let stats = try flt([
      "--max-memory", "1MB", "--stats", "count() by model", "examples/phones.json",
    ])
    #expect(stats.status == 2 && stats.stderr.contains("over the memory limit"))
  }

  @Test func aLimitThatHoldsOrNoneChangesNothing() throws {
    for limit in ["16GiB", "none"] {
      let run = try flt(["--max-memory", limit, "-c", "price > 500", "examples/phones.json"])
      #expect(run.status == 0 && run.stdout == "99\n" && run.stderr.isEmpty, "\(limit)")
    }
    let bad = try flt(["--max-memory", "lots", "-c", "true", "examples/phones.json"])
    #expect(bad.status == 2)
    #expect(bad.stderr.hasPrefix("error: --max-memory needs a size with its unit"))
  }
}
