import Foundation
import Testing

/// Standard streams that cannot be used: never a trap, never a lost result reported as
/// success. (Found by an audit: `FileHandle` trapped with SIGILL on a closed standard error or
/// standard input, and output to a full disk exited 0.)
@Suite struct StandardStreamsTests {
  /// Runs `flt ARGUMENTS` through the shell with `redirections` (such as `2>&-`).
  static func shell(_ arguments: String, _ redirections: String) throws -> ChildProcess.Result {
    let command = "'\(CLITests.binary.path)' \(arguments) \(redirections)"
    return try ChildProcess.run(["/bin/sh", "-c", command], in: CLITests.root.path)
  }

  static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

  @Test func anUnwritableStandardErrorIsNotATrap() throws {
    for redirection in ["2>&-", "2>/dev/full"] {
      let run = try StandardStreamsTests.shell("'price >' examples/phones.json", redirection)
      #expect(run.status == 2, "\(redirection)")  // the filter's error, not a signal (132)
    }
    let fine = try StandardStreamsTests.shell("--count 'price > 0' examples/phones.json", "2>&-")
    #expect(fine.status == 0 && StandardStreamsTests.text(fine.stdout) != "")
  }

  @Test func aScriptFromAnUnreadableStandardInputIsAnError() throws {
    let closed = try StandardStreamsTests.shell("run -", "<&-")
    #expect(closed.status == 2)
    #expect(StandardStreamsTests.text(closed.stderr).hasPrefix("error: <stdin>: cannot be read"))
    let folder = try StandardStreamsTests.shell("run -", "< /")
    #expect(folder.status == 2)
    #expect(StandardStreamsTests.text(folder.stderr).contains("cannot be read (Is a directory)"))
  }

  @Test(arguments: [
    "--help", "--version", "--schema examples/phones.json", "ast 'a > 1'",
    "tokens 'a > 1'", "parse examples/phones.flt", "--explain 'price > 1' examples/phones.json",
    "-f jsonl 'price > 1' examples/phones.json",
  ])
  func outputToAFullDiskFails(arguments: String) throws {
    let run = try StandardStreamsTests.shell(arguments, ">/dev/full")
    #expect(run.status == 2, "\(arguments)")
    #expect(
      StandardStreamsTests.text(run.stderr).contains("cannot write the output"), "\(arguments)")
  }

  /// With SIGPIPE ignored, a closed pipe is an error (and the reading stops at once instead of
  /// after the whole input: 3.3 s down to 0.16 s on 1,000,000 rows, measured by hand).
  @Test func aClosedPipeIsReported() throws {
    var lines = ""
    for i in 0..<300_000 { lines += "{\"n\":\(i)}\n" }
    let file = try CLITests.temporaryFile(Array(lines.utf8), name: "many.jsonl")
    let command =
      "trap '' PIPE; '\(CLITests.binary.path)' -f jsonl 'n >= 0' '\(file.path)' | head -1 >/dev/null"
    let run = try ChildProcess.run(["/bin/bash", "-c", command], in: CLITests.root.path)
    #expect(run.status == 0)
    #expect(StandardStreamsTests.text(run.stderr).contains("cannot write the output: Broken pipe"))
  }
}
