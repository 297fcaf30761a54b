import Foundation
import Testing

/// `flt run FILE.flt`, `flt FILE.flt` and `flt repl` with piped input, as a user runs them.
@Suite struct ScriptCommandTests {
  @Test func runAndTheBareScriptNameAreTheSame() throws {
    let run = try CLITests.flt(["run", "examples/cards.flt"])
    let bare = try CLITests.flt(["examples/cards.flt"])
    #expect(run.status == 0)
    #expect(run.stdout == bare.stdout)
    #expect(!run.stdout.isEmpty)
  }

  /// A script is read up to the parser's 16 MiB and no further: `/dev/zero` or an endless
  /// standard input is an error, not all of memory.
  @Test func aScriptPastTheLimitIsAnErrorBeforeItIsRead() throws {
    let zero = try CLITests.flt(["run", "/dev/zero"])
    #expect(zero.status == 2)
    #expect(zero.stderr == "error: /dev/zero: is larger than 16 MiB, the most a script may hold\n")
    let big = String(repeating: "count\n", count: (16 << 20) / 6 + 10)
    let piped = try CLITests.flt(["run", "-"], stdin: big)
    #expect(piped.status == 2)
    #expect(piped.stderr == "error: <stdin>: is larger than 16 MiB, the most a script may hold\n")
  }

  @Test func loadIsRelativeToTheScriptsFolder() throws {
    let script = try CLITests.temporaryFile(
      Array("load \"\(CLITests.root.path)/examples/phones.json\"\ncount\n".utf8), name: "abs.flt")
    defer { try? FileManager.default.removeItem(at: script) }
    #expect(try CLITests.flt(["run", script.path]).stdout == "111\n")
    let relative = try CLITests.temporaryFile(Array("load \"phones.json\"\n".utf8), name: "rel.flt")
    defer { try? FileManager.default.removeItem(at: relative) }
    let failed = try CLITests.flt(["run", relative.path])
    #expect(failed.status == 2)
    #expect(failed.stderr.contains("error[FLT501]: cannot load \"phones.json\""))
    #expect(failed.stderr.contains("relative to the script's folder"))
  }

  @Test func maxMemoryLimitsTheLoadsOfScriptsAndTheREPL() throws {
    let over = try CLITests.flt(["run", "--max-memory", "1KB", "examples/cards.flt"])
    #expect(over.status == 2)
    #expect(over.stderr.contains("error[FLT514]: stopped loading \"cards.json\""))
    #expect(over.stdout.isEmpty)
    let piped = try CLITests.flt(
      ["repl", "--max-memory=2KiB", "examples/phones.json"], stdin: "count\n")
    #expect(piped.stderr.contains("over the memory limit of 2 KB"))
    let enough = try CLITests.flt(["run", "--max-memory", "none", "examples/cards.flt"])
    #expect(enough.status == 0)
    let bad = try CLITests.flt(["run", "--max-memory", "lots", "examples/cards.flt"])
    #expect(bad.status == 2)
    #expect(
      bad.stderr.contains("--max-memory needs a size with its unit (4GB, 512MB, 2GiB) or none"))
  }

  @Test func anErrorStopsTheScriptAfterWhatRanBefore() throws {
    let run = try CLITests.flt(["run", "examples/mistake.flt"])
    #expect(run.status == 2)
    #expect(run.stdout == "72\n")
    #expect(run.stderr.contains(" --> examples/mistake.flt:5:7\n"))
    #expect(run.stderr.contains("5 | count colour == Gold\n  |       ^^^^^^"))
  }

  @Test func syntaxErrorsAreAllReportedAndNothingRuns() throws {
    let script = try CLITests.temporaryFile(
      Array("count\ncount price < )\n\ncount (a\nshow\n".utf8), name: "syntax.flt")
    defer { try? FileManager.default.removeItem(at: script) }
    let run = try CLITests.flt(["run", script.path])
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.components(separatedBy: "error[").count - 1 == 3)
    #expect(!run.stderr.contains("FLT503"))  // `count` with no data never ran
  }

  @Test func scriptUsageErrors() throws {
    let missing = try CLITests.flt(["run", "nope.flt"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("nope.flt"))
    let extra = try CLITests.flt(["run", "a.flt", "b.flt"])
    #expect(extra.status == 2)
    #expect(extra.stderr.hasPrefix("error: run takes one script"))
  }

  @Test func parametersFromTheCommandLineOverrideTheScriptsLet() throws {
    let script = try CLITests.temporaryFile(
      Array(
        "load \"\(CLITests.root.path)/examples/phones.json\"\nlet budget = 500\ncount price < $budget\n"
          .utf8),
      name: "budget.flt")
    defer { try? FileManager.default.removeItem(at: script) }
    #expect(try CLITests.flt(["run", script.path]).stdout == "12\n")
    #expect(try CLITests.flt(["run", script.path, "-p", "budget=1000"]).stdout == "59\n")
    #expect(try CLITests.flt([script.path, "--param=$budget=2000"]).stdout == "109\n")
    // Options may come before the script's name too.
    #expect(try CLITests.flt(["-p", "budget=1000", script.path]).stdout == "59\n")
    #expect(try CLITests.flt(["--param", "budget=1000", "--", script.path]).stdout == "59\n")
    // Given to the REPL, they hold for its scripts; a typed let changes them.
    let repl = try CLITests.flt(
      ["repl", "-p", "budget=1000", script.path],
      stdin: "count price < $budget\nlet budget = 100\ncount price < $budget\n")
    #expect(repl.stdout == "59\n59\n0\n")
    // Values are read as the language reads them: a range or a list is a named value too.
    let ranged = try CLITests.temporaryFile(
      Array(
        "load \"\(CLITests.root.path)/examples/phones.json\"\ncount price in $prices\n".utf8),
      name: "prices.flt")
    defer { try? FileManager.default.removeItem(at: ranged) }
    #expect(try CLITests.flt(["run", ranged.path, "-p", "prices=0..<500"]).stdout == "12\n")
    #expect(try CLITests.flt(["run", ranged.path, "-p", "prices=(429, 599)"]).stderr == "")
    // Words are text, as in a filter.
    let colors = try CLITests.temporaryFile(
      Array(
        "load \"\(CLITests.root.path)/examples/phones.json\"\ncount color == $c\n".utf8),
      name: "colors.flt")
    defer { try? FileManager.default.removeItem(at: colors) }
    #expect(
      try CLITests.flt(["run", colors.path, "-p", "c=Space Black"]).stdout
        == CLITests.flt(["run", colors.path, "-p", #"c="Space Black""#]).stdout)
    let errors: [([String], String)] = [
      (["run", script.path, "-p", "bud get=1"], "'bud get' is not a name"),
      (["run", script.path, "-p", "budget"], "--param needs name=value"),
      (["run", script.path, "-p"], "-p needs name=value"),
      (["run", script.path, "--parm", "x=1"], "unknown option --parm; did you mean --param?"),
      (["repl", "-x"], "unknown option -x"),
      // What starts as a value but is not one value is refused, not taken as text (it met
      // the comparison as a type error far from its cause).
      (
        ["run", script.path, "-p", "budget=1000 2000"],
        "--param budget=1000 2000 is not one value (unexpected '2000'"
      ),
      (["run", script.path, "-p", "budget=(1, 2"], "is not one value ('(' is never closed)"),
      (["-c", "price < $budget", "-p", "budget=1 +", "x.json"], "--param budget=1 + is not one"),
      (["run", script.path, "-p", #"budget="a" "b""#], #"--param 'budget="\"a\" \"b\""'"#),
    ]
    for (arguments, message) in errors {
      let run = try CLITests.flt(arguments)
      #expect(run.status == 2)
      #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
      #expect(run.stdout.isEmpty)
    }
  }

  @Test func pipedReplRunsOneStatementPerLine() throws {
    let run = try CLITests.flt(
      ["repl"], stdin: "load \"examples/phones.json\"\ncount diskSpace >= 256\n")
    #expect(run.status == 0)
    #expect(run.stdout == "72\n")
    #expect(run.stderr.isEmpty)
  }

  @Test func pipedReplKeepsGoingAfterErrorsAndExitsTwo() throws {
    let run = try CLITests.flt(
      ["repl", "examples/phones.json"],
      stdin:
        "count colr\nset format csv\nshow model\nprice > 1600 and\n  price < 1700\n:quit\ncount\n")
    #expect(run.status == 2)
    #expect(run.stdout == "model\nGalaxy S23 Ultra\nGalaxy S23 Ultra\n")
    #expect(run.stderr.contains("--> <repl>:1:7"))
    #expect(!run.stderr.contains("\u{1B}["))  // no escape codes off a terminal
  }

  @Test func replRunsScriptsNamedOnTheCommandLine() throws {
    let run = try CLITests.flt(["repl", "examples/mistake.flt"], stdin: "count\n")
    #expect(run.stdout == "72\n111\n")
    #expect(run.stderr.contains("examples/mistake.flt:5:7"))
  }
}
