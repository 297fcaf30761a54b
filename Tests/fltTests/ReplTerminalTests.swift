import Foundation
import TestSupport
import Testing

/// The REPL driven the way a person uses it: in a pseudo-terminal made by `tmux`, typing
/// keys (arrows, Tab, Ctrl-C, Ctrl-D) and reading the screen.
@Suite(.serialized) struct ReplTerminalTests {
  /// A tmux server of its own (its own socket, no configuration) running `command` in
  /// `examples/`, with its own history file.
  final class Screen {
    let name = "flt-test-\(UUID().uuidString.prefix(8))"
    let history = TemporaryFiles.url("history")

    init(_ arguments: String, environment: String = "") throws {
      let flt = CLITests.binary.path
      let examples = CLITests.root.appendingPathComponent("examples").path
      let script =
        "cd '\(examples)' && \(environment) FLT_HISTORY='\(history.path)' '\(flt)' \(arguments); "
        + "echo; stty -a | tr ' ' '\\n' | grep -x -e -icanon -e icanon -e -echo -e echo | tr '\\n' ' '; "
        + "echo EXITED; sleep 60"
      try tmux(["new-session", "-d", "-x", "110", "-y", "40", "-s", name, script])
    }

    deinit {
      _ = try? tmux(["kill-server"])
      try? FileManager.default.removeItem(at: history)
    }

    /// Runs a tmux command on this screen's server and returns what it printed.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
      try Screen.tmux(["-L", name, "-f", "/dev/null"] + arguments)
    }

    static func tmux(_ arguments: [String]) throws -> String {
      let run = try ChildProcess.run(["/usr/bin/env", "tmux"] + arguments, timeout: 20)
      return String(decoding: run.stdout, as: UTF8.self)
    }

    /// Types keys: text is sent literally, names such as `Left`, `Tab`, `C-c` as keys.
    func keys(_ keys: String...) throws {
      for key in keys {
        let named = ["Left", "Right", "Up", "Down", "Home", "End", "Tab", "Enter", "BSpace", "DC"]
        if named.contains(key) || key.hasPrefix("C-") || key.hasPrefix("M-") {
          try tmux(["send-keys", "-t", name, key])
        } else {
          try tmux(["send-keys", "-t", name, "-l", key])
        }
        Thread.sleep(forTimeInterval: 0.05)
      }
    }

    var text: String {
      (try? tmux(["capture-pane", "-p", "-t", name])) ?? ""
    }
    /// The screen with lines the terminal wrapped joined again: what was printed.
    var printed: String {
      (try? tmux(["capture-pane", "-p", "-J", "-t", name])) ?? ""
    }

    /// Waits until the screen shows `expected`; returns whether it did, and records the
    /// screen when it did not. The bound (120 s) only stops a hang: it returns as soon as the
    /// screen shows it, and a debug build loading 300,000 records on a busy 2-core machine
    /// took about 9 s, past the 10 s this once allowed.
    func waitFor(_ expected: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
      for _ in 0..<1200 {
        if text.contains(expected) { return true }
        Thread.sleep(forTimeInterval: 0.1)
      }
      Issue.record("the screen:\n\(text)", sourceLocation: sourceLocation)
      return false
    }

    var pid: Int32? {
      guard
        let shell = Int32(
          (try? tmux(["display", "-p", "-t", name, "#{pane_pid}"]))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""),
        let children = try? ChildProcess.run(
          ["/usr/bin/env", "pgrep", "-P", String(shell), "-x", "flt"], timeout: 20)
      else { return nil }
      return Int32(
        String(decoding: children.stdout, as: UTF8.self).split(separator: "\n").first ?? "")
    }
  }

  static var hasTmux: Bool {
    (try? Screen.tmux(["-V"]))?.hasPrefix("tmux") == true
  }

  /// Stopped and continued from outside (Ctrl-Z, then `fg`), the REPL finds the terminal as
  /// the shell left it (cooked) and puts raw mode back before the next key. (Found by an
  /// audit: the first line after `fg` was typed in cooked mode, so Tab did not complete.)
  @Test(.enabled(if: hasTmux)) func rawModeComesBackAfterAStop() throws {
    let screen = try Screen("repl phones.json")
    #expect(screen.waitFor("phones>"))
    let pid = try #require(screen.pid)
    let tty = try screen.tmux(["display", "-p", "-t", screen.name, "#{pane_tty}"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    kill(pid, SIGSTOP)
    // What a shell does when its job stops: the terminal back to cooked mode.
    _ = try ChildProcess.run(["/usr/bin/env", "stty", "-F", tty, "sane"], timeout: 20)
    kill(pid, SIGCONT)
    Thread.sleep(forTimeInterval: 0.3)
    try screen.keys("count disk", "Tab")
    #expect(screen.waitFor("phones> count diskSpace"))
    try screen.keys(">= 1024", "Enter")
    #expect(screen.waitFor("1024\n10\n"))
  }

  /// The one-shot command's table on a terminal: a screenful (40 rows less 5), the rest
  /// counted and said; into a pipe, every record.
  @Test(.enabled(if: hasTmux)) func aTableOnATerminalShowsAScreenful() throws {
    let screen = try Screen("'price > 0' phones.json")
    #expect(screen.waitFor("35 of 111 rows"))
    #expect(screen.waitFor("(76 more not shown; pipe into less"))
    // Fitted to the 110 columns: no row was wrapped (the note below it may be).
    let rows = screen.printed.split(separator: "\n").prefix { !$0.hasPrefix("35 of") }
    #expect(rows.count >= 20 && rows.allSatisfy { $0.count <= 110 })
    let piped = try Screen("-f table 'price > 0' phones.json | tail -n 1")
    #expect(piped.waitFor("111 rows"))
  }

  @Test(.enabled(if: hasTmux)) func tabCompletesAKnownValue() throws {
    let screen = try Screen("repl phones.json")
    #expect(screen.waitFor("phones>"))
    try screen.keys("count color == Sp", "Tab")
    #expect(screen.waitFor("count color == \"Space Black\""))
    try screen.keys("Enter")
    #expect(screen.waitFor("\"Space Black\"\n8\n"))
    try screen.keys("count disk", "Tab")
    #expect(screen.waitFor("count diskSpace"))
    try screen.keys(">= 1024", "Enter")
    #expect(screen.waitFor("1024\n10\n"))
  }

  /// Live results: after each key, the line under the input says how many records the
  /// filter matches, or its first error; Enter runs the entry and leaves no status behind;
  /// `set live off` turns it off.
  @Test(.enabled(if: hasTmux)) func liveResultsFollowTheTyping() throws {
    let screen = try Screen("repl phones.json")
    #expect(screen.waitFor("phones>"))
    try screen.keys("diskSpace >= 1024")
    #expect(screen.waitFor("phones> diskSpace >= 1024\n10 of 111 records match"))
    try screen.keys(" and colr")
    #expect(screen.waitFor("1024 and colr\nerror[FLT301]: unknown field 'colr'"))
    try screen.keys("BSpace", "BSpace", "BSpace", "BSpace", "color == Gold")
    #expect(screen.waitFor("color == Gold\n2 of 111 records match"))
    try screen.keys("Enter")
    #expect(screen.waitFor("2 rows"))
    #expect(!screen.text.contains("records match"))
    // Ctrl-C clears the status with the line.
    try screen.keys("price > 2000")
    #expect(screen.waitFor("price > 2000\n2 of 111 records match"))
    try screen.keys("C-c")
    #expect(screen.waitFor("price > 2000^C\nphones>"))
    #expect(!screen.text.contains("records match"))
    try screen.keys("set live off", "Enter", "price > 1")
    Thread.sleep(forTimeInterval: 0.5)
    #expect(screen.text.contains("phones> price > 1") && !screen.text.contains("records match"))
  }

  /// The line is coloured as it is typed (fields, keywords, values), unless NO_COLOR is set.
  @Test(.enabled(if: hasTmux)) func theLineIsColouredUnlessNoColorIsSet() throws {
    // (`swift test` sets NO_COLOR for the tests it runs.)
    let screen = try Screen("repl phones.json", environment: "env -u NO_COLOR")
    #expect(screen.waitFor("phones>"))
    try screen.keys("color == Gold and price > 5")
    #expect(screen.waitFor("of 111 records match"))
    let styled = try screen.tmux(["capture-pane", "-p", "-e", "-t", screen.name])
    let line = try #require(styled.split(separator: "\n").first { $0.contains("Gold") })
    // tmux writes its own escapes: a colour, then perhaps a background reset, then the text.
    #expect(line.contains("\u{1B}[36m") && line.contains("\u{1B}[32mGold"))
    #expect(line.contains("\u{1B}[34mand") && line.contains("\u{1B}[33m5"))
    let plain = try Screen("repl phones.json", environment: "NO_COLOR=1")
    #expect(plain.waitFor("phones>"))
    try plain.keys("color == Gold")
    #expect(plain.waitFor("of 111 records match"))
    let shown = try plain.tmux(["capture-pane", "-p", "-e", "-t", plain.name])
    #expect(!shown.contains("\u{1B}[3"))
  }

  /// Results taller than the screen go through `$PAGER`; short ones are printed.
  @Test(.enabled(if: hasTmux)) func tallResultsGoThroughThePager() throws {
    let screen = try Screen("repl phones.json", environment: "PAGER=\"sed 's/^/paged: /'\"")
    #expect(screen.waitFor("phones>"))
    try screen.keys("set format records", "Enter", "price > 1000", "Enter")
    #expect(screen.waitFor("paged: model         iPhone 14 Pro"))
    try screen.keys("count", "Enter")
    #expect(screen.waitFor("phones> count\n111\n"))
    try screen.keys("set pager off", "Enter", "price > 2000", "Enter")
    #expect(screen.waitFor("\nmodel         Galaxy Z Fold4"))
  }

  @Test(.enabled(if: hasTmux)) func arrowsAndControlKeysEditTheLine() throws {
    let screen = try Screen("repl phones.json")
    #expect(screen.waitFor("phones>"))
    // Fix a line in the middle: "ount diskSpace >= 25" -> "count diskSpace >= 256".
    try screen.keys("ount diskSpace >= 25", "Home", "c", "End", "6", "Enter")
    #expect(screen.waitFor("count diskSpace >= 256\n72\n"))
    // Ctrl-W deletes the word before the cursor; word jumps move over words.
    try screen.keys("count price", "C-w", "diskSpace < 500", "Enter")
    #expect(screen.waitFor("count diskSpace < 500\n79\n"))
    try screen.keys("price < 500", "Home", "M-f", "M-f", "0", "Home", "count ", "Enter")
    #expect(screen.waitFor("count price < 5000\n111\n"))
    // Ctrl-U clears, Ctrl-K cuts to the end.
    try screen.keys("nonsense", "C-u", "count price < 500 and junk", "M-b", "M-b", "C-k")
    try screen.keys("BSpace", "Enter")
    #expect(screen.waitFor("count price < 500\n12\n"))
    // A line wider than the screen scrolls; editing its start still works; entered, it is
    // echoed whole (the terminal wraps it).
    let long = "price > 0 and " + String(repeating: "diskSpace > 0 and ", count: 8) + "price > 1"
    try screen.keys(long, "Home", "count ", "Enter")
    #expect(screen.waitFor("phones> count price > 0 and diskSpace > 0 and"))
    #expect(screen.waitFor("price > 1\n111\n"))
    #expect(screen.printed.contains("phones> count " + long + "\n111\n"))
    #expect(!screen.text.split(separator: "\n").contains { $0.count > 110 })
    // Left and Delete.
    try screen.keys("count price < 5000", "Left", "Left", "DC", "Enter")
    #expect(screen.waitFor("count price < 500\n12\n"))
  }

  @Test(.enabled(if: hasTmux)) func historyCtrlCMultiLineAndCtrlD() throws {
    let screen = try Screen("repl phones.json")
    #expect(screen.waitFor("phones>"))
    try screen.keys("count price < 500", "Enter")
    #expect(screen.waitFor("12\n"))
    try screen.keys("junk that is cancelled", "C-c")
    #expect(screen.waitFor("cancelled^C"))
    try screen.keys("Up", "BSpace", "BSpace", "BSpace", "600", "Enter")
    #expect(screen.waitFor("count price < 600\n"))
    // Ctrl-R finds an entry by what it holds; Enter runs it.
    try screen.keys("C-r", "< 6")
    #expect(screen.waitFor("(search '< 6'): count price < 600"))
    try screen.keys("Enter")
    #expect(screen.waitFor("count price < 600\n19\n"))
    try screen.keys("count (price < 500 or", "Enter")
    #expect(screen.waitFor("......>"))
    try screen.keys("price > 2000)", "Enter")
    #expect(screen.waitFor("price > 2000)\n14\n"))
    try screen.keys("C-d")
    // The terminal is back in its normal mode after the REPL.
    #expect(screen.waitFor("icanon echo EXITED"))
    let saved = try String(contentsOf: screen.history, encoding: .utf8)
    #expect(saved.contains("count price < 600\n"))
    #expect(saved.contains("count (price < 500 or\\nprice > 2000)\n"))
    #expect(!saved.contains("junk"))
  }

  /// A JSON Lines file of `records` records (`n` counting from 0, and a name) that takes
  /// long enough to load in a debug build for keys to arrive while it loads.
  static func bigFile(records: Int, name: String) throws -> URL {
    var lines = ""
    for n in 0..<records { lines += "{\"n\":\(n),\"name\":\"item \(n)\"}\n" }
    return try CLITests.temporaryFile(Array(lines.utf8), name: name)
  }

  @Test(.enabled(if: hasTmux)) func ctrlCStopsALongStatementAndChangesNothing() throws {
    // 400,000 records: seconds to load in a debug build, so Ctrl-C comes while it loads.
    let big = try Self.bigFile(records: 400_000, name: "big.jsonl")
    defer { try? FileManager.default.removeItem(at: big) }
    let screen = try Screen("repl phones.json")
    #expect(screen.waitFor("phones>"))
    try screen.keys("load \"\(big.path)\" as big", "Enter")
    Thread.sleep(forTimeInterval: 0.5)
    try screen.keys("C-c")
    #expect(screen.waitFor("error[FLT509]: interrupted before it finished"))
    // The phones are still the current data, and the session goes on.
    try screen.keys("count", "Enter")
    #expect(screen.waitFor("phones> count\n111\n"))
  }

  /// Keys typed while a statement runs are not echoed into its output: the next prompt
  /// shows them, ready to edit.
  @Test(.enabled(if: hasTmux)) func typedAheadTextWaitsForTheNextPrompt() throws {
    let big = try Self.bigFile(records: 300_000, name: "ahead.jsonl")
    defer { try? FileManager.default.removeItem(at: big) }
    let screen = try Screen("repl phones.json")
    #expect(screen.waitFor("phones>"))
    try screen.keys("load \"\(big.path)\" as big", "Enter")
    Thread.sleep(forTimeInterval: 0.2)
    try screen.keys("count n >= 299999")
    #expect(screen.waitFor("big> count n >= 299999"))
    #expect(screen.text.components(separatedBy: "count n >= 299999").count == 2)
    try screen.keys("Enter")
    #expect(screen.waitFor("count n >= 299999\n1\n"))
  }

  /// A long pasted line arrives whole and runs (it is drawn once, when the input pauses:
  /// drawn at every key, a 33 KB paste froze the REPL for over a minute; Scripts/
  /// benchmark-paste.sh times it).
  @Test(.enabled(if: hasTmux)) func aLongPasteIsOneLine() throws {
    let screen = try Screen("repl phones.json")
    #expect(screen.waitFor("phones>"))
    let text = "count " + String(repeating: "price > 1 and ", count: 1_400) + "price > 2000"
    let file = try CLITests.temporaryFile(Array(text.utf8), name: "paste.txt")
    try screen.tmux(["load-buffer", file.path])
    try screen.tmux(["paste-buffer", "-t", screen.name])
    #expect(screen.waitFor("and price > 2000"))
    try screen.keys("Enter")
    #expect(screen.waitFor("price > 2000\n2\n"))
  }

  /// What a new user saw drawn wrong (issue 52): a Tab list over the live status, a long
  /// statement echoed with its start cut, `:schema` wrapped mid-word by the terminal, and
  /// `:output`'s message a statement late.
  @Test(.enabled(if: hasTmux)) func listsEchoesOutlinesAndMessagesAreDrawnWhole() throws {
    let screen = try Screen("repl phones.json")
    #expect(screen.waitFor("phones>"))
    try screen.keys("co")
    #expect(screen.waitFor("unknown field 'co'"))
    try screen.keys("Tab", "Tab")
    #expect(screen.waitFor("\ncolor     contains  count\n"))
    #expect(!screen.text.contains("count" + "eld"))
    try screen.keys("C-u")
    let long =
      "count "
      + ["Pixel 7", "Pixel 7 Pro", "iPhone 14 Pro Max", "Galaxy S23 Ultra", "iPhone SE"]
      .map { "model == \"\($0)\"" }.joined(separator: " or ")
    #expect(long.count > 110)
    try screen.keys(long, "Enter")
    #expect(screen.waitFor("\n41\n"))
    #expect(screen.printed.contains("phones> " + long + "\n41\n"), "\(screen.printed)")
    try screen.keys(":schema", "Enter")
    #expect(screen.waitFor("discontinued  date?"))
    // No line reaches the edge, so the terminal wrapped none; the values go on lined up.
    let lines = screen.text.split(separator: "\n").drop { !$0.hasSuffix(":schema") }
    #expect(lines.count > 15)
    #expect(lines.allSatisfy { $0.count < 110 })
    #expect(
      lines.contains {
        $0.hasPrefix(String(repeating: " ", count: 22)) && $0.dropFirst(22).first != " "
      })
    let output = TemporaryFiles.url("results.txt")
    try screen.keys(":output \(output.path)", "Enter", "count", "Enter", ":output", "Enter")
    #expect(screen.waitFor("results come here again"))
    #expect(try String(contentsOf: output, encoding: .utf8) == "111\n")
  }

  @Test(.enabled(if: hasTmux)) func errorsDoNotEndTheSessionAndCrashesRestoreTheTerminal() throws {
    let screen = try Screen("repl phones.json")
    #expect(screen.waitFor("phones>"))
    try screen.keys("count colr == Gold", "Enter")
    #expect(screen.waitFor("--> <repl>:1:7"))
    try screen.keys(":frobnicate", "Enter")
    #expect(screen.waitFor("there is no command ':frobnicate'"))
    try screen.keys("count", "Enter")
    #expect(screen.waitFor("count\n111\n"))
    // Tables fit the terminal's 110 columns.
    try screen.keys("price > 1500", "Enter")
    #expect(screen.waitFor("10 rows (cut to fit: show f1, f2 or set format records)\n"))
    #expect(screen.printed.split(separator: "\n").allSatisfy { $0.count <= 110 })
    try screen.keys("typing when it crashes")
    Thread.sleep(forTimeInterval: 0.3)
    let pid = try #require(screen.pid)
    kill(pid, SIGSEGV)
    #expect(screen.waitFor("icanon echo EXITED"))
  }
}
