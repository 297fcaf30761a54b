import FilterDSL
import FilterData
import Foundation
import TestSupport
import Testing

@testable import FilterSession

/// `:output`, `:once`, `:reload` and `:clear`, as a user types them.
@Suite struct ReplOutputTests {
  let harness = SessionHarness()

  func repl() -> (Repl, () -> String) { harness.repl() }

  @Test func outputGoesToAFileUntilSentBack() throws {
    let (repl, errors) = repl()
    let folder = try TemporaryFiles.makeFolder("output")
    let file = folder.appendingPathComponent("counts.txt").path
    try "old text".write(toFile: file, atomically: true, encoding: .utf8)
    harness.session.styled = true
    repl.handle("load \"phones.json\"")
    // A file that exists is replaced only when asked with `!`, as an editor's `:w!`.
    repl.handle(":output \(file)")
    #expect(errors().contains("error[FLT507]: \(file) exists"))
    #expect(errors().contains("help: :output! \(file) replaces it"))
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "old text")
    repl.handle(":output! \(file)")
    repl.handle("count price < 500")
    repl.handle("count price > 2000\nprice > 2300")
    repl.handle(":output")
    repl.handle("count")
    // The file holds the results, plain (no colour), and nothing of what it held before.
    let written = try String(contentsOfFile: file, encoding: .utf8)
    #expect(written.hasPrefix("12\n2\n"))
    #expect(written.contains("model") && !written.contains("\u{1B}["))
    #expect(!written.contains("old text"))
    #expect(
      harness.output.text == "results go to \(file) (:output alone sends them here again)\n"
        + "results come here again (they went to \(file))\n111\n")
    #expect(harness.session.styled)
  }

  /// The loaded data is never written over, `!` or not (`:save phones.json` replaced the
  /// data with the script).
  @Test func theLoadedDataIsNeverWrittenOver() throws {
    let (repl, errors) = repl()
    let folder = try TemporaryFiles.makeFolder("loaded")
    let data = folder.appendingPathComponent("phones.json").path
    try FileManager.default.copyItem(atPath: SessionHarness.examples + "/phones.json", toPath: data)
    let before = try Data(contentsOf: URL(fileURLWithPath: data))
    repl.handle("load \"\(data)\"")
    for command in [":save", ":save!", ":output", ":output!", ":once", ":once!"] {
      repl.handle("\(command) \(data)")
      #expect(
        errors().contains(
          "error[FLT507]: will not write over \(data): it is the data loaded as phones"),
        "\(command)")
    }
    #expect(errors().contains("help: write to another file: :save \(folder.path)/phones-1.json"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: data)) == before)
    #expect(repl.failures == 6)
    // Another name of the same file is the same file.
    let link = folder.appendingPathComponent("link.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: data)
    repl.handle(":save! \(link)")
    #expect(repl.failures == 7)
    #expect(try Data(contentsOf: URL(fileURLWithPath: data)) == before)
    // A new file is written without asking; saving over it again needs `!`.
    let script = folder.appendingPathComponent("s.flt").path
    repl.handle(":save \(script)")
    #expect(repl.failures == 7 && FileManager.default.fileExists(atPath: script))
    repl.handle(":save \(script)")
    #expect(repl.failures == 8)
    repl.handle(":save! \(script)")
    #expect(repl.failures == 8)
  }

  @Test func onceSendsOneEntrysResults() throws {
    let (repl, errors) = repl()
    let folder = try TemporaryFiles.makeFolder("once")
    let file = folder.appendingPathComponent("cheap.csv").path
    repl.handle("load \"phones.json\"\nset format csv")
    repl.handle(":once \(file)")
    repl.handle("price < 500 order by price limit 2\n")
    repl.handle("count")
    let written = try String(contentsOfFile: file, encoding: .utf8)
    #expect(written.split(separator: "\n").count == 3)
    #expect(harness.output.text.hasSuffix("the next entry's results go to \(file)\n111\n"))
    // Nowhere to write, or no file named: an error, and results stay here.
    repl.handle(":once")
    repl.handle(":output \(folder.path)/missing/x.txt")
    #expect(errors().contains("error[FLT508]: :once needs a file name"))
    #expect(errors().contains("error[FLT507]: cannot write"))
    repl.handle("count price < 500")
    #expect(harness.output.text.hasSuffix("\n12\n"))
  }

  @Test func reloadReadsTheCurrentFileAgainWithItsOptions() throws {
    let (repl, errors) = repl()
    let folder = try TemporaryFiles.makeFolder("reload")
    let file = folder.appendingPathComponent("scores.csv").path
    try "name,score\nann,NA\nbob,3\n".write(toFile: file, atomically: true, encoding: .utf8)
    repl.handle("load \"\(file)\" as s null \"NA\"")
    repl.handle(":reload")
    #expect(errors().isEmpty)
    try "name,score\nann,NA\nbob,3\ncy,4\n".write(toFile: file, atomically: true, encoding: .utf8)
    repl.handle(":reload")
    repl.handle("count score is null")
    repl.handle("count")
    #expect(harness.output.text.hasSuffix("1\n3\n"))
    #expect(harness.session.current?.name == "s")
    #expect(harness.session.datasets.count == 1)
    #expect(errors().isEmpty)
    // :clear clears a terminal's screen, and writes nothing elsewhere.
    let before = harness.output.text
    repl.handle(":clear")
    #expect(harness.output.text == before)
    harness.session.verbose = true
    repl.handle(":clear")
    #expect(harness.output.text == before + "\u{1B}[H\u{1B}[2J")
  }

  @Test func reloadWithNoDataSaysSo() {
    let (repl, errors) = repl()
    repl.handle(":reload")
    #expect(errors().contains("no data loaded"))
  }
}
