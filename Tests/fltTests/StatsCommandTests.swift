import FilterDatabase
import Foundation
import Testing

/// `flt --stats 'count(), mean(price) by color' FILTER FILE...`: a row per group, the same
/// from JSON, CSV, gzip, Parquet and a database, and equal to what the matches themselves add
/// up to.
@Suite struct StatsCommandTests {
  func flt(_ arguments: [String]) throws -> CLITests.Run { try CLITests.flt(arguments) }

  static let stats = "count(), sum(price), min(price), max(price), mean(screenSize) by color"

  @Test func everyInputGivesTheRowsTheMatchesAddUpTo() throws {
    let json = try flt([
      "-f", "csv", "--stats", Self.stats, "diskSpace >= 256", "examples/phones.json",
    ])
    #expect(json.status == 0 && json.stderr.isEmpty, "\(json.stderr)")
    // The matches themselves, added up here.
    let matches = try flt([
      "-f", "jsonl", "-s", "color,price,screenSize", "diskSpace >= 256", "examples/phones.json",
    ])
    var groups: [String: (count: Int, sum: Int, min: Int, max: Int, screens: Double)] = [:]
    for line in matches.stdout.split(separator: "\n") {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let color = try #require(object["color"] as? String)
      let price = try #require(object["price"] as? Int)
      let screen = try #require(object["screenSize"] as? Double)
      var group = groups[color] ?? (0, 0, Int.max, Int.min, 0)
      group = (
        group.count + 1, group.sum + price, min(group.min, price), max(group.max, price),
        group.screens + screen
      )
      groups[color] = group
    }
    let rows = json.stdout.split(separator: "\n").map(String.init)
    #expect(rows.first == "color,count(),sum(price),min(price),max(price),mean(screenSize)")
    #expect(rows.count == groups.count + 1 && groups.count > 5)
    for (color, group) in groups {
      let row = try #require(rows.first { $0.hasPrefix("\(color),") }, "no row for \(color)")
      let cells = row.split(separator: ",").map(String.init)
      #expect(
        cells[1...4] == ["\(group.count)", "\(group.sum)", "\(group.min)", "\(group.max)"],
        "\(row)")
      #expect(abs(Double(cells[5])! - group.screens / Double(group.count)) < 1e-9, "\(row)")
    }
    // The colours in order.
    let colors = rows.dropFirst().map { String($0.split(separator: ",")[0]) }
    #expect(colors == colors.sorted())
    for other in ["examples/phones.csv", "examples/phones.json.gz"] {
      let run = try flt(["-f", "csv", "--stats", Self.stats, "diskSpace >= 256", other])
      #expect(run.stdout == json.stdout && run.status == 0, "\(other): \(run.stderr)")
    }
    let parquet = try CLITests.temporaryFile([], name: "phones-stats.parquet")
    let written = try flt(["-f", "parquet", "-o", parquet.path, "true", "examples/phones.json"])
    #expect(written.status == 0, "\(written.stderr)")
    let fromParquet = try flt([
      "-f", "csv", "--stats", Self.stats, "diskSpace >= 256", parquet.path,
    ])
    #expect(fromParquet.stdout == json.stdout, "\(fromParquet.stderr)")
  }

  @Test func aDatabaseTableGivesTheSameRows() throws {
    let script = try flt(
      [
        "--format", "sql", "--dialect", "sqlite", "--table", "phones", "true",
        "examples/phones.json",
      ])
    let path = try CLITests.temporaryFile([], name: "stats-shop.db").path
    try FileManager.default.removeItem(atPath: path)
    try SQLiteDatabase(path: path, writable: true).executeScript(script.stdout)
    let fromFile = try flt([
      "-f", "csv", "--stats", Self.stats, "diskSpace >= 256", "examples/phones.json",
    ])
    let fromTable = try flt(
      ["-f", "csv", "--table", "phones", "--stats", Self.stats, "diskSpace >= 256", path])
    #expect(fromTable.status == 0 && fromTable.stdout == fromFile.stdout, "\(fromTable.stderr)")
  }

  @Test func theFilterMayBeLeftOutOrWrittenAfterWhere() throws {
    let all = try flt(["-f", "csv", "--stats", "count()", "examples/phones.json"])
    #expect(all.stdout == "count()\n111\n" && all.status == 0, "\(all.stderr)")
    let whereClause = try flt(
      ["-f", "csv", "--stats", "count() where price < 500", "examples/phones.json"])
    let filter = try flt(["-f", "csv", "--stats", "count()", "price < 500", "examples/phones.json"])
    #expect(whereClause.stdout == filter.stdout && filter.stdout != all.stdout)
    let both = try flt(
      ["--stats", "count() where price < 500", "price > 3", "examples/phones.json"])
    #expect(both.status == 2 && both.stdout.isEmpty)
    #expect(both.stderr.contains("give the filter once"))
  }

  @Test func mistakesAreSaidWhereTheyAre() throws {
    let wrong = try flt(["--stats", "mean(model) by color", "examples/phones.json"])
    #expect(wrong.status == 2 && wrong.stdout.isEmpty)
    #expect(wrong.stderr.contains("--> --stats:1:6"))
    #expect(
      wrong.stderr.contains(
        "mean takes numbers, durations or true/false values, not 'model' (text)"))
    for other in [["-c"], ["-s", "model"], ["-f", "sql", "--dialect", "sqlite"], ["-q"]] {
      let run = try flt(other + ["--stats", "count()", "true", "examples/phones.json"])
      #expect(run.status == 2 && run.stderr.contains("--stats prints rows of its own"), "\(other)")
    }
    let sorted = try flt(["--stats", "count()", "true order by price", "examples/phones.json"])
    #expect(sorted.status == 2 && sorted.stderr.contains("leave out order by"))
  }

  /// `order by` a column and `limit` cut the rows, as in a session.
  @Test func rowsAreOrderedAndCut() throws {
    let run = try flt([
      "-f", "csv", "--stats", "count() as n by color order by n desc, color limit 3",
      "examples/phones.json",
    ])
    #expect(run.stdout == "color,n\nMidnight,13\nStarlight,13\nDeep Purple,8\n", "\(run.stderr)")
  }

  /// A field the first 10,000 records lack is looked for in the rest, as a filter's field is.
  @Test func aFieldThatComesLateIsFound() throws {
    let lines = (0..<10_050).map { $0 < 10_020 ? "{\"a\": 1}" : "{\"a\": 1, \"late\": 2}" }
    let data = try CLITests.temporaryFile(
      Array((lines.joined(separator: "\n") + "\n").utf8), name: "late.jsonl")
    let run = try flt(["-f", "csv", "--stats", "count(), sum(late), count(late)", data.path])
    #expect(run.stdout == "count(),sum(late),count(late)\n10050,60,30\n", "\(run.stderr)")
  }

  @Test func faultsAreCountedAndSumsPast64BitsSaid() throws {
    let data = try CLITests.temporaryFile(
      Array(
        "{\"a\": 9223372036854775807, \"b\": 0}\n{\"a\": 9223372036854775807, \"b\": 2}\n".utf8),
      name: "big.jsonl")
    let run = try flt(["-f", "jsonl", "--stats", "sum(a), sum(10 / b)", data.path])
    #expect(run.stdout == "{\"sum(a)\":1.8446744073709552e+19,\"sum(10 / b)\":5.0}\n")
    #expect(run.stderr.contains("note: sum(a) is beyond 64-bit integers"))
    #expect(run.stderr.contains("1 division by zero"))
  }
}
