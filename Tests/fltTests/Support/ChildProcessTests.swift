import Foundation
import Testing

/// The tests' way of running programs: it must report what a program did, and a program that
/// does not end must fail its test at the deadline instead of hanging the suite.
@Suite struct ChildProcessTests {
  @Test func statusOutputAndInput() throws {
    let run = try ChildProcess.run(
      ["/bin/sh", "-c", "tr a-z A-Z; echo oops >&2; exit 3"], stdin: "quiet\n")
    #expect(run.status == 3)
    #expect(String(decoding: run.stdout, as: UTF8.self) == "QUIET\n")
    #expect(String(decoding: run.stderr, as: UTF8.self) == "oops\n")
  }

  @Test func signalsAndDirectories() throws {
    #expect(try ChildProcess.run(["/bin/sh", "-c", "kill -TERM $$"]).status == 128 + SIGTERM)
    let pwd = try ChildProcess.run(["/bin/pwd"], in: "/tmp")
    #expect(String(decoding: pwd.stdout, as: UTF8.self) == "/tmp\n")
  }

  @Test func aProgramThatDoesNotEndIsKilledAtTheDeadline() throws {
    let started = Date()
    #expect(throws: ChildProcess.Failure.self) {
      try ChildProcess.run(["/bin/sleep", "30"], timeout: 0.5)
    }
    #expect(Date().timeIntervalSince(started) < 20)
  }

  @Test func muchOutputOnBothPipesDoesNotDeadlock() throws {
    let run = try ChildProcess.run(
      ["/bin/sh", "-c", "head -c 300000 /dev/zero >&2; head -c 300000 /dev/zero"])
    #expect(run.stdout.count == 300_000)
    #expect(run.stderr.count == 300_000)
  }
}
