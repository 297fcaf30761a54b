import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    // Rewritten in place without truncating first: a longer old file is cut to the new
    // length at the end, and holds exactly the new output.
    let shrunk = try OutputFileTests.shell(
      """
      head -c 100000 /dev/zero | tr '\\0' x > a.jsonl; ln a.jsonl b.jsonl
      \(OutputFileTests.query) -o a.jsonl || exit 1
      \(OutputFileTests.query) > expected.jsonl; cmp a.jsonl expected.jsonl && cmp a.jsonl b.jsonl && echo same
      """)
    #expect(shrunk.stdout == "same\n", "\(shrunk.stderr)")
  }

  /// Whether a small file system can be made here (root, and mount namespaces): then a full
  /// disk can be tested.
  static let canMountSmallDisks: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
      return false
    }
    let probe = try? ChildProcess.run(
      ["/usr/bin/unshare", "-m", "/bin/sh", "-c", "mount -t tmpfs -o size=64k none /mnt"],
      timeout: 20)
    return probe?.status == 0
  }()

  /// `-o` onto a hard-linked file on a full disk: the room past the old contents is reserved
  /// before anything is written, so the old contents stay whole (the file was truncated
  /// first and left cut short, its old contents lost).
  @Test(.enabled(if: canMountSmallDisks)) func aFullDiskLeavesAHardLinkedFileAsItWas() throws {
    let folder = try TemporaryFiles.makeFolder("full")
    let data = CLITests.root.appendingPathComponent("examples/phones.json").path
    // 40 KiB: the old file (12 KB) and the new output written apart (25 KB) fit; the output
    // copied into the old file does not.
    let script = """
      mount -t tmpfs -o size=40k none '\(folder.path)' && cd '\(folder.path)' || exit 9
      head -c 12000 /dev/zero | tr '\\0' o > a.jsonl; ln a.jsonl b.jsonl
      '\(CLITests.binary.path)' -f jsonl true '\(data)' -o a.jsonl; echo "status $?"
      wc -c < a.jsonl; tr -d o < a.jsonl | wc -c; ls | wc -l
      """
    let run = try ChildProcess.run(
      ["/usr/bin/unshare", "-m", "/bin/sh", "-c", script], timeout: 60)
    let stdout = String(decoding: run.stdout, as: UTF8.self)
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    // Exit 2, the file's 12,000 bytes all old, and no temporary file left.
    #expect(stdout == "status 2\n12000\n0\n2\n", "\(stderr)")
    #expect(stderr.contains("No space left on device; it is as it was"))
  }

  /// `-o` onto a loop of symlinks is an error, and the links stay (it replaced the link).
  @Test func aSymlinkLoopIsAnErrorAndStays() throws {
    let run = try OutputFileTests.shell(
      """
      ln -s b.jsonl a.jsonl; ln -s a.jsonl b.jsonl
      \(OutputFileTests.query) -o a.jsonl; echo "status $?"
      test -L a.jsonl && test -L b.jsonl && echo links
      """)
    #expect(run.stdout == "status 2\nlinks\n")
    #expect(run.stderr.hasPrefix("error: cannot write a.jsonl: Too many levels of symbolic links"))
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

  /// A signal during a long `-o` run removes the temporary file and leaves the target as it
  /// was. (Found by an audit: the `.NAME.flt-XXXXXX` file was left behind.)
  @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
  func aSignalLeavesNoTemporaryBehind(signal: Int32) throws {
    let folder = try TemporaryFiles.makeFolder("signal")
    let target = folder.appendingPathComponent("out.jsonl")
    try Data("old\n".utf8).write(to: target)
    let child = try ChildProcess(
      [CLITests.binary.path, "-o", target.path, "-f", "jsonl", "n >= 0"], in: folder.path)
    // More records than the reader samples, so that output has begun; the input stays open.
    var lines = ""
    for i in 0..<20_000 { lines += "{\"n\":\(i)}\n" }
    child.send(Array(lines.utf8))
    var waited = 0
    func temporaries() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
        $0.hasPrefix(".out.jsonl.flt-")
      }
    }
    while temporaries().isEmpty && waited < 2_000 {
      usleep(10_000)
      waited += 1
    }
    #expect(temporaries().count == 1)
    kill(child.pid, signal)
    let result = try child.wait(timeout: 30)
    #expect(result.status == 128 + signal)
    #expect(temporaries().isEmpty)
    #expect(try String(contentsOf: target, encoding: .utf8) == "old\n")
  }

  /// `-o` onto the input itself: the input is read whole before the output is put in place.
  @Test func theOutputMayReplaceTheInput() throws {
    let run = try OutputFileTests.shell(
      """
      cp "$DATA" data.json; "$FLT" -f json 'price > 1200' data.json -o data.json || exit 1
      "$FLT" --count 'price > 0' data.json; "$FLT" --count 'price <= 1200' data.json
      """)
    let counts = run.stdout.split(separator: "\n").compactMap { Int($0) }
    #expect(counts.count == 2 && counts[0] > 0 && counts[1] == 0, "\(run.stderr)")
  }

  @Test func aMissingFolderIsAnError() throws {
    let run = try OutputFileTests.shell("\(OutputFileTests.query) -o missing/out.jsonl")
    #expect(run.status == 2)
    #expect(run.stderr == "error: cannot write missing/out.jsonl: No such file or directory\n")
  }
}
