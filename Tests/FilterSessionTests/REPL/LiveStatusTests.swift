import FilterDSL
import FilterData
import Foundation
import TestSupport
import Testing

@testable import FilterSession

/// Live results: what the REPL shows under a line after each key, and that showing it
/// changes nothing.
@Suite struct LiveStatusTests {
  let harness = SessionHarness()

  func preview(_ text: String, until stop: @escaping () -> Bool = { false }) -> LivePreview? {
    harness.session.preview(SourceText(text, name: "<repl>"), until: stop)
  }

  @Test func aFilterShowsHowManyRecordsItMatches() throws {
    harness.run("load \"phones.json\"")
    let counted = try harness.run("count color == Starlight and price > 1000").get()
    #expect(preview("color == Starlight and price > 1000") == .matches(2, of: 111))
    #expect(counted == "2\n")
    // `count`, `explain` and `facets ... where` show their filter's matches; ordering and
    // paging do not change which records match.
    #expect(preview("count diskSpace >= 512") == preview("diskSpace >= 512"))
    #expect(preview("diskSpace >= 512 order by price limit 2") == preview("diskSpace >= 512"))
    #expect(preview("explain diskSpace >= 512") == preview("diskSpace >= 512"))
    #expect(preview("facets color where diskSpace >= 512") == preview("diskSpace >= 512"))
    #expect(preview("count") == .matches(111, of: 111))
    // Named filters and parameters are expanded as the statement would expand them.
    harness.run("let big = diskSpace >= 512\nlet budget = 1000")
    #expect(preview("big and price <= $budget") == preview("diskSpace >= 512 and price <= 1000"))
  }

  @Test func theFirstErrorIsShownWithItsPlace() throws {
    harness.run("load \"phones.json\"")
    guard case .problem(let unknown) = preview("color == Gold and colr == 1") else {
      Issue.record("an unknown field is an error")
      return
    }
    #expect(unknown.code == .unknownField && unknown.range == SourceRange(start: 18, end: 22))
    #expect(unknown.help == "did you mean 'color'?")
    guard case .problem(let syntax) = preview("price > ") else {
      Issue.record("a missing value is an error")
      return
    }
    #expect(syntax.isError && syntax.range.start >= 6 && syntax.range.start <= 8)
    guard case .problem(let facet) = preview("facets colr") else {
      Issue.record("an unknown facet field is an error")
      return
    }
    #expect(facet.code == .unknownField)
    guard case .problem(let order) = preview("price > 1 order by prize") else {
      Issue.record("an unknown sort key is an error")
      return
    }
    #expect(order.code == .unknownField)
  }

  @Test func otherStatementsAreOnlyParsedAndNothingChanges() throws {
    harness.run("load \"phones.json\"")
    let transcript = harness.session.transcript.count
    #expect(preview("load \"nosuch.json\"") == .nothing)
    #expect(preview("let x = 5") == .nothing)
    #expect(preview("set format json") == .nothing)
    #expect(preview("use other") == .nothing)
    #expect(preview("count") != nil)
    // A query with warnings (a value the data never has) prints none of them while typed.
    #expect(preview("color == Starlite") == .matches(0, of: 111))
    #expect(harness.warnings.isEmpty)
    #expect(harness.session.transcript.count == transcript)
    #expect(harness.session.settings.format == .table)
    #expect(harness.session.definitions.isEmpty)
    #expect(harness.output.text.hasPrefix("") && !harness.output.text.contains("Starl"))
  }

  @Test func withoutDataOrOnEmptyDataNothingIsChecked() throws {
    #expect(preview("price > 5") == .nothing)
    let empty = try TemporaryFiles.write("", "empty.jsonl")
    harness.run("load \"\(empty.path)\" as empty")
    let schema = harness.session.current?.schema
    #expect(preview("pri") == .matches(0, of: 0))
    // Previewing a half-typed name does not add it to the empty data's fields.
    #expect(harness.session.current?.schema == schema)
  }

  @Test func aPreviewStopsWhenKeysCome() throws {
    harness.run("load \"phones.json\"")
    var asked = 0
    #expect(
      preview("price > 100") {
        asked += 1
        return true
      } == nil)
    #expect(asked >= 1)
  }

  @Test func theStatusLineSaysItInWords() throws {
    var status = LiveStatus()
    var runs = 0
    func update(_ entry: String, _ line: String, _ result: LivePreview?) -> Bool {
      status.update(entry: entry, line: line) { _ in
        runs += 1
        return result
      }
    }
    #expect(update("", "price > 1", .matches(1, of: 111)))
    #expect(status.text == "1 of 111 records matches" && !status.isError)
    // The same entry is not previewed again.
    #expect(!update("", "price > 1", .matches(5, of: 111)) && runs == 1)
    #expect(status.isCurrent(entry: "", line: "price > 1"))
    #expect(update("", "price > 10", .matches(5, of: 111)))
    #expect(status.text == "5 of 111 records match")
    // An error: its place in the line being edited is underlined; one on an earlier line of
    // the entry is only named.
    var diagnostic = Diagnostic(
      .unknownField, at: SourceRange(start: 14, end: 18), message: "unknown field 'colr'",
      help: "did you mean 'color'?")
    #expect(update("price > 1 and", "colr == 1", .problem(diagnostic)))
    #expect(status.errorRange == 0..<4 && status.isError)
    #expect(status.text == "error[FLT301]: unknown field 'colr'; did you mean 'color'?")
    #expect(status.line(columns: 20, colored: false) == "error[FLT301]: unkn…")
    #expect(status.line(columns: 80, colored: true)?.hasPrefix("\u{1B}[31m") == true)
    diagnostic.range = SourceRange(start: 0, end: 4)
    #expect(update("colr == 1 and", "price > 1", .problem(diagnostic)))
    #expect(status.errorRange == nil)
    // Stopped: the status stays as it was, and the entry will be previewed again.
    #expect(!update("", "price > 2", nil))
    #expect(!status.isCurrent(entry: "", line: "price > 2"))
    #expect(update("", "", .nothing) && status.text == nil)
  }

  @Test func setLiveOffTurnsItOff() throws {
    let (repl, errors) = harness.repl()
    repl.handle("load \"phones.json\"")
    #expect(repl.preview("price > 1000", until: { false }) != .nothing)
    #expect(repl.preview(":schema", until: { false }) == .nothing)
    repl.handle("set live off")
    #expect(harness.session.settings.live == false)
    #expect(repl.preview("price > 1000", until: { false }) == .nothing)
    #expect(harness.session.settings.listing.contains("live    off"))
    repl.handle("set live maybe")
    #expect(errors().contains("live takes on or off"))
  }
}
