import Foundation
import Testing

/// `flt --facets color,diskSpace FILTER FILE...`: each field's values and their counts, a row
/// each, disjunctive (a field's own condition does not narrow its counts), the same from JSON,
/// CSV and gzip (counted block by block).
@Suite struct FacetsCommandTests {
  func flt(_ arguments: [String]) throws -> CLITests.Run { try CLITests.flt(arguments) }

  /// Rows `field,value,count` of one field, as a dictionary.
  func counts(_ csv: String, _ field: String) -> [String: Int] {
    var counts: [String: Int] = [:]
    for line in csv.split(separator: "\n").dropFirst() {
      let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      if cells.count == 3, cells[0] == field { counts[cells[1]] = Int(cells[2]) }
    }
    return counts
  }

  /// Rows `key,count()` of `--stats 'count() by key'`, as a dictionary.
  func grouped(_ key: String, _ filter: String) throws -> [String: Int] {
    let run = try flt(["-f", "csv", "--stats", "count() by \(key)", filter, "examples/phones.json"])
    var counts: [String: Int] = [:]
    for line in run.stdout.split(separator: "\n").dropFirst() {
      let cells = line.split(separator: ",").map(String.init)
      counts[cells[0]] = Int(cells[1])
    }
    return counts
  }

  @Test func countsAreDisjunctiveAndTheSameFromEveryInput() throws {
    let filter = "color in (Gold, Midnight) and diskSpace >= 256 and price < 1500"
    let run = try flt(["-f", "csv", "--facets", "color,diskSpace", filter, "examples/phones.json"])
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("field,value,count\n"))
    // Colours among the records the rest of the filter keeps, and sizes among the colours.
    let colors = counts(run.stdout, "color")
    #expect(colors == (try grouped("color", "diskSpace >= 256 and price < 1500")))
    #expect(colors.count > 2)
    #expect(
      counts(run.stdout, "diskSpace")
        == (try grouped("diskSpace", "color in (Gold, Midnight) and price < 1500")))
    // Most frequent first.
    let colorCounts = run.stdout.split(separator: "\n").filter { $0.hasPrefix("color,") }
      .map { Int($0.split(separator: ",").last!)! }
    #expect(colorCounts == colorCounts.sorted(by: >))
    for other in ["examples/phones.csv", "examples/phones.json.gz"] {
      let again = try flt(["-f", "csv", "--facets", "color,diskSpace", filter, other])
      #expect(again.stdout == run.stdout, "\(other): \(again.stderr)")
    }
  }

  @Test func aListCountsEachElementOncePerRecordAndTheFilterMayBeLeftOut() throws {
    let data = try CLITests.temporaryFile(
      Array("{\"t\": [\"a\", \"a\", \"b\"]}\n{\"t\": [\"b\"]}\n{\"t\": null}\n".utf8),
      name: "facet-tags.jsonl")
    let run = try flt(["-f", "csv", "--facets", "t", data.path])
    #expect(run.stdout == "field,value,count\nt,b,2\nt,a,1\nt,,1\n", "\(run.stderr)")
  }

  @Test func mistakesAreSaidWhereTheyAre() throws {
    let computed = try flt(["--facets", "color,price * 2", "true", "examples/phones.json"])
    #expect(computed.status == 2 && computed.stderr.contains("--> --facets:1:7"))
    #expect(computed.stderr.contains("--facets counts the values of fields"))
    let unknown = try flt(["--facets", "colour", "true", "examples/phones.json"])
    #expect(unknown.status == 2 && unknown.stderr.contains("--> --facets:1:1"))
    #expect(unknown.stderr.contains("did you mean 'color'?"))
    let both = try flt(["--facets", "color", "--stats", "count()", "examples/phones.json"])
    #expect(both.status == 2 && both.stderr.contains("leave out one of --stats and --facets"))
    let sorted = try flt(["--facets", "color", "true limit 3", "examples/phones.json"])
    #expect(sorted.status == 2 && sorted.stderr.contains("leave out order by, limit and offset"))
  }
}
