import Foundation
import TestSupport
import Testing

/// `--help`, `--help-man` and `--completions` come from one table of options: every option
/// they show is one the parser takes, the man page in `docs/` is the generated one, and the
/// bash script completes options and their values.
@Suite struct HelpAndCompletionTests {
  func flt(_ arguments: [String]) throws -> CLITests.Run { try CLITests.flt(arguments) }

  /// The long options `--help` lists.
  func listed() throws -> [String] {
    let help = try flt(["--help"]).stdout
    let options = help.components(separatedBy: "\noptions:\n")[1].components(
      separatedBy: "\n\nexamples:")[0]
    // An option's line starts with its names; the lines under it go on with its help.
    return options.split(separator: "\n").compactMap { line in
      guard line.drop(while: { $0 == " " }).hasPrefix("-") else { return nil }
      return line.split(separator: " ").first { $0.hasPrefix("--") }.map(String.init)
    }
  }

  @Test func everyOptionTheHelpListsIsOneTheParserTakes() throws {
    let options = try listed()
    #expect(
      options.count >= 20 && options.contains("--filter-file") && options.contains("--dialect"))
    let samples = [
      "--select": "model", "--format": "jsonl", "--output": "/dev/null", "--input-format": "json",
      "--root": "data", "--null": "NA", "--type": "price=int", "--param": "x=1",
      "--filter-file": "examples/phones.flt", "--table": "phones", "--dialect": "sqlite",
      "--color": "never", "--completions": "bash",
    ]
    for option in options {
      let value = samples[option].map { [$0] } ?? []
      let run = try flt([option] + value + ["true", "examples/phones.json"])
      #expect(!run.stderr.contains("unknown option"), "\(option): \(run.stderr)")
    }
    let unknown = try flt(["--frobnicate", "true", "examples/phones.json"])
    #expect(unknown.status == 2 && unknown.stderr.contains("unknown option --frobnicate"))
  }

  @Test func theManPageInDocsIsTheGeneratedOne() throws {
    let page = try flt(["--help-man"])
    #expect(page.status == 0 && page.stdout.hasPrefix(".TH FLT 1"))
    let committed = try String(
      contentsOf: CLITests.root.appendingPathComponent("docs/flt.1"), encoding: .utf8)
    #expect(page.stdout == committed, "docs/flt.1 is stale: flt --help-man > docs/flt.1")
    for option in try listed() {
      #expect(page.stdout.contains(option.replacingOccurrences(of: "-", with: "\\-")), "\(option)")
    }
  }

  @Test func bashCompletesOptionsValuesAndSubcommands() throws {
    let binary = CLITests.binary.path
    func complete(_ words: [String]) throws -> [String] {
      let script = """
        eval "$('\(binary)' --completions bash)"
        COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
        _flt; printf '%s\\n' "${COMPREPLY[@]}"
        """
      let run = try ChildProcess.run(["/bin/bash", "-c", script], in: CLITests.root.path)
      return String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }
    #expect(try complete(["flt", "--form"]) == ["--format"])
    #expect(try complete(["flt", "-f", "js"]) == ["json", "jsonl"])
    #expect(try complete(["flt", "--color", ""]) == ["auto", "always", "never"])
    #expect(try complete(["flt", "rep"]).contains("repl"))
    #expect(try complete(["flt", "x", "examples/phones.j"]).contains("examples/phones.json"))
    for shell in ["zsh", "fish"] {
      let script = try flt(["--completions", shell])
      #expect(script.status == 0 && script.stdout.contains("filter-file"))
    }
    #expect(try flt(["--completions", "tcsh"]).status == 2)
  }

  static var hasMake: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/make") }

  /// `make install PREFIX=...` puts the binary, the man page and the completions where those
  /// go, and `make uninstall` takes them away (the built binary given, so nothing builds).
  @Test(.enabled(if: hasMake)) func makeInstallsAndUninstalls() throws {
    let prefix = try TemporaryFiles.makeFolder("prefix").path
    let make = ["/usr/bin/make", "-s", "PREFIX=\(prefix)", "FLT=\(CLITests.binary.path)"]
    let install = try ChildProcess.run(make + ["install"], in: CLITests.root.path)
    #expect(install.status == 0, "\(String(decoding: install.stderr, as: UTF8.self))")
    let files = [
      "bin/flt", "share/man/man1/flt.1", "share/bash-completion/completions/flt",
      "share/zsh/site-functions/_flt", "share/fish/vendor_completions.d/flt.fish",
    ]
    for file in files {
      #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file)")
    }
    let version = try ChildProcess.run([prefix + "/bin/flt", "--version"])
    #expect(String(decoding: version.stdout, as: UTF8.self).hasPrefix("flt "))
    _ = try ChildProcess.run(make + ["uninstall"], in: CLITests.root.path)
    for file in files { #expect(!FileManager.default.fileExists(atPath: prefix + "/" + file)) }
  }
}
