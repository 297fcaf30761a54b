import FilterDSL
import FilterData
import Foundation
import TestSupport
import Testing

@testable import FilterSession

/// Results taller than the screen go through a pager (`set pager on`, an interactive REPL).
@Suite struct PagerTests {
  let harness = SessionHarness()

  @Test func thePagerIsPAGERElseLess() {
    #expect(Pager.command(environment: ["PAGER": "more -d"]) == "more -d")
    #expect(Pager.command(environment: ["PAGER": " "]) == nil)
    let folder = try? TemporaryFiles.makeFolder("bin")
    let less = folder?.appendingPathComponent("less").path ?? ""
    _ = FileManager.default.createFile(
      atPath: less, contents: Data(), attributes: [.posixPermissions: 0o755])
    #expect(
      Pager.command(environment: ["PATH": "/nonexistent:\(folder?.path ?? "")"]) == "less -FRSX")
    #expect(Pager.command(environment: ["PATH": "/nonexistent"]) == nil)
  }

  @Test func rowsCountWrappedLinesAndNotColours() {
    #expect(Pager.rows(of: "a\nb\n", columns: 80) == 2)
    #expect(Pager.rows(of: "\n\n", columns: 80) == 2)
    #expect(Pager.rows(of: String(repeating: "x", count: 81) + "\n", columns: 80) == 2)
    #expect(Pager.rows(of: String(repeating: "日", count: 40) + "\n", columns: 80) == 1)
    let styled = "\u{1B}[1m" + String(repeating: "x", count: 80) + "\u{1B}[0m\n"
    #expect(Pager.rows(of: styled, columns: 80) == 1)
  }

  @Test func showWritesTheTextToThePagersInput() throws {
    let file = TemporaryFiles.url("paged.txt")
    #expect(Pager.show("one\ntwo\n", command: "cat > '\(file.path)'"))
    #expect(try String(contentsOf: file, encoding: .utf8) == "one\ntwo\n")
    // A pager that quits without reading: the rest is dropped, the REPL lives on.
    #expect(Pager.show(String(repeating: "line\n", count: 200_000), command: "exit 0"))
  }

  /// A REPL paging for a screen of 10 rows, with the text it paged.
  func pagingRepl() -> (Repl, () -> [String], () -> String) {
    let (repl, errors) = harness.repl()
    final class Pages: @unchecked Sendable { var texts: [String] = [] }
    let pages = Pages()
    repl.screen = { (rows: 10, columns: 80) }
    repl.page = { text in
      pages.texts.append(text)
      return true
    }
    harness.session.settings.pager = true
    return (repl, { pages.texts }, errors)
  }

  @Test func tallResultsArePagedShortOnesPrinted() throws {
    let (repl, pages, errors) = pagingRepl()
    repl.handle("load \"phones.json\"")
    repl.handle("show model\nprice > 1000")
    #expect(pages().count == 1 && pages()[0].contains("iPhone 14 Pro Max"))
    #expect(!harness.output.text.contains("iPhone 14 Pro Max"))
    let before = harness.output.text.count
    repl.handle("count price > 1000")
    #expect(pages().count == 1)
    #expect(Int(harness.output.text.dropFirst(before).trimmingCharacters(in: .newlines)) != nil)
    // A printing command too.
    repl.handle(":help")
    #expect(pages().count == 2 && pages()[1].contains(":reload"))
    // Off: printed.
    repl.handle("set pager off")
    repl.handle("price > 1000")
    #expect(pages().count == 2 && harness.output.text.contains("iPhone 14 Pro Max"))
    #expect(errors().isEmpty)
  }

  @Test func resultsBeforeAnErrorComeBeforeIt() throws {
    let (repl, pages, _) = pagingRepl()
    final class Order: @unchecked Sendable { var events: [String] = [] }
    let order = Order()
    let session = harness.session
    let logged = Repl(session: session) { order.events.append("error: \($0.prefix(20))") }
    logged.screen = repl.screen
    logged.page = { text in
      order.events.append("page")
      return repl.page(text)
    }
    logged.handle("load \"phones.json\"")
    logged.handle("show model\nprice > 1000\ncount colr")
    #expect(order.events.count == 2 && order.events[0] == "page")
    #expect(order.events[1].hasPrefix("error: error[FLT301]"))
    #expect(pages().count == 1)
  }

  @Test func outputToAFileIsNotPaged() throws {
    let (repl, pages, errors) = pagingRepl()
    let file = TemporaryFiles.url("results.txt")
    repl.handle("load \"phones.json\"")
    repl.handle(":output \(file.path)")
    repl.handle("price > 1000")
    repl.handle(":output")
    #expect(pages().isEmpty)
    #expect(try String(contentsOf: file, encoding: .utf8).contains("iPhone 14 Pro Max"))
    #expect(errors().isEmpty)
  }
}
