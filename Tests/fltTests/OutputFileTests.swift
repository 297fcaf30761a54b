import Foundation
import TestSupport
import Testing

/// `-o FILE` puts the output in place without changing what the path was. (Found by an
/// audit: it renamed a regular file over devices, FIFOs and symlinks, reset a file's mode to
/// 0644, and broke hard links.)
@Suite struct OutputFileTests {
  /// Runs a shell script in a fresh folder, with `$FLT` the binary and `$DATA` the example.
  static func shell(_ script: String) throws -> (status: Int32, stdout: String, stderr: String) {
    let folder = try TemporaryFiles.makeFolder("out")
    let data = CLITests.root.appendingPathComponent("examples/phones.json").path
    let run = try ChildProcess.run(
      ["/bin/sh", "-c", "FLT='\(CLITests.binary.path)'; DATA='\(data)'; " + script],
      in: folder.path)
    return (
      run.status, String(decoding: run.stdout, as: UTF8.self),
      String(decoding: run.stderr, as: UTF8.self)
    )
  }

  static let query = "\"$FLT\" -f jsonl 'price > 1200' \"$DATA\""

  @Test func aSymlinkIsFollowedAndStays() throws {
    let run = try OutputFileTests.shell(
      """
      echo old > target.jsonl; ln -s target.jsonl link.jsonl
      \(OutputFileTests.query) -o link.jsonl || exit 1
      test -L link.jsonl && echo link; grep -c price target.jsonl
      """)
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.first == "link" && (Int(lines.last ?? "") ?? 0) > 0)
  }

  @Test func aFilesModeIsKept() throws {
    let run = try OutputFileTests.shell(
      """
      echo old > private.jsonl; chmod 600 private.jsonl
      \(OutputFileTests.query) -o private.jsonl || exit 1
      stat -c %a private.jsonl; umask 022; \(OutputFileTests.query) -o new.jsonl; stat -c %a new.jsonl
      """)
    #expect(run.stdout == "600\n644\n", "\(run.stderr)")
  }

  @Test func hardLinksAllSeeTheNewContents() throws {
    let run = try OutputFileTests.shell(
      """
      echo old > a.jsonl; ln a.jsonl b.jsonl
      \(OutputFileTests.query) -o a.jsonl || exit 1
      cmp a.jsonl b.jsonl && stat -c %h a.jsonl && grep -c '^old$' b.jsonl
      """)
    // Still two names of one file, both new (grep finds no "old": count 0, status 1).
    #expect(run.stdout == "2\n0\n", "\(run.stderr)")
  }

  @Test func aFIFOIsWrittenNotReplaced() throws {
    let run = try OutputFileTests.shell(
      """
      mkfifo pipe; cat pipe > got.jsonl & reader=$!
      \(OutputFileTests.query) -o pipe || exit 1
      wait $reader; test -p pipe && echo fifo; grep -c price got.jsonl
      """)
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.first == "fifo" && (Int(lines.last ?? "") ?? 0) > 0, "\(run.stderr)")
  }

  @Test func aFolderIsAnError() throws {
    let run = try OutputFileTests.shell("mkdir d; \(OutputFileTests.query) -o d")
    #expect(run.status == 2 && run.stderr.contains("cannot write d: it is a directory"))
  }

  @Test func aFailedRunLeavesTheFileAndNoTemporary() throws {
    let run = try OutputFileTests.shell(
      """
      echo old > kept.jsonl; "$FLT" -f jsonl 'price >' "$DATA" -o kept.jsonl
      cat kept.jsonl; ls -A | grep -c flt-
      """)
    #expect(run.stdout == "old\n0\n", "\(run.stderr)")
  }
}
