import Foundation
import Testing

/// `flt FILTER FILE`: the one-shot command over data files, run as a built binary.
@Suite struct DataCommandTests {
  typealias Run = CLITests.Run

  func flt(_ arguments: [String], stdin: String? = nil) throws -> Run {
    try CLITests.flt(arguments, stdin: stdin)
  }

  /// A temporary data file with `text` (bytes as given), named so its extension says the format.
  func file(_ text: String, _ name: String) throws -> String {
    try CLITests.temporaryFile(Array(text.utf8), name: name).path
  }

  func file(bytes: [UInt8], _ name: String) throws -> String {
    try CLITests.temporaryFile(bytes, name: name).path
  }

  static let design = #"color in (Starlight, "Space Black") and diskSpace >= 256"#

  // MARK: The examples

  @Test func designFilterFindsTheSamePhonesInJSONAndCSV() throws {
    // jq '[.[] | select((.color == "Starlight" or .color == "Space Black") and .diskSpace >= 256)] | length'
    // finds 13 in examples/phones.json.
    for path in ["examples/phones.json", "examples/phones.csv"] {
      let count = try flt(["--count", Self.design, path])
      #expect(count.status == 0)
      #expect(count.stdout == "13\n", "\(path)")
      #expect(count.stderr.isEmpty)
    }
    let select = ["--select", "model,price,color,diskSpace,camera.megapixels", "--format", "csv"]
    let json = try flt(select + [Self.design, "examples/phones.json"])
    let csv = try flt(select + [Self.design, "examples/phones.csv"])
    #expect(json.stdout == csv.stdout)
    #expect(json.stdout.hasPrefix("model,price,color,diskSpace,camera.megapixels\n"))
    #expect(json.stdout.split(separator: "\n").count == 14)
  }

  @Test func briefsMultiSelectFindsOnePhone() throws {
    let query =
      #"diskSpace in (256, 512) and color in (Starlight, "Space Black") and price == 1299"#
    let run = try flt(["-s", "model,diskSpace,color", query, "examples/phones.json"])
    #expect(
      run.stdout == #"{"model":"iPhone 14 Pro","diskSpace":512,"color":"Space Black"}"# + "\n")
  }

  @Test func orderByAndLimit() throws {
    let run = try flt([
      "-s", "price", "-f", "csv", Self.design + " order by price desc limit 5",
      "examples/phones.json",
    ])
    #expect(run.status == 0)
    let prices = run.stdout.split(separator: "\n").dropFirst().compactMap { Int($0) }
    #expect(prices.count == 5)
    #expect(prices == prices.sorted(by: >))
    #expect(prices.first == 1599)
  }

  @Test func nestedFieldsAndLists() throws {
    let run = try flt([
      "--count", #"camera.megapixels >= 48 and tags contains "ProMotion""#,
      "examples/phones.json",
    ])
    let expected = try flt([
      "--count", "camera.megapixels >= 48 and processor == \"A16 Bionic\"", "examples/phones.json",
    ])
    #expect(run.status == 0)
    #expect(Int(run.stdout.dropLast()) ?? 0 > 0)
    #expect(run.stdout == expected.stdout)
  }

  // MARK: Formats

  @Test func outputFormats() throws {
    let data = try file(
      #"[{"name":"a, \"b\"","n":256,"x":6.10},{"name":"c","n":-1,"x":1e3}]"#, "f.json")
    let jsonl = try flt(["-f", "jsonl", "n > 0", data])
    #expect(jsonl.stdout == #"{"name":"a, \"b\"","n":256,"x":6.10}"# + "\n")
    let json = try flt(["-f", "json", "n > -5", data])
    #expect(
      json.stdout
        == "[\n" + #"{"name":"a, \"b\"","n":256,"x":6.10},"# + "\n"
        + #"{"name":"c","n":-1,"x":1e3}"# + "\n]\n")
    let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [Any]
    #expect(parsed?.count == 2)
    let empty = try flt(["-f", "json", "n > 1000", data])
    #expect(empty.stdout == "[]\n")
    let csv = try flt(["-f", "csv", "n > -5", data])
    #expect(csv.stdout == "name,n,x\n\"a, \"\"b\"\"\",256,6.10\nc,-1,1e3\n")
    let table = try flt(["-f", "table", "n > -5", data])
    #expect(
      table.stdout == """
        name      n     x
        ──────  ───  ────
        a, "b"  256  6.10
        c        -1   1e3
        2 rows

        """)
  }

  @Test func tableCutsLongCellsAndShowsControlCharacters() throws {
    let long = String(repeating: "界", count: 30)
    let data = try file(#"{"t":"\#(long)","u":"a\nb\u001b[31m"}"# + "\n", "t.jsonl")
    let run = try flt(["-f", "table", "true", data])
    let lines = run.stdout.split(separator: "\n")
    #expect(lines[2].hasPrefix(String(repeating: "界", count: 19) + "…"))
    #expect(lines[2].hasSuffix("a↵b\u{FFFD}[31m"))
    #expect(!run.stdout.contains("\u{1B}"))
  }

  @Test func valuesKeepTheirExactText() throws {
    let record =
      #"{"big":12345678901234567890,"huge":1e400,"small":6.10,"neg":-0.0,"s":"caf\u00e9 \"q\"","u":"ü","n":null,"l":[1, 2],"o":{"k" : true}}"#
    let data = try file(record + "\n", "exact.jsonl")
    let run = try flt(["big > 1e19 and huge > 1e300 and small == 6.1", data])
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
    #expect(
      run.stdout == record.replacingOccurrences(of: "[1, 2]", with: "[1,2]").replacingOccurrences(
        of: "\"k\" : true", with: "\"k\":true") + "\n")
  }

  // MARK: Hostile CSV

  @Test func csvWithQuotesNewlinesBOMAndCRLF() throws {
    let text =
      "\u{FEFF}name,note,n\r\n\"Smith, J\",\"said \"\"hi\"\"\r\nthen left\",1\r\nplain,,2\r\n"
    let data = try file(text, "hostile.csv")
    let run = try flt(["-f", "jsonl", "n >= 1", data])
    #expect(run.status == 0)
    #expect(
      run.stdout == #"{"name":"Smith, J","note":"said \"hi\"\r\nthen left","n":1}"# + "\n"
        + #"{"name":"plain","note":null,"n":2}"# + "\n")
    let null = try flt(["--count", "note is null", data])
    #expect(null.stdout == "1\n")
    let schema = try flt(["--schema", data])
    // (A small file read whole: its texts are its known values.)
    #expect(
      schema.stdout.hasPrefix(
        "name  string  (2 values: Smith, J, plain)\nnote  string?  (1 value: said \"hi\""),
      "\(schema.stdout)")
    #expect(schema.stdout.hasSuffix("then left)\nn     int\n"))
  }

  @Test func raggedRowIsAnErrorWithItsLine() throws {
    let data = try file("a,b\n1,2\n3,4,5\n", "ragged.csv")
    let run = try flt(["a > 0", data])
    #expect(run.status == 2)
    // The records before the error stream out first.
    #expect(run.stdout == "{\"a\":1,\"b\":2}\n")
    #expect(
      run.stderr == """
        error[FLT403]: this row has 3 fields where the header has 2
         --> \(data):3:1
          |
        3 | 3,4,5
          | ^ row starts here
          = help: every row needs one value per column; quote values that contain commas

        """)
  }

  @Test func unterminatedQuoteAndStrayQuote() throws {
    let open = try file("a,b\n1,\"never\nclosed\n", "open.csv")
    let run = try flt(["a > 0", open])
    #expect(run.status == 2)
    #expect(run.stderr.hasPrefix("error[FLT402]: quoted field is never closed\n --> \(open):2:3\n"))
    let stray = try file("a,b\n1,ab\"c\n", "stray.csv")
    let second = try flt(["a > 0", stray])
    #expect(second.status == 2)
    #expect(second.stderr.contains("a quote inside a field that does not start with one"))
    #expect(second.stderr.contains("\(stray):2:5"))
  }

  @Test func csvTypesAreInferredAndMixedColumnsAreText() throws {
    let data = try file("zip,n,d,f\n01234,1,2022-09-16,true\n98765,2.5,2022-10-01,false\n", "t.csv")
    let schema = try flt(["--schema", data])
    // (No known values: 98765 is a number among the texts.)
    #expect(schema.stdout == "zip  string\nn    double\nd    date\nf    bool\n")
    let run = try flt(["-f", "csv", #"zip == "01234" and n < 2 and d < 2022-10-01 and f"#, data])
    #expect(run.stdout == "zip,n,d,f\n01234,1,2022-09-16,true\n")
  }

  // MARK: Hostile JSON

  @Test func deepNestingIsAnErrorNotACrash() throws {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let data = try file(#"{"a":"# + deep + "}\n", "deep.jsonl")
    let run = try flt(["a is null", data])
    #expect(run.status == 2)
    #expect(run.stderr.hasPrefix("error[FLT405]: arrays and objects nest more than 256 deep"))
    let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    let ok = try file(#"{"a":"# + fine + #","b":1}"# + "\n", "ok.jsonl")
    #expect(try flt(["--count", "b == 1", ok]).stdout == "1\n")
  }

  /// Objects nested 255 deep are read through every path (a one-shot count, `--schema`, a JSON
  /// array, standard input, a script's session), and 257 deep are an error. Schema inference
  /// once computed each level's type three times: 1.87^depth, a record nested 30 deep never
  /// ended. (The time limit only ends a run that would otherwise hang until CI's.)
  @Test(.timeLimit(.minutes(2))) func deeplyNestedObjectsAreReadInLinearTime() throws {
    func nested(_ depth: Int) -> String {
      String(repeating: #"{"a":"#, count: depth - 1) + #"{"a":1,"b":"x"}"#
        + String(repeating: "}", count: depth - 1)
    }
    let path = String(repeating: "a.", count: 254) + "b"
    let lines = try file(nested(255) + "\n" + nested(255) + "\n", "deep255.jsonl")
    #expect(try flt(["-c", "true", lines]).stdout == "2\n")
    #expect(try flt(["-c", "\(path) == x", lines]).stdout == "2\n")
    let schema = try flt(["--schema", lines])
    #expect(schema.status == 0)
    #expect(schema.stdout.split(separator: "\n").count == 256)
    let array = try file("[" + nested(255) + "," + nested(255) + "]", "deep255.json")
    #expect(try flt(["-c", "\(path) == x", array]).stdout == "2\n")
    let input = try flt(["-c", "\(path) == x", "-"], stdin: nested(255) + "\n")
    #expect(input.stdout == "1\n")
    let script = try file("load \"\(lines)\"\ncount \(path) == x\n", "deep.flt")
    let run = try flt(["run", script])
    #expect(run.stdout == "2\n", "\(run.stderr)")
    let deeper = try file(nested(257) + "\n", "deep257.jsonl")
    for arguments in [["-c", "true", deeper], ["true", deeper]] {
      let refused = try flt(arguments)
      #expect(refused.status == 2)
      #expect(refused.stderr.hasPrefix("error[FLT405]: arrays and objects nest more than 256 deep"))
    }
  }

  @Test func invalidUTF8IsAnError() throws {
    let data = try file(
      bytes: Array(#"{"a":"x"#.utf8) + [0xFF, 0xFE] + Array("\"}\n".utf8), "bad.jsonl")
    let run = try flt(["a is null", data])
    #expect(run.status == 2)
    #expect(run.stderr.hasPrefix("error[FLT404]: invalid UTF-8 in a string\n --> \(data):1:8\n"))
    let csv = try file(bytes: Array("a\nx".utf8) + [0xC3, 0x28] + [0x0A], "bad.csv")
    let second = try flt(["a is null", csv])
    #expect(second.status == 2)
    #expect(second.stderr.contains("invalid UTF-8"))
  }

  @Test func duplicateKeysKeepTheLastValue() throws {
    let data = try file(#"{"a":1,"a":5}"# + "\n", "dup.jsonl")
    #expect(try flt(["--count", "a == 5", data]).stdout == "1\n")
    #expect(try flt(["--count", "a == 1", data]).stdout == "0\n")
    // Output keeps the record as it was.
    #expect(try flt(["a == 5", data]).stdout == #"{"a":1,"a":5}"# + "\n")
  }

  @Test func malformedJSONNamesLineAndColumn() throws {
    // The text, the file's name, where and what the error is, and whether the record before
    // it (`{"a":1}`, which matches) is printed first: records stream up to the error.
    let cases: [(String, String, String, Bool)] = [
      ("[{\"a\":1},\n {\"a\":2,}\n]", "f.json", "2:9: expected a key in quotes", true),
      ("{\"a\":1}\n{\"a\":01}\n", "f.jsonl", "2:6: numbers do not start with 0", true),
      ("{\"a\":1}\n{\"a\":tru}\n", "f.jsonl", "2:6: expected a value", true),
      ("[{\"a\":1}", "f.json", "the JSON array is never closed", true),
      ("{\"a\":\"open\n", "f.jsonl", "string is not closed on its line", false),
      ("[1, 2]", "f.json", "records must be JSON objects", false),
      ("{\"a\":1} x\n", "f.jsonl", "expected the end of the line after the record", false),
    ]
    for (text, name, expected, printed) in cases {
      let data = try file(text, name)
      let run = try flt(["-f", "jsonl", "a == 1", data])
      #expect(run.status == 2, "\(text)")
      #expect(run.stdout == (printed ? "{\"a\":1}\n" : ""), "\(text)")
      let parts = expected.split(separator: ": ", maxSplits: 1)
      if parts.count == 2, parts[0].contains(":") {
        #expect(run.stderr.contains("\(data):\(parts[0])"), "\(text): \(run.stderr)")
        #expect(run.stderr.contains(String(parts[1])), "\(text): \(run.stderr)")
      } else {
        #expect(run.stderr.contains(expected), "\(text): \(run.stderr)")
      }
    }
  }

  /// `count` records `{"n":i}` and then `last`, as JSON Lines.
  func lateFile(_ count: Int, then last: String) throws -> String {
    var text = ""
    for i in 0..<count { text += #"{"n":\#(i)}"# + "\n" }
    return try file(text + last + "\n", "late.jsonl")
  }

  @Test func aDecimalAfterTheSampleIsReadNotDropped() throws {
    let data = try lateFile(20_000, then: #"{"n":20000.5,"late":"x"}"#)
    let run = try flt(["--count", "n > 20000", data])
    #expect(run.status == 0)
    #expect(run.stdout == "1\n")
    // The records before were filtered with n as integers: said once, where it changed.
    #expect(
      run.stderr.hasPrefix(
        "warning[FLT406]: 'n' holds a number here, after integers in the records before\n"))
    #expect(run.stderr.contains("  --> \(data):20001:6\n"))
    #expect(
      run.stderr.contains("= help: the 20000 records before were filtered with 'n' as integers"))
    // Sorted, the grown records sort with the rest.
    let top = try flt(["n > 19998 order by n desc", data])
    #expect(top.stdout == #"{"n":20000.5,"late":"x"}"# + "\n" + #"{"n":19999}"# + "\n")
    // A field first seen after the sample is a field, from a file and from a pipe.
    let late = try flt(["--count", "late == x", data])
    #expect(late.stdout == "1\n" && late.status == 0 && late.stderr.isEmpty)
    let piped = try flt(
      ["--count", "late == x"], stdin: try String(contentsOfFile: data, encoding: .utf8))
    #expect(piped.stdout == "1\n" && piped.status == 0 && piped.stderr.isEmpty)
    let unknown = try flt(["--count", "lat == x", data])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("did you mean 'late'?"))
  }

  @Test func recordsInsideAnAPIResponse() throws {
    let response =
      #"{"meta":{"n":3,"x":[1,{"a":[]}]},"data":{"page":1,"items":[{"a":1},{"a":2},{"a":3}],"#
      + #""next":null},"ok":true}"#
    let data = try file(response, "api.json")
    let run = try flt(["--root", "data.items", "a > 1", data])
    #expect(run.stdout == #"{"a":2}"# + "\n" + #"{"a":3}"# + "\n" && run.status == 0)
    #expect(run.stderr.isEmpty)
    // Read in blocks of any size, and from a pipe (a document starting with '{').
    let piped = try flt(["--root", "data.items", "--count", "a >= 1"], stdin: response)
    #expect(piped.stdout == "3\n")
    let missing = try flt(["--root", "data.itemz", "a > 1", data])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("error[FLT407]: no key 'itemz' in the object at 'data'"))
    let notAList = try flt(["--root", "meta", "a > 1", data])
    #expect(notAList.stderr.contains("'meta' is not a list of records"))
    let broken = try flt([
      "--root", "data.items", "a > 0", try file(#"{"data":{"items":[{"a":1}]} x"#, "b.json"),
    ])
    #expect(broken.status == 2 && broken.stderr.contains("expected ',' or '}', found 'x'"))
    let lines = try flt(["--root", "data", "a > 0", try file("{\"a\":1}\n", "l.jsonl")])
    #expect(lines.status == 2 && lines.stderr.contains("--root only applies to a JSON document"))
  }

  @Test func tabSeparatedValuesInAndOut() throws {
    let text = "name\tscore\tnote\nAnn\t5\t5\" screen\nBob\tNA\tx,y\nCy\t7\t\n"
    let data = try file(text, "scores.tsv")
    let json = try flt(["score > 4", data])
    #expect(json.status == 0 && json.stderr.isEmpty)
    #expect(
      json.stdout == #"{"name":"Ann","score":5,"note":"5\" screen"}"# + "\n"
        + #"{"name":"Cy","score":7,"note":null}"# + "\n")
    let tsv = try flt(["-f", "tsv", "score is null or score > 6", data])
    #expect(tsv.stdout == "name\tscore\tnote\nBob\t\tx,y\nCy\t7\t\n")
    // From a pipe, tabs in a header without commas say TSV.
    let piped = try flt(["--count", "score >= 5"], stdin: text)
    #expect(piped.stdout == "2\n" && piped.status == 0)
    // A null text in a number column is null in JSON output, not the text NA.
    let csv = try flt(["name == Bob"], stdin: "name,score\nBob,NA\nCy,3\n")
    #expect(csv.stdout == #"{"name":"Bob","score":null}"# + "\n")
  }

  @Test func nullTextsAndFixedTypesFromTheCommandLine() throws {
    let data = try file("zip,n,note\n01234,1,-\n02134,x,ok\n9,NA,-\n", "zip.csv")
    let zips = try flt(["-t", "zip=string", "--count", #"zip startsWith "0""#, data])
    #expect(zips.stdout == "2\n" && zips.status == 0)
    let numbers = try flt([
      "--type=n=int", "--null", "-", "--count", "n is null or note is null", data,
    ])
    #expect(numbers.stdout == "3\n" && numbers.status == 0)
    #expect(
      numbers.stderr.contains(
        "warning[FLT406]: 'n' holds text here, where its type is set to an integer"))
    #expect(numbers.stderr.contains("\(data):3:7\n"))
    #expect(
      numbers.stderr.contains(
        "warning: \(data): 1 value of 'n' did not convert to integers and was read as null"))
    let bad = try flt(["--type", "n=integr", "n > 1", data])
    #expect(bad.status == 2 && bad.stderr.contains("unknown type 'integr'; did you mean integer?"))
    let shape = try flt(["--type", "n", "n > 1", data])
    #expect(shape.status == 2 && shape.stderr.contains("--type needs name=type"))
  }

  @Test func emptyInputMatchesNothingAndSucceeds() throws {
    // Like grep and jq: no records, no matches, no error, whatever fields the query names.
    let query = "price > 5 and camera.zoom > 2 order by model"
    for (text, name) in [
      ("", "empty.json"), ("", "empty.jsonl"), ("[]", "empty.json"), ("\n", "blank.jsonl"),
    ] {
      let data = try file(text, name)
      let count = try flt(["--count", query, data])
      #expect(count.status == 0 && count.stdout == "0\n" && count.stderr.isEmpty, "\(text) \(name)")
      let rows = try flt([query, data])
      #expect(rows.status == 0 && rows.stdout.isEmpty && rows.stderr.isEmpty, "\(text) \(name)")
    }
    let piped = try flt(["--count", query], stdin: "")
    #expect(piped.status == 0 && piped.stdout == "0\n" && piped.stderr.isEmpty)
    // A syntax error is still an error.
    let bad = try flt(["--count", "price >", try file("[]", "e.json")])
    #expect(bad.status == 2 && bad.stderr.contains("error[FLT201]"))
  }

  @Test func textAfterTheSampleMakesTheFieldTextAndAQueryForNumbersFails() throws {
    let data = try lateFile(10_001, then: #"{"n":"many"}"#)
    let run = try flt(["--count", "n >= 0", data])
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr.hasPrefix(
        "warning[FLT406]: 'n' holds text here, after integers in the records before\n"))
    #expect(run.stderr.contains("  --> \(data):10002:6\n"))
    #expect(run.stderr.contains("error[FLT305]: cannot compare 'n' (text) with 0 (an integer)"))
    // A query that reads no number out of it still runs.
    let exists = try flt(["--count", "n is not null", data])
    #expect(exists.stdout == "10002\n" && exists.status == 0)
  }

  // MARK: Input and output

  @Test func standardInputStreams() throws {
    let run = try flt(["a > 1"], stdin: "{\"a\":1}\n{\"a\":2}\n")
    #expect(run.stdout == "{\"a\":2}\n")
    let csv = try flt(["-i", "csv", "a > 1"], stdin: "a\n1\n2\n")
    #expect(csv.stdout == "{\"a\":2}\n")
    // With no -i, standard input says what it is: '[' a JSON array, '{' JSON Lines, else CSV.
    let array = try flt(["a > 1"], stdin: " \n[{\"a\":1},\n {\"a\":2}]\n")
    #expect(array.stdout == "{\"a\":2}\n" && array.status == 0)
    let sniffedCSV = try flt(["a > 1"], stdin: "a,b\n1,x\n2,y\n")
    #expect(sniffedCSV.stdout == "{\"a\":2,\"b\":\"y\"}\n" && sniffedCSV.status == 0)
  }

  @Test func firstMatchesPrintBeforeTheInputEnds() throws {
    let child = try ChildProcess([CLITests.binary.path, "a > 1"])
    // The schema comes from the first 10,000 records; then records stream.
    child.send(String(repeating: "{\"a\":1}\n", count: 10_000).utf8)
    child.send("{\"a\":2}\n".utf8)
    // The input stays open: the match must come out anyway.
    let first = child.stdout.some(before: .now() + 20)
    #expect(first.map { String(decoding: $0, as: UTF8.self) } == "{\"a\":2}\n")
    child.closeInput()
    let run = try child.wait(timeout: 60)
    #expect(run.status == 0)
  }

  /// `-s a.b` with JSON output nests the field again, so that flt reads its output back
  /// (a flat `"camera.megapixels"` key was a field no filter could name).
  @Test func selectedNestedFieldsAreNestedInJSON() throws {
    for data in ["examples/phones.json", "examples/phones.csv"] {
      let run = try CLITests.flt([
        "-f", "jsonl", "-s", "model,camera.megapixels,camera.zoom", "price > 1500 limit 1", data,
      ])
      #expect(
        run.stdout == #"{"model":"iPhone 14 Pro Max","camera":{"megapixels":48,"zoom":3}}"# + "\n",
        "\(data)")
      let back = try CLITests.flt(["-c", "camera.megapixels >= 48"], stdin: run.stdout)
      #expect(back.stdout == "1\n")
    }
    // The whole after a part holds it; a key with a dot of its own stays as it is.
    let whole = try CLITests.flt([
      "-f", "jsonl", "-s", "camera.zoom,camera", "price > 1500 limit 1", "examples/phones.json",
    ])
    #expect(whole.stdout == #"{"camera":{"megapixels":48,"zoom":3}}"# + "\n")
    let dotted = try CLITests.temporaryFile(
      Array(#"{"a.b": 1, "a": {"b": 2}}"#.utf8), name: "dot.jsonl")
    #expect(
      try CLITests.flt(["-f", "jsonl", "-s", "a.b", "true", dotted.path]).stdout == #"{"a.b":1}"#
        + "\n")
  }

  /// `--type` for a field the data lacks, or given twice, says so (the first was ignored,
  /// the second won silently).
  @Test func typesOfFieldsThatAreNotThereOrTwice() throws {
    let missing = try CLITests.flt(["-t", "prise=int", "-c", "true", "examples/phones.json"])
    #expect(missing.status == 2)
    #expect(
      missing.stderr
        == "error: --type prise: examples/phones.json has no field prise\nhelp: did you mean --type price=...?\n"
    )
    let twice = try CLITests.flt(["-t", "price=int", "-t", "price=double", "true", "x.json"])
    #expect(twice.status == 2 && twice.stderr.hasPrefix("error: --type price is given twice"))
  }

  /// `-r` (`-f values`): the values alone, as jq's `-r`: no header, no quotes, tabs between
  /// fields, null empty, control characters escaped so that a line stays a record.
  @Test func rawValues() throws {
    let data = try CLITests.temporaryFile(
      Array(
        (#"{"name": "Ann \"A\"", "n": 1, "tags": ["x"]}"# + "\n"
          + #"{"name": "two\nlines\tand\u001b[31m", "n": null}"# + "\n").utf8),
      name: "raw.jsonl")
    let one = try CLITests.flt(["-r", "-s", "name", "true", data.path])
    #expect(one.status == 0 && one.stdout == "Ann \"A\"\ntwo\\nlines\\tand\\u{1B}[31m\n")
    let all = try CLITests.flt(["-f", "values", "-s", "n,name,tags", "n == 1", data.path])
    #expect(all.stdout == "1\tAnn \"A\"\t[\"x\"]\n")
    let null = try CLITests.flt(["-r", "-s", "n", "n is null", data.path])
    #expect(null.stdout == "\n")
  }

  @Test func aStreamThatPausesIsFilteredAsItComes() throws {
    // `tail -f log.jsonl | flt ...`: two records, then nothing for a while. The schema is
    // inferred from what came, the match comes out, and later records (with a new field) too.
    let child = try ChildProcess([CLITests.binary.path, "a > 1"])
    child.send("{\"a\":1}\n{\"a\":2}\n".utf8)
    let first = child.stdout.some(before: .now() + 20)
    #expect(first.map { String(decoding: $0, as: UTF8.self) } == "{\"a\":2}\n")
    child.send("{\"a\":3,\"b\":\"new\"}\n".utf8)
    let expected = "{\"a\":2}\n{\"a\":3,\"b\":\"new\"}\n"
    var printed = ""
    for _ in 0..<400 where printed != expected {
      usleep(50_000)
      printed =
        child.stdout.some(before: .now() + 1).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
    #expect(printed == expected)
    child.closeInput()
    let run = try child.wait(timeout: 60)
    #expect(run.status == 0)
  }

  @Test func outputFileIsReplacedOnlyOnSuccess() throws {
    let data = try file(#"{"a":1}"# + "\n" + #"{"a":2}"# + "\n", "in.jsonl")
    let target = try file("precious\n", "out.jsonl")
    let bad = try flt(["-o", target, "b > 1", data])
    #expect(bad.status == 2)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
    let broken = try file(#"{"a":1}"# + "\n" + #"{"a":"# + "\n", "broken.jsonl")
    let failed = try flt(["-o", target, "a > 0", broken])
    #expect(failed.status == 2)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
    let good = try flt(["-o", target, "a > 1", data])
    #expect(good.status == 0)
    #expect(good.stdout.isEmpty)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == #"{"a":2}"# + "\n")
    let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.contains(".flt-")
    }
    #expect(leftovers.isEmpty)
  }

  @Test func severalFiles() throws {
    let first = try file(#"{"a":3}"# + "\n" + #"{"a":1}"# + "\n", "one.jsonl")
    let second = try file("a\n2\n", "two.csv")
    let other = try file(#"{"b":2}"# + "\n", "other.jsonl")
    let streamed = try flt(["-s", "a", "-f", "csv", "a > 0", first, second])
    #expect(streamed.stdout == "a\n3\n1\n2\n")
    let sorted = try flt(["-s", "a", "-f", "csv", "a > 0 order by a", first, second])
    #expect(sorted.stdout == "a\n1\n2\n3\n")
    let mismatch = try flt(["a > 0 order by a", first, other])
    #expect(mismatch.status == 2)
    #expect(
      mismatch.stderr
        == "error: \(other) has other fields than \(first) (b); sort files with different fields one at a time\n"
    )
  }

  // MARK: Options and exit status

  @Test func exitStatusOnNoMatch() throws {
    let data = try file(#"{"a":1}"# + "\n", "e.jsonl")
    #expect(try flt(["-e", "a > 5", data]).status == 1)
    #expect(try flt(["a > 5", data]).status == 0)
    #expect(try flt(["-e", "a > 0", data]).status == 0)
  }

  @Test func usageErrors() throws {
    let cases: [([String], String)] = [
      (["--cout", "a", "x.json"], "error: unknown option --cout; did you mean --count?\n"),
      (["--select"], "error: --select needs a value\n"),
      (
        ["-f", "xml", "a"],
        "error: unknown output format 'xml'; use one of table, records, json, jsonl, csv, tsv, values, sql, parquet, arrow, arrows\n"
      ),
      (["--count=yes", "a"], "error: --count takes no value\n"),
      (["-p", "=1", "a"], "error: --param needs name=value, as in --param budget=1000\n"),
    ]
    for (arguments, message) in cases {
      let run = try flt(arguments)
      #expect(run.status == 2, "\(arguments)")
      #expect(run.stderr == message + "(flt --help shows the options)\n", "\(arguments)")
      #expect(run.stdout.isEmpty)
    }
    let missing = try flt(["a > 1", "no-such-file.json"])
    #expect(missing.status == 2)
    #expect(missing.stderr == "error: no-such-file.json: no such file\n")
    let unknownExtension = try flt(["a > 1", "Package.swift"])
    #expect(unknownExtension.stderr.contains("--input-format"))
    let select = try flt(["-s", "modle", "price > 0", "examples/phones.json"])
    #expect(
      select.stderr == "error: --select: the data has no field 'modle'; did you mean 'model'?\n")
    // Nested names resolve as filters resolve them.
    let nested = try flt(["-s", "camera.zom", "price > 0", "examples/phones.json"])
    #expect(
      nested.stderr == "error: --select: 'camera' has no field 'zom'; did you mean 'zoom'?\n")
    let scalar = try flt(["-s", "price.amount", "price > 0", "examples/phones.json"])
    #expect(
      scalar.stderr
        == "error: --select: 'price' is an integer, which has no field 'amount'\n")
    let deep = try flt(["-s", "camera.zoom", "-f", "jsonl", "price > 0", "examples/phones.json"])
    #expect(
      deep.status == 0 && deep.stderr.isEmpty && deep.stdout.contains("{\"camera\":{\"zoom\":"))
  }

  @Test func filterErrorsPointIntoTheQuery() throws {
    let run = try flt(["colr == Starlight", "examples/phones.json"])
    #expect(run.status == 2)
    #expect(
      run.stderr == """
        error[FLT301]: unknown field 'colr'
         --> <query>:1:1
          |
        1 | colr == Starlight
          | ^^^^ not a field of the data
          = help: did you mean 'color'?

        """)
  }

  @Test func explainCheckParamAndSchema() throws {
    let explain = try flt([
      "--explain", Self.design + " order by price desc limit 5", "examples/phones.json",
    ])
    #expect(
      explain.stdout
        == "Limit(5, Sort(price desc, And(In(color, {Starlight, Space Black}), Ge(diskSpace, 256))))\n"
    )
    let check = try flt(["--check", "price < 'x'", "examples/phones.json"])
    #expect(check.status == 2)
    #expect(check.stderr.contains("FLT305"))
    #expect(try flt(["--check", "price < 500", "examples/phones.json"]).stdout.isEmpty)
    let param = try flt(["--count", "-p", "budget=500", "price <= $budget", "examples/phones.json"])
    let literal = try flt(["--count", "price <= 500", "examples/phones.json"])
    #expect(param.stdout == literal.stdout)
    // Parameter values are read as the language reads values: durations, lists, dates,
    // negative numbers, quoted and bare text; text that is not one value is taken whole.
    let values: [(parameter: String, filter: String, same: String)] = [
      ("age=400d", "released > 2024-01-01 - $age", "released > 2024-01-01 - 400d"),
      (
        "colors=(Starlight, \"Space Black\")", "color in $colors",
        "color in (Starlight, \"Space Black\")"
      ),
      ("day=2022-09-16", "released == $day", "released == 2022-09-16"),
      ("low=-1", "price > $low * -1000", "price > 1000"),
      ("color=Space Black", "color == $color", "color == \"Space Black\""),
      ("model=\"iPhone 14\"", "model == $model", "model == \"iPhone 14\""),
      ("most=500 + 250", "price <= $most", "price <= 750"),
    ]
    for (parameter, filter, same) in values {
      let given = try flt(["--count", "-p", parameter, filter, "examples/phones.json"])
      let written = try flt(["--count", same, "examples/phones.json"])
      #expect(given.stderr.isEmpty, "\(parameter)")
      #expect(given.stdout == written.stdout && given.stdout != "0\n", "\(parameter)")
    }
    let range = try flt(["--count", "-p", "r=1...5", "price in $r", "examples/phones.json"])
    #expect(
      range.status == 2
        && range.stderr.hasPrefix("error: --param r=1...5: a filter's parameter is one value"))
    let schema = try flt(["--schema", "examples/phones.json"])
    #expect(schema.stdout.contains("camera        record\n  megapixels  int\n  zoom        int?\n"))
    #expect(schema.stdout.contains("tags          list<string>\n"))
    #expect(schema.stdout.contains("released      date\n"))
  }
}

extension DataCommandTests {
  /// The records before a data error are printed, then the error, and the exit status is 2.
  @Test func recordsBeforeADataErrorArePrinted() throws {
    let data = try CLITests.temporaryFile(
      Array("{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3,,}\n{\"a\": 4}\n".utf8), name: "broken.jsonl")
    let run = try flt(["-f", "jsonl", "true", data.path])
    #expect(run.status == 2)
    #expect(run.stdout == "{\"a\":1}\n{\"a\":2}\n")
    #expect(run.stderr.contains(":3:9") && run.stderr.contains("expected a key in quotes"))
  }
}

extension DataCommandTests {
  /// A small file read whole knows all its texts: a value no record has gets its warning and
  /// "did you mean" however few records there are. A column of texts mixed with numbers knows
  /// none (its numbers are not among its texts).
  @Test func smallFilesKnowTheirValues() throws {
    let two = try file(
      #"{"model":"iPhone 14","price":799}"# + "\n" + #"{"model":"iPhone 15","price":899}"# + "\n",
      "two.jsonl")
    let run = try flt(["-c", #"model == "iphone 14""#, two])
    #expect(run.stdout == "0\n")
    #expect(run.stderr.contains("warning[FLT312]: no record has model 'iphone 14'"))
    #expect(run.stderr.contains(#"did you mean "iPhone 14"?"#))
    let mixed = try file("zip\n01234\n98765\n", "zips.csv")
    let zip = try flt(["-c", #"zip == "98765""#, mixed])
    #expect(zip.stdout == "1\n" && zip.stderr.isEmpty, "\(zip.stderr)")
  }
}
