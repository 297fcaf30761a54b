import Foundation
import Testing

/// `flt -H`: each record with the file it came from, as `grep -H` shows it, and counts per
/// file with `-c`.
@Suite struct WithFileNameTests {
  typealias Run = CLITests.Run

  func flt(_ arguments: [String], stdin: String? = nil) throws -> Run {
    try CLITests.flt(arguments, stdin: stdin)
  }

  /// Two small files of the same fields: `a` has two matches, `b` one.
  func files() throws -> (a: String, b: String) {
    let a = try CLITests.temporaryFile(
      Array("{\"n\": 1}\n{\"n\": 2}\n{\"n\": 3}\n".utf8), name: "a.jsonl"
    ).path
    let b = try CLITests.temporaryFile(Array("n\n5\n1\n".utf8), name: "b.csv").path
    return (a, b)
  }

  @Test func jsonLinesStartWithTheirFile() throws {
    let (a, b) = try files()
    let run = try flt(["-H", "-f", "jsonl", "n != 2", a, b])
    #expect(run.status == 0)
    #expect(run.stdout == "\(a):{\"n\":1}\n\(a):{\"n\":3}\n\(b):{\"n\":5}\n\(b):{\"n\":1}\n")
    // Sorted across files, each record keeps its own file.
    let sorted = try flt(["--with-filename", "-f", "jsonl", "n != 2 order by n desc", a, b])
    #expect(
      sorted.stdout == "\(b):{\"n\":5}\n\(a):{\"n\":3}\n\(a):{\"n\":1}\n\(b):{\"n\":1}\n")
    // A limit (and the sort with it) is per file, as grep's -m is, in every mode.
    let limited = try flt(["-H", "-f", "jsonl", "true order by n desc limit 1", a, b])
    #expect(limited.stdout == "\(a):{\"n\":3}\n\(b):{\"n\":5}\n")
    let first = try flt(["-H", "-f", "csv", "n > 0 limit 1 offset 1", a, b])
    #expect(first.stdout == "file,n\n\(a),2\n\(b),1\n")
    #expect(try flt(["-f", "jsonl", "true limit 1", a, b]).stdout == "{\"n\":1}\n")
    // Standard input is named as in messages.
    let piped = try flt(["-H", "-f", "jsonl", "n > 1"], stdin: "{\"n\": 2}\n")
    #expect(piped.stdout == "<stdin>:{\"n\":2}\n")
  }

  @Test func tablesAndCSVHaveAFileColumn() throws {
    let (a, b) = try files()
    let csv = try flt(["-H", "-f", "csv", "n >= 3", a, b])
    #expect(csv.stdout == "file,n\n\(a),3\n\(b),5\n")
    let records = try flt(["-H", "-f", "records", "n == 5", a, b])
    #expect(records.stdout.contains("file  \(b)\nn     5\n"))
  }

  @Test func countsArePerFileWithLimitsPerFile() throws {
    let (a, b) = try files()
    let counts = try flt(["-H", "-c", "n != 2", a, b])
    #expect(counts.status == 0 && counts.stdout == "\(a):2\n\(b):2\n")
    // A limit counts in each file, as grep's -m does; sorting does not tie the files.
    let limited = try flt(["-H", "-c", "true order by n limit 1", a, b])
    #expect(limited.stdout == "\(a):1\n\(b):1\n")
    // -e: exit 1 only when no file had a match.
    let none = try flt(["-H", "-c", "-e", "n > 100", a, b])
    #expect(none.status == 1 && none.stdout == "\(a):0\n\(b):0\n")
    // Without -H, one total.
    #expect(try flt(["-c", "n != 2", a, b]).stdout == "4\n")
  }

  @Test func aJSONArrayOrSQLScriptHasNoPlaceForIt() throws {
    let (a, _) = try files()
    let json = try flt(["-H", "-f", "json", "true", a])
    #expect(json.status == 2 && json.stderr.contains("use --format jsonl"))
    let sql = try flt(["-H", "-f", "sql", "--dialect", "sqlite", "true", a])
    #expect(sql.status == 2 && sql.stderr.contains("a SQL script has no place"))
  }
}
