import FilterDSL
import FilterData
import TestSupport
import Testing

@testable import FilterSession

/// `stats` in a session: its rows printed in the session's format, its names expanded, its
/// mistakes placed in the statement, and the live preview's count of its filter.
@Suite struct StatsStatementTests {
  static let records = """
    {"team": "red", "points": 3, "time": "2h"}
    {"team": "blue", "points": 5}
    {"team": "red", "points": 4, "time": "30m"}
    {"team": "blue", "points": null}
    {"team": null, "points": 1}
    """

  func harness() throws -> SessionHarness {
    let path = try TemporaryFiles.write(
      Self.records, "stats-\(UInt64.random(in: 0...UInt64.max)).jsonl")
    let harness = SessionHarness()
    _ = try harness.run("load \"\(path.path)\" as games").get()
    return harness
  }

  @Test func rowsPrintInTheSessionsFormat() throws {
    let harness = try harness()
    let printed = try harness.run(
      """
      let scored = points > 2
      let $least = 1
      set format csv
      stats count(), sum(points) as total, mean(points), max(points) by team where scored or points >= $least
      """
    ).get()
    #expect(
      printed == """
        team,count(),total,mean(points),max(points)
        blue,1,5,5.0,5
        red,2,7,3.5,4
        ,1,1,1.0,1

        """)
  }

  @Test func aSummaryOfEveryRecordIsOneRow() throws {
    let harness = try harness()
    let printed = try harness.run("set format jsonl\nstats points, distinct(team)").get()
    #expect(
      printed
        == #"{"count(points)":4,"min(points)":1,"max(points)":5,"sum(points)":13,"mean(points)":3.25,"distinct(team)":2}"#
        + "\n")
  }

  @Test func mistakesPointIntoTheStatement() throws {
    let harness = try harness()
    let failure = try #require(harness.failure("stats mean(team) by team"))
    #expect(failure.codes == [.invalidOperand])
    #expect(failure.rendered.contains("stats mean(team) by team\n  |            ^^^^"))
    let unknown = try #require(harness.failure("stats count() by teem"))
    #expect(unknown.rendered.contains("did you mean 'team'?"))
  }

  @Test func thePreviewCountsTheFilterAndChecksTheRest() throws {
    let harness = try harness()
    let preview = harness.session.preview(
      SourceText("stats sum(points) where points > 2"), until: { false })
    guard case .matches(let count, of: let total)? = preview else {
      Issue.record("preview: \(String(describing: preview))")
      return
    }
    #expect(count == 3 && total == 5)
    guard
      case .problem(let problem)? = harness.session.preview(
        SourceText("stats sum(team)"), until: { false })
    else {
      Issue.record("no problem shown")
      return
    }
    #expect(problem.code == .invalidOperand)
  }
}
