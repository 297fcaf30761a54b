import Foundation
import TestSupport
import Testing

/// The built `flt` binary, run as a user runs it: arguments in, stdout, stderr and exit status
/// out.
@Suite struct CLITests {
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The `flt` executable next to the test bundle.
  static var binary: URL {
    var url = Bundle.main.bundleURL
    if url.pathExtension == "xctest" { url.deleteLastPathComponent() }
    for candidate in [
      url.appendingPathComponent("flt"),
      url.deletingLastPathComponent().appendingPathComponent("flt"),
    ]
    where FileManager.default.isExecutableFile(atPath: candidate.path) {
      return candidate
    }
    return url.appendingPathComponent("flt")
  }

  static func flt(_ arguments: [String], stdin: String? = nil) throws -> Run {
    try flt(arguments, input: Array((stdin ?? "").utf8))
  }

  /// `flt` with the bytes `input` on its standard input.
  static func flt(_ arguments: [String], input: [UInt8]) throws -> Run {
    let run = try ChildProcess.run([binary.path] + arguments, in: root.path, input: input)
    return Run(
      status: run.status, stdout: String(decoding: run.stdout, as: UTF8.self),
      stderr: String(decoding: run.stderr, as: UTF8.self))
  }

  static func temporaryFile(_ contents: [UInt8], name: String) throws -> URL {
    try TemporaryFiles.write(contents, name)
  }

  @Test func versionAndHelp() throws {
    let version = try CLITests.flt(["--version"])
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("flt "))
    let help = try CLITests.flt(["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("usage: flt [options] FILTER [FILE...]"))
    #expect(help.stderr.isEmpty)
  }

  @Test func usageErrorsExitTwo() throws {
    for arguments in [[], ["--frobnicate"], ["parse"], ["check"], ["ast"], ["ast", "a", "b"]] {
      let run = try CLITests.flt(arguments)
      #expect(run.status == 2, "\(arguments)")
      #expect(run.stdout.isEmpty, "\(arguments)")
      #expect(run.stderr.hasPrefix("error: "), "\(arguments)")
    }
  }

  @Test func parsePrintsCanonicalStatements() throws {
    let run = try CLITests.flt(["parse", "examples/phones.flt"])
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
    #expect(
      run.stdout.contains(
        #"diskSpace in (256, 512) and color in ("Starlight", "Space Black") and price == 1299"#))
    let tree = try CLITests.flt(["parse", "--tree", "examples/phones.flt"])
    #expect(tree.stdout.hasPrefix(#"(load "phones.json" as phones)"#))
  }

  @Test func syntaxErrorsGoToStderrWithTheirPlace() throws {
    let file = try CLITests.temporaryFile(Array("color == Red\nprice >\n".utf8), name: "bad.flt")
    defer { try? FileManager.default.removeItem(at: file) }
    let before = try Data(contentsOf: file)
    for command in ["parse", "check"] {
      let run = try CLITests.flt([command, file.path])
      #expect(run.status == 2)
      #expect(run.stdout.isEmpty)
      #expect(
        run.stderr.contains("error[FLT201]: expected a value after '>', found the end of the input")
      )
      #expect(run.stderr.contains(" --> \(file.path):2:8"))
      #expect(run.stderr.contains("2 | price >"))
    }
    #expect(try Data(contentsOf: file) == before, "the file was changed")
  }

  @Test func checkIsSilentOnGoodScripts() throws {
    let run = try CLITests.flt(["check", "examples/phones.flt", "examples/cards.flt"])
    #expect(run.status == 0)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.isEmpty)
  }

  @Test func checkFindsWhatWouldFailAtRunTimeWithoutRunning() throws {
    // mistake.flt counts (which would print 72) before a statement that names no field.
    let run = try CLITests.flt(["check", "examples/mistake.flt"])
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("error[FLT301]: unknown field 'colour'"))
    #expect(run.stderr.contains(" --> examples/mistake.flt:5:7"))
    // Fields are checked against the whole file, types too; warnings are shown.
    let data = try CLITests.temporaryFile(
      Array((0..<12_000).map { #"{"n":\#($0)}"# + "\n" }.joined().utf8)
        + Array(#"{"n":1,"late":"x"}"#.utf8),
      name: "late.jsonl")
    defer { try? FileManager.default.removeItem(at: data) }
    let script = try CLITests.temporaryFile(
      Array("load \"\(data.path)\"\ncount late == x\ncount n > 1\nn == \"a\"\n".utf8),
      name: "types.flt")
    defer { try? FileManager.default.removeItem(at: script) }
    let types = try CLITests.flt(["check", script.path])
    #expect(types.status == 2)
    #expect(types.stdout.isEmpty)
    #expect(types.stderr.contains("error[FLT305]: cannot compare 'n' (an integer) with 'a'"))
    #expect(types.stderr.contains(" --> \(script.path):4:6"))
  }

  @Test func readsStandardInput() throws {
    let run = try CLITests.flt(["parse", "-"], stdin: "a = 1; b\n")
    #expect(run.status == 0)
    #expect(run.stdout == "a == 1\nb\n")
  }

  @Test func unreadableFiles() throws {
    let missing = try CLITests.flt(["check", "no/such/file.flt"])
    #expect(missing.status == 2)
    #expect(missing.stderr == "error: no/such/file.flt: no such file\n")
    let directory = try CLITests.flt(["check", "examples"])
    #expect(directory.stderr == "error: examples: is a directory, not a file\n")
    let binary = try CLITests.temporaryFile([0x61, 0x0A, 0x62, 0xFF, 0x63], name: "binary.flt")
    defer { try? FileManager.default.removeItem(at: binary) }
    let invalid = try CLITests.flt(["check", binary.path])
    #expect(invalid.status == 2)
    #expect(
      invalid.stderr == "error: \(binary.path): is not UTF-8 text: invalid byte 0xFF at 2:2\n")
  }

  @Test func astAndTokens() throws {
    let ast = try CLITests.flt([
      "ast", #"color in (Starlight, "Space Black") and diskSpace >= 256"#,
    ])
    #expect(ast.status == 0)
    #expect(
      ast.stdout == #"(query (and (in color (list "Starlight" "Space Black")) (>= diskSpace 256)))"#
        + "\n")
    let bad = try CLITests.flt(["ast", "price >"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains(" --> <query>:1:8"))
    let tokens = try CLITests.flt(["tokens", "a >= 5G"])
    #expect(tokens.stdout == "identifier \"a\"\ngreaterEqual \">=\"\nword \"5G\"\nendOfFile \"\"\n")
  }
}
