import FilterDSL
import FilterData
import Foundation
import TestSupport
import Testing

@testable import FilterSession

/// The REPL's logic without a terminal: entries, line numbers, commands, history, :save.
@Suite struct ReplTests {
  let harness = SessionHarness()

  func repl() -> (Repl, () -> String) { harness.repl() }

  @Test func entriesNeedMoreInputWhileOpen() {
    #expect(Repl.needsMoreInput("count (price < 5"))
    #expect(Repl.needsMoreInput("model == \"iPhone"))
    #expect(Repl.needsMoreInput("price < 500 and"))
    #expect(Repl.needsMoreInput("flags & 4 == 4 and bits <<"))
    #expect(Repl.needsMoreInput("mask |"))
    #expect(Repl.needsMoreInput("facets color where"))
    #expect(Repl.needsMoreInput("color in (a,\nb"))
    #expect(!Repl.needsMoreInput("count (price < 5)"))
    #expect(!Repl.needsMoreInput("count price < 5)"))
    #expect(!Repl.needsMoreInput(":ast (a"))
    #expect(!Repl.needsMoreInput(""))
    // A star ends `show *`, and only there.
    #expect(!Repl.needsMoreInput("show *"))
    #expect(!Repl.needsMoreInput("SHOW  *  "))
    #expect(Repl.needsMoreInput("count price *"))
    #expect(Repl.needsMoreInput("*"))
  }

  @Test func errorsNameTheReplLineAndTheSessionGoesOn() {
    let (repl, errors) = repl()
    #expect(repl.handle("load \"phones.json\""))
    #expect(repl.handle("count (price < 500 or\nprice > 2000)"))
    #expect(repl.handle("count colr"))
    #expect(errors().contains("--> <repl>:4:7"))
    #expect(repl.handle("count"))
    #expect(harness.output.text == "14\n111\n")
    #expect(repl.failures == 1)
  }

  @Test func thePromptNamesTheCurrentData() {
    let (repl, _) = repl()
    #expect(repl.prompt(continuing: false) == "flt> ")
    #expect(repl.prompt(continuing: true) == "...> ")
    repl.handle("load \"phones.json\"")
    #expect(repl.prompt(continuing: false) == "phones> ")
    #expect(repl.prompt(continuing: true) == "......> ")
    repl.handle("load \"cards.json\" as 卡片のデッキとそのほかのデータ")
    // Cut to 20 columns (wide characters count two), with an ellipsis.
    #expect(repl.prompt(continuing: false) == "卡片のデッキとその…> ")
    #expect(repl.prompt(continuing: true) == String(repeating: ".", count: 19) + "> ")
  }

  @Test func datasetsListsWhatIsLoadedAndMarksTheCurrent() {
    let (repl, _) = repl()
    repl.handle(":datasets")
    #expect(harness.output.text == "no data loaded\n")
    repl.handle("load \"phones.json\"\nload \"cards.json\" as deck\nuse phones")
    repl.handle(":datasets")
    let lines = harness.output.text.split(separator: "\n").suffix(2)
    #expect(lines.first?.hasPrefix("* phones  111 records, 12 fields") == true)
    #expect(lines.last?.hasPrefix("  deck    40 records, 11 fields") == true)
    #expect(lines.last?.hasSuffix("cards.json") == true)
  }

  @Test func runRunsAScriptHereWithItsPathsRelativeToIt() throws {
    let (repl, errors) = repl()
    let folder = try TemporaryFiles.makeFolder("scripts")
    let data = folder.appendingPathComponent("tiny.jsonl")
    try Data("{\"n\": 1}\n{\"n\": 5}\n".utf8).write(to: data)
    let script = folder.appendingPathComponent("tiny.flt")
    try Data("load \"tiny.jsonl\"\nlet big = n > 2\ncount big\n".utf8).write(to: script)
    repl.handle(":run \(script.path)")
    #expect(harness.output.text == "1\n")
    // What it loaded and defined stays; the session's own folder is back.
    #expect(harness.session.current?.name == "tiny")
    repl.handle("count not big")
    #expect(harness.output.text == "1\n1\n")
    #expect(harness.session.baseDirectory == SessionHarness.examples)
    repl.handle(":run nowhere.flt")
    #expect(errors().contains("cannot run nowhere.flt: no such file"))
    let broken = folder.appendingPathComponent("broken.flt")
    try Data("count n >\n".utf8).write(to: broken)
    repl.handle(":run \(broken.path)")
    #expect(errors().contains("broken.flt:1:"))
  }

  @Test func commands() {
    let (repl, errors) = repl()
    #expect(repl.handle(":help"))
    #expect(harness.output.text.contains(":save FILE.flt"))
    #expect(repl.handle(":schema"))
    #expect(errors().contains("no data loaded"))
    repl.handle("load \"cards.json\"")
    repl.handle(":schema")
    #expect(harness.output.text.contains("rarity      string  (4 values: N, R, SR, SSR)"))
    repl.handle(":memory")
    #expect(
      harness.output.text.contains("rarity              coded, 4 distinct                    200 B")
    )
    // (A byte a row of codes: 40; the first rows of the 5 codes, 40; the values, 120.)
    // The text stays in the file: where each record starts (8 bytes) and its length (4), in
    // arrays whose spare capacity depends on the allocator.
    let text = harness.output.text.split(separator: "\n").first {
      $0.hasPrefix("(text, for output)  40 records, read back from the file  ")
    }
    let bytes = text.flatMap { Int($0.split(separator: " ").dropLast().last ?? "") }
    #expect(bytes.map { (480..<1000).contains($0) } == true, "\(text ?? "none")")
    repl.handle(":settings")
    #expect(harness.output.text.contains("limit   none    set limit N|none"))
    repl.handle(":ast hp > 5")
    #expect(harness.output.text.contains("(query (> hp 5))"))
    repl.handle(":tokens hp")
    #expect(harness.output.text.contains("identifier \"hp\""))
    repl.handle(":time on")
    #expect(harness.session.settings.time)
    repl.handle(":time sometimes")
    #expect(errors().contains(":time takes on or off"))
    repl.handle(":sav x.flt")
    #expect(errors().contains("did you mean ':save'?"))
    #expect(!repl.handle(":quit"))
    #expect(repl.failures == 3)
  }

  @Test func saveWritesTheSuccessfulStatementsAsAScriptThatRunsAgain() throws {
    let (repl, _) = repl()
    harness.session.baseDirectory = nil
    let folder = try TemporaryFiles.makeFolder("save")
    let here = FileManager.default.currentDirectoryPath
    _ = FileManager.default.changeCurrentDirectoryPath(SessionHarness.examples)
    defer { _ = FileManager.default.changeCurrentDirectoryPath(here) }
    repl.handle("load \"phones.json\"")
    repl.handle("let big = diskSpace >= 256")
    repl.handle("count big and colr == 1")
    repl.handle("count big")
    let path = folder.appendingPathComponent("session.flt").path
    repl.handle(":save \(path)")
    let saved = try String(contentsOfFile: path, encoding: .utf8)
    #expect(saved.contains("load \"\(SessionHarness.examples)/phones.json\" as phones\n"))
    #expect(saved.contains("let big = diskSpace >= 256\ncount big\n"))
    #expect(!saved.contains("colr"))
    let again = SessionHarness()
    again.session.baseDirectory = folder.path
    #expect(again.printed(saved) == "72\n")
    // A file that cannot be written is an error, and nothing is left behind.
    repl.handle(":save /nonexistent-folder/x.flt")
    #expect(repl.failures == 2)
  }

  /// What was typed may hold anything: a new history file is private, and a history that is a
  /// symlink (to a shared file) stays one. (Found by an audit: 0644, and the link replaced.)
  @Test func historyIsPrivateAndFollowsSymlinks() throws {
    let folder = try TemporaryFiles.makeFolder("history")
    let path = folder.appendingPathComponent("history").path
    #expect(History(path: path).save(["count"]))
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let shared = folder.appendingPathComponent("shared").path
    let link = folder.appendingPathComponent("link").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: shared)
    #expect(History(path: link).save(["count price > 1"]))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == shared)
    #expect(History(path: shared).load() == ["count price > 1"])
    // :save goes through links the same way.
    let script = folder.appendingPathComponent("script.flt").path
    let scriptLink = folder.appendingPathComponent("saved.flt").path
    try FileManager.default.createSymbolicLink(atPath: scriptLink, withDestinationPath: script)
    let (repl, _) = self.repl()
    repl.handle("count")
    repl.handle(":save \(scriptLink)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scriptLink) == script)
    #expect(FileManager.default.fileExists(atPath: script))
  }

  /// A history that is huge, not UTF-8, a folder or a FIFO never hangs or fails the REPL.
  @Test func oddHistoryFilesAreReadSafely() throws {
    let folder = try TemporaryFiles.makeFolder("odd-history")
    // 20 MB: only the end is read, and its last entries come back.
    var text = ""
    for i in 0..<400_000 { text += "count price > \(i)\n" }
    let huge = folder.appendingPathComponent("huge").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: huge))
    let entries = History(path: huge).load()
    #expect(entries.count == History.limit && entries.last == "count price > 399999")
    let binary = folder.appendingPathComponent("binary").path
    try Data([0x63, 0xFF, 0x0A, 0x61, 0x0A]).write(to: URL(fileURLWithPath: binary))
    #expect(History(path: binary).load() == ["c\u{FFFD}", "a"])
    #expect(History(path: folder.path).load() == [])
    let fifo = folder.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(History(path: fifo).load() == [])
  }

  @Test func historyEntriesSurviveTheFile() throws {
    let path = TemporaryFiles.url("history").path
    let history = History(path: path)
    let entries = ["count", "count (a or\nb)", "name == \"back\\\\slash\\n\""]
    #expect(history.save(entries))
    #expect(history.load() == entries)
    #expect(History(path: path + "-missing").load().isEmpty)
    #expect(History.defaultPath(environment: ["HOME": "/home/me"]) == "/home/me/.flt_history")
    #expect(History.defaultPath(environment: ["FLT_HISTORY": ""]) == nil)
  }

  @Test func sessionsShareTheHistoryFileWithoutDuplicates() throws {
    let path = TemporaryFiles.url("shared-history").path
    let (first, second) = (History(path: path), History(path: path))
    #expect(first.add("count"))
    #expect(second.add("facets color"))
    #expect(first.add("price < 500"))
    // Both sessions' entries, in the order typed; one typed again moves to the end.
    #expect(History(path: path).load() == ["count", "facets color", "price < 500"])
    #expect(second.add("count"))
    #expect(History(path: path).load() == ["facets color", "price < 500", "count"])
    #expect(first.add("  "))
    #expect(History(path: path).load().count == 3)
  }
}
