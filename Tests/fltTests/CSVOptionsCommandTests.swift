import Foundation
import Testing

/// The CSV options as a user gives them: `--delimiter`, `--no-header`, `--spaces`, and the
/// same as `load` options in a script.
@Suite struct CSVOptionsCommandTests {
  func flt(_ arguments: [String]) throws -> CLITests.Run { try CLITests.flt(arguments) }

  func file(_ text: String, _ name: String) throws -> String {
    try CLITests.temporaryFile(Array(text.utf8), name: name).path
  }

  @Test func spacesAfterTheDelimiterAreSkippedOrKeptAsAsked() throws {
    // The header has no spaces: by default the cells keep theirs.
    let path = try file("name,price\nA, 3\nB, 12\n", "spaced.csv")
    let kept = try flt(["-f", "jsonl", "true", path])
    #expect(
      kept.stdout == "{\"name\":\"A\",\"price\":\" 3\"}\n{\"name\":\"B\",\"price\":\" 12\"}\n")
    let skipped = try flt(["-f", "jsonl", "--spaces", "skip", "price > 5", path])
    #expect(skipped.status == 0 && skipped.stdout == "{\"name\":\"B\",\"price\":12}\n")
    // A header with a space after every comma says so itself; `keep` overrides it.
    let sniffed = try file("name, price\nA, 3\n", "sniffed.csv")
    #expect(
      try flt(["-f", "jsonl", "price == 3", sniffed]).stdout == "{\"name\":\"A\",\"price\":3}\n")
    let overridden = try flt(["-f", "csv", "--spaces", "keep", "true", sniffed])
    #expect(overridden.stdout == "name, price\nA, 3\n")
    let wrong = try flt(["--spaces", "trim", "true", sniffed])
    #expect(wrong.status == 2 && wrong.stderr.contains("--spaces trim: say skip"))
  }

  @Test func aDelimiterAndNoHeaderFromTheCommandLine() throws {
    let path = try file("1|x\n2|y\n", "rows.txt")
    let run = try flt([
      "-i", "csv", "--delimiter", "|", "--no-header", "-f", "csv", "column1 > 1", path,
    ])
    #expect(run.status == 0 && run.stdout == "column1,column2\n2,y\n")
    let wrong = try flt(["--delimiter", ";;", "true", path])
    #expect(wrong.status == 2 && wrong.stderr.contains("--delimiter ;;"))
  }

  @Test func theSameAsLoadOptions() throws {
    let data = try file("a; b\n1; x\n2; y\n", "semi.csv")
    let script = try file(
      "load \"\(data)\" as d delimiter \";\" spaces skip\ncount b == y\n", "semi.flt")
    let run = try flt(["run", script])
    #expect(run.status == 0 && run.stdout == "1\n", "\(run.stderr)")
    let bad = try file("load \"\(data)\" spaces trim\n", "bad.flt")
    let failed = try flt(["run", bad])
    #expect(failed.status == 2 && failed.stderr.contains("'spaces' takes skip or keep"))
  }
}

extension CSVOptionsCommandTests {
  /// pandas' `QUOTE_ALL` quotes every cell: a quoted cell is a value like any other (numbers
  /// sort as numbers, `min` is the least number), as DuckDB and pandas read it; `--type`
  /// still keeps text.
  @Test func quotedCellsAreValuesLikeAnyOther() throws {
    let path = try file(
      "\"total_bill\",\"tip\",\"smoker\"\n\"16.99\",\"9.0\",\"No\"\n\"10.07\",\"10.0\",\"Yes\"\n\"3.07\",\"1\",\"No\"\n",
      "tips.csv")
    #expect(
      try flt(["--schema", path]).stdout.hasPrefix("total_bill  double\ntip         double\n"))
    let sorted = try flt(["-f", "csv", "-s", "tip", "true order by tip desc", path])
    #expect(sorted.stdout == "tip\n10.0\n9.0\n1\n", "\(sorted.stderr)")
    let least = try flt(["-f", "csv", "--stats", "min(total_bill), max(tip)", path])
    #expect(least.stdout == "min(total_bill),max(tip)\n3.07,10.0\n", "\(least.stderr)")
    #expect(
      try flt(["-f", "jsonl", "tip > 9.5", path]).stdout
        == #"{"total_bill":10.07,"tip":10.0,"smoker":"Yes"}"# + "\n")
    let text = try flt(["-f", "jsonl", "-t", "tip=string", #"tip == "10.0""#, path])
    #expect(
      text.stdout == #"{"total_bill":10.07,"tip":"10.0","smoker":"Yes"}"# + "\n", "\(text.stderr)")
  }

  /// `\N` is null in TSV, as PostgreSQL's `COPY` and psql's `\copy` write it.
  @Test func backslashNIsNullInTSV() throws {
    let path = try file("player\tsb\nA\t\\N\nB\t5\nC\t\\N\n", "batting.tsv")
    #expect(try flt(["-c", "sb is null", path]).stdout == "2\n")
    #expect(try flt(["--schema", path]).stdout.contains("\nsb      int?\n"))
    #expect(try flt(["-f", "jsonl", "sb > 1", path]).stdout == #"{"player":"B","sb":5}"# + "\n")
    // In CSV, `\N` is text.
    let csv = try file("player,sb\nA,\\N\n", "batting.csv")
    #expect(try flt(["-c", #"sb == "\\N""#, csv]).stdout == "1\n")
  }
}

extension CSVOptionsCommandTests {
  /// A header is a column's name: only dotted names of plain names (`camera.mp`, as flt writes
  /// nested records) nest. `Term (yyyy.mm.dd)` stays one column, in the schema, in JSON
  /// output, and by its backticked name in filters and selections.
  @Test func dottedHeadersOfOtherNamesStayWhole() throws {
    let path = try file("Country,Term (yyyy.mm.dd),camera.mp\nX,2020.01.02,12\n", "terms.csv")
    let schema = try flt(["--schema", path]).stdout
    #expect(
      schema.hasPrefix(
        "Country            string  (1 value: X)\nTerm (yyyy.mm.dd)  string  (1 value: 2020.01.02)\ncamera             record\n"
      ), "\(schema)")
    #expect(
      try flt(["-f", "jsonl", "true", path]).stdout
        == #"{"Country":"X","Term (yyyy.mm.dd)":"2020.01.02","camera":{"mp":12}}"# + "\n")
    let selected = try flt([
      "-f", "jsonl", "-s", "`Term (yyyy.mm.dd)`, camera.mp",
      #"`Term (yyyy.mm.dd)` == "2020.01.02""#, path,
    ])
    #expect(
      selected.stdout == #"{"Term (yyyy.mm.dd)":"2020.01.02","camera":{"mp":12}}"# + "\n",
      "\(selected.stderr)")
    let csv = try flt(["-f", "csv", "-s", "`Term (yyyy.mm.dd)`, camera.mp", "true", path])
    #expect(csv.stdout == "Term (yyyy.mm.dd),camera.mp\n2020.01.02,12\n")
  }

  /// Names that need backticks in a selection of computed columns: written with or without
  /// them (a name of the data as it is), the headers are the names, never the backticks.
  @Test func selectedNamesAreTheDatasNames() throws {
    let path = try file("Country Code,1960,2010\nX,1,5\n", "indicators.csv")
    for select in [
      "Country Code, `1960`, `2010` - `1960` as change",
      "`Country Code`, `1960`, `2010` - `1960` as change",
    ] {
      let run = try flt(["-f", "csv", "-s", select, "true", path])
      #expect(run.stdout == "Country Code,1960,change\nX,1,4\n", "\(select): \(run.stderr)")
    }
    let names = try flt(["-f", "csv", "-s", "`Country Code`, `2010`", "true", path])
    #expect(names.stdout == "Country Code,2010\nX,5\n", "\(names.stderr)")
  }
}

extension CSVOptionsCommandTests {
  /// pandas writes booleans `True` and `False`, spreadsheets `TRUE` and `FALSE`: true/false
  /// values, as DuckDB reads them, written as JSON spells them.
  @Test func booleansAsPandasAndSpreadsheetsWriteThem() throws {
    let path = try file("smoker,n\nTrue,1\nFalse,2\nTRUE,3\nFALSE,4\ntrue,5\n", "flags.csv")
    #expect(try flt(["--schema", path]).stdout.hasPrefix("smoker  bool\n"))
    #expect(try flt(["-c", "smoker", path]).stdout == "3\n")
    #expect(
      try flt(["-f", "jsonl", "not smoker and n < 3", path]).stdout
        == #"{"smoker":false,"n":2}"# + "\n")
  }
}

extension CSVOptionsCommandTests {
  /// `--type x=int` converts text as `int(x)` does, leading zeros too, in JSON as in CSV;
  /// without it, `004` stays text (a code).
  @Test func aFixedTypeReadsLeadingZeros() throws {
    let json = try file(#"{"numeric": "004"}"# + "\n" + #"{"numeric": "12"}"# + "\n", "codes.jsonl")
    let csv = try file("numeric\n004\n12\n-007\n", "codes.csv")
    for path in [json, csv] {
      let run = try flt(["-t", "numeric=int", "-c", "numeric == 4 or numeric == 12", path])
      #expect(run.stdout == "2\n" && run.stderr.isEmpty, "\(path): \(run.stderr)")
    }
    #expect(try flt(["-t", "numeric=int", "-c", "numeric == -7", csv]).stdout == "1\n")
    #expect(try flt(["--schema", csv]).stdout.hasPrefix("numeric  string"))
  }
}

extension CSVOptionsCommandTests {
  /// Comparing with a text the file reads as null (its null marker `NA`, a `--null` text)
  /// finds nothing: a warning says why and points to `is null` (issue 52.5), in a text field
  /// and, as the help of the type error, in a number field; in a script's session too.
  @Test func comparingWithTheFilesNullMarkerSaysSo() throws {
    var rows = "tailnum,dep,carrier\n"
    for i in 0..<60 {
      rows += (i % 7 == 0 ? "NA" : "N\(i)XX") + "," + (i % 5 == 0 ? "NA" : "\(i)") + ",C\(i)\n"
    }
    let path = try file(rows, "flights.csv")
    let text = try flt(["-c", "tailnum == NA", path])
    #expect(text.stdout == "0\n")
    #expect(
      text.stderr.hasPrefix(
        "warning[FLT312]: no value of tailnum is 'NA': 'NA' is read as null in this file\n"))
    #expect(
      text.stderr.contains("= help: to find the records without a value, write tailnum is null"))
    let notEqual = try flt(["-c", "tailnum != NA", path])
    #expect(notEqual.stderr.contains("write tailnum is not null"))
    let number = try flt(["-c", "dep == NA", path])
    #expect(number.status != 0)
    #expect(number.stderr.contains("= help: 'NA' is read as null in this file: write dep is null"))
    let named = try flt(["--null", "-", "-c", "carrier == \"-\"", path])
    #expect(named.stderr.contains("no value of carrier is '-': '-' is read as null in this file"))
    // A text that is not a null text says nothing of nulls.
    #expect(try flt(["-c", "tailnum == N1XX", path]).stderr.isEmpty)
    let script = try file("load \"\(path)\"\ncount tailnum == NA\n", "flights.flt")
    let run = try flt(["run", script])
    #expect(run.stdout == "0\n" && run.stderr.contains("'NA' is read as null in this file"))
  }

  /// The hint that a text column held numbers reaches the one-shot command's checker (it was
  /// lost on the way: the help said only to convert).
  @Test func aColumnOfNumbersAndAWordSaysWhichWord() throws {
    let path = try file("id,score\n1,5\n2,unknown\n3,7\n", "scores.csv")
    let run = try flt(["-c", "score > 5", path])
    #expect(run.stderr.contains("score holds numbers and \"unknown\", which made it text"))
  }
}
