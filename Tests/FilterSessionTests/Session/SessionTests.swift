import FilterDSL
import FilterData
import Foundation
import TestSupport
import Testing

@testable import FilterSession

/// Each statement's success and its errors, run the way a script runs them.
@Suite struct SessionTests {
  let harness = SessionHarness()

  @Test func loadNamesTheDataAfterItsFileOrAlias() {
    harness.run("load \"phones.json\"\nload \"cards.json\" as deck")
    #expect(harness.session.datasets.map(\.name) == ["phones", "deck"])
    #expect(harness.session.current?.name == "deck")
    #expect(harness.session.current?.records?.count == 40)
  }

  @Test func loadingAnotherFileOfTheSameNameAsksForAName() throws {
    let folder = try TemporaryFiles.makeFolder("other")
    let other = folder.appendingPathComponent("phones.json").path
    try FileManager.default.copyItem(
      atPath: SessionHarness.examples + "/phones.json", toPath: other)
    harness.run("load \"phones.json\"")
    let clash = try #require(harness.failure("load \"\(other)\""))
    #expect(clash.codes == [.datasetNameTaken])
    #expect(clash.rendered.contains("data called 'phones' is loaded already"))
    #expect(clash.rendered.contains("load \"\(other)\" as phones2"))
    #expect(harness.session.datasets.map(\.path) == [SessionHarness.examples + "/phones.json"])
    // The same file again replaces it; so does an explicit name.
    #expect(harness.failure("load \"phones.json\"") == nil)
    #expect(harness.failure("load \"\(other)\" as phones") == nil)
    #expect(harness.session.datasets.map(\.path) == [other])
  }

  /// A file loaded whole knows its text fields' values, however long it is: "did you mean"
  /// on a misspelt value does not disappear past the first 10,000 records (a bare 0 over
  /// 336,776 flights).
  @Test func aWholeLoadKnowsItsValuesPastTheSample() throws {
    var lines = ""
    for i in 0..<12_000 {
      lines += #"{"origin": "\#(["JFK", "LGA", "EWR"][i % 3])", "n": \#(i)}"# + "\n"
    }
    lines += #"{"origin": "SWF", "n": 0}"# + "\n"
    let file = try TemporaryFiles.write(Array(lines.utf8), "flights.jsonl")
    harness.run("load \"\(file.path)\" as flights")
    let field = try #require(harness.session.current?.schema.field(named: "origin")?.field)
    #expect(field.knownValues == ["EWR", "JFK", "LGA", "SWF"])
    #expect(harness.printed("count origin == JKF") == "0\n")
    #expect(harness.warnings.contains("no record has origin 'JKF'"))
    #expect(harness.warnings.contains(#"did you mean "JFK"?"#))
    // A value some row has draws no warning; nor does a field of many distinct values.
    harness.warnings = ""
    #expect(harness.printed("count origin == SWF and n >= 0") == "1\n")
    #expect(harness.warnings.isEmpty)
  }

  @Test func aFieldsValuesForCompletion() throws {
    harness.run("load \"phones.json\"")
    let data = try #require(harness.session.current)
    // Numbers in order, texts most frequent first, elements of lists, nothing for others.
    let disks = data.values(of: "diskSpace")
    #expect(disks.first == .int(64) && disks.last == .int(1024) && disks.count == 5)
    #expect(data.values(of: "color").allSatisfy { if case .string = $0 { true } else { false } })
    #expect(data.values(of: "tags").contains(.string("5G")))
    #expect(data.values(of: "inStock") == [.bool(false), .bool(true)])
    #expect(data.values(of: "nope").isEmpty)
    #expect(data.values(of: "released").isEmpty)
  }

  @Test func loadSaysHowToNameAFormatInTheStatement() throws {
    let script = try #require(harness.failure("load \"phones.flt\""))
    #expect(script.codes == [.cannotLoad])
    #expect(script.rendered.contains("\"phones.flt\" is a script, not data"))
    #expect(script.rendered.contains("help: run a script with :run phones.flt"))
    let url = TemporaryFiles.url("records.data")
    try Data("a,b\n1,2\n".utf8).write(to: url)
    let unknown = try #require(harness.failure("load \"\(url.path)\""))
    #expect(unknown.rendered.contains("help: name it: load \"\(url.path)\" format csv"))
    #expect(!unknown.rendered.contains("--input-format"))
    #expect(harness.printed("load \"\(url.path)\" as d format csv\ncount b == 2") == "1\n")
    // `as NAME` after the options names it too (once; a second `as` is an option there).
    #expect(harness.printed("load \"\(url.path)\" format csv as late\ncount b == 2") == "1\n")
    #expect(harness.session.current?.name == "late")
    let twice = try #require(harness.failure("load \"\(url.path)\" as a format csv as b"))
    #expect(
      twice.rendered.contains("'as NAME' comes right after the path or after the options, once"))
  }

  @Test func loadErrorsPointAtThePath() throws {
    let missing = try #require(harness.failure("load \"nope.json\""))
    #expect(missing.codes == [.cannotLoad])
    #expect(missing.rendered.contains("test.flt:1:6"))
    #expect(missing.rendered.contains("relative to the script's folder"))
    let bad = try #require(harness.failure("load \"mistake.flt\" as broken"))
    #expect(bad.codes == [.cannotLoad])
    // A file that is there but is not what its name says: its message, not where paths start.
    let fake = try TemporaryFiles.write(Array("not parquet".utf8), "fake.parquet")
    let notParquet = try #require(harness.failure("load \"\(fake.path)\""))
    #expect(notParquet.codes == [.cannotLoad])
    #expect(!notParquet.rendered.contains("relative to"), "\(notParquet.rendered)")
  }

  @Test func aLoadOverTheMemoryLimitStopsAndKeepsWhatWasLoaded() throws {
    harness.run("load \"phones.json\"")
    // Any process uses more than a kilobyte: the load stops after its first block.
    let over = try #require(harness.failure("set memory 1KB\nload \"cards.json\" as deck"))
    #expect(over.codes == [.overMemoryLimit])
    #expect(over.rendered.contains("stopped loading \"cards.json\": flt used "))
    #expect(over.rendered.contains("over the memory limit of 1 KB"))
    #expect(over.rendered.contains("set memory 16GB"))
    #expect(harness.session.datasets.map(\.name) == ["phones"])
    #expect(harness.session.current?.records?.count == 111)
    // No limit, or a limit the process is under: the load reads everything.
    #expect(harness.failure("set memory none\nload \"cards.json\" as deck") == nil)
    #expect(harness.session.current?.records?.count == 40)
    #expect(harness.failure("set memory \"1.5 TiB\"\nload \"cards.json\" as deck2") == nil)
    #expect(harness.session.settings.memoryLimit == 1_649_267_441_664)
    #expect(harness.printed("set memory 8GB\nset").contains("memory  8 GB"))
    let bad = try #require(harness.failure("set memory lots"))
    #expect(bad.rendered.contains("memory takes a size (4GB, 512MB, 2GiB), or none"))
    #expect(Settings().memoryLimit == ProcessMemory.defaultLimit)
  }

  @Test func loadOfInvalidDataShowsTheDataError() throws {
    let url = TemporaryFiles.url("flt-bad.json")
    try Data("[{\"a\": 1}, {\"a\": }]".utf8).write(to: url)
    let failure = try #require(harness.failure("load \"\(url.path)\""))
    #expect(failure.rendered.contains("error[FLT401]"))
    #expect(failure.rendered.contains("flt-bad.json:1:"))
    #expect(failure.rendered.contains("error[FLT501]"))
  }

  @Test func recordsOfAFileChangedSinceLoadingArePrintedFromTheirValues() throws {
    let url = TemporaryFiles.url("edited.jsonl")
    // Output keeps numbers as the file wrote them (1.50) while it is read from the file.
    let text = #"{"id": 1, "price": 1.50}"# + "\n" + #"{"id": 2, "price": 2.50}"#
    try Data(text.utf8).write(to: url)
    let before = harness.printed("load \"\(url.path)\" as edited\nset format jsonl\nid == 2")
    #expect(before == #"{"id":2,"price":2.50}"# + "\n")
    #expect(harness.warnings.isEmpty)
    // Rewritten in place after the load: the text loaded no longer is where it was.
    try Data("{}\n".utf8).write(to: url)
    let after = harness.printed("id >= 1")
    #expect(after == #"{"id":1,"price":1.5}"# + "\n" + #"{"id":2,"price":2.5}"# + "\n")
    #expect(harness.warnings.contains("changed since it was loaded"))
  }

  @Test func dataThatGrowsItsSchemaLateIsReadWhole() throws {
    // Integers for 20,000 records, then a decimal, text and a new field: every record answers
    // under the final types (the early ones are read again), none is null that was not.
    var text = ""
    for i in 0..<20_000 { text += #"{"n":\#(i),"m":\#(i % 10)}"# + "\n" }
    text += #"{"n":"many","m":2.5,"late":"x"}"# + "\n"
    let url = TemporaryFiles.url("grow.jsonl")
    try Data(text.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let printed = harness.printed(
      """
      load "\(url.path)" as grown
      count n == "17" or n == many
      count m > 2 and m < 3
      count m == 2
      count late == x
      """)
    #expect(printed == "2\n1\n2000\n1\n")
    #expect(harness.warnings.isEmpty)
    let schema = try #require(harness.session.current?.schema)
    #expect(schema.fields.map(\.type) == [.string, .double, .string])
    #expect(harness.session.current?.reader?.sawEverything == true)
  }

  @Test func emptyDataMatchesNothing() throws {
    let url = TemporaryFiles.url("empty.jsonl")
    try Data().write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let printed = harness.printed("load \"\(url.path)\"\ncount price > 5\ncount")
    #expect(printed == "0\n0\n")
  }

  @Test func loadOptionsSayHowToReadTheFile() throws {
    let url = TemporaryFiles.url("options.txt")
    try Data("zip\tn\tnote\n01234\t1\t-\n02134\tx\tok\n".utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let printed = harness.printed(
      """
      load "\(url.path)" as z format tsv null "-" type zip=string, n=int
      count note is null
      count zip startsWith "0"
      count n is null
      """)
    #expect(printed == "1\n2\n1\n")
    #expect(harness.warnings.contains("1 value of 'n' did not convert to integers"))
    let unknown = try #require(harness.failure("load \"\(url.path)\" nul x"))
    #expect(unknown.rendered.contains("'load' has no option 'nul'"))
    #expect(unknown.rendered.contains("did you mean 'null'?"))
    let badType = try #require(harness.failure("load \"\(url.path)\" format tsv type n=number2"))
    #expect(badType.rendered.contains("'n=number2' is not a field and a type"))
  }

  @Test func useSwitchesDataAndSuggestsNames() throws {
    harness.run("load \"phones.json\"\nload \"cards.json\"")
    #expect(harness.printed("use phones\ncount") == "111\n")
    let failure = try #require(harness.failure("use phone"))
    #expect(failure.codes == [.unknownDataset])
    #expect(failure.rendered.contains("did you mean 'phones'?"))
  }

  @Test func statementsBeforeAnyDataSayToLoad() throws {
    for statement in ["count", "price < 5", "explain price < 5", "facets color"] {
      let failure = try #require(harness.failure(statement), "\(statement)")
      #expect(failure.codes == [.noData], "\(statement)")
      #expect(failure.rendered.contains("load a file first"))
    }
  }

  @Test func queriesPrintMatchesInOrderWithTheShownColumns() {
    let printed = harness.printed(
      """
      load "phones.json"
      show model, price
      set format csv
      color == Starlight and diskSpace >= 512 order by price desc, model limit 2
      """)
    #expect(printed == "model,price\niPhone 14 Plus,1199\niPhone 14,1099\n")
  }

  @Test func queryErrorsPointIntoTheScript() throws {
    let failure = try #require(harness.failure("load \"phones.json\"\n\nprice > \"cheap\""))
    #expect(failure.codes == [.incomparable])
    #expect(failure.rendered.contains("test.flt:3:"))
  }

  @Test func countWithAndWithoutAFilter() {
    #expect(harness.printed("load \"phones.json\"\ncount\ncount diskSpace >= 256") == "111\n72\n")
  }

  @Test func explainPrintsTheChain() {
    #expect(
      harness.printed("load \"phones.json\"\nexplain price < 500 order by price limit 2")
        == "Limit(2, Sort(price, Lt(price, 500)))\n")
  }

  @Test func namedFiltersAreUsedByName() {
    let printed = harness.printed(
      """
      load "phones.json"
      let big = diskSpace >= 256
      let bigAndCheap = big and price < 600
      count big
      count bigAndCheap
      count not big
      """)
    #expect(printed == "72\n5\n39\n")
  }

  @Test func parametersAreBoundAndReadWhenUsed() {
    let printed = harness.printed(
      """
      load "phones.json"
      let budget = 600
      let sizes = (256, 512)
      let cheap = price <= $budget
      count cheap and diskSpace in $sizes
      let budget = 1000
      count cheap and diskSpace in $sizes
      let range = 500...600
      count price in $range
      """)
    #expect(printed == "5\n24\n7\n")
  }

  @Test func boundParametersWinOverLetUntilReleased() {
    harness.session.bind(parameter: "budget", to: Expr(.literal(.int(1000))))
    let script = """
      load "phones.json"
      let budget = 500
      count price < $budget
      """
    #expect(harness.printed(script) == "59\n")
    #expect(
      harness.session.transcript.map(\.text) == [
        "let budget = 1000", "load \"phones.json\"", "count price < $budget",
      ])
    harness.session.fixedParameters = []
    #expect(harness.printed(script) == "12\n")
  }

  @Test func letErrors() throws {
    harness.run("load \"phones.json\"")
    let clash = try #require(harness.failure("let price = 5"))
    #expect(clash.codes == [.nameInUse])
    let unknown = try #require(harness.failure("let f = colour == Gold"))
    #expect(unknown.codes == [.unknownField])
    let parameter = try #require(harness.failure("let x = $missing + 1"))
    #expect(parameter.codes == [.unknownParameter])
    let badValue = try #require(harness.failure("let y = \"a\" * 2"))
    #expect(badValue.codes == [.invalidOperand])
  }

  @Test func errorsInNamedFiltersPointAtTheUse() throws {
    harness.run("let big = diskSpace >= 256")  // no data yet: checked when used
    harness.run("load \"cards.json\"")
    let failure = try #require(harness.failure("count big"))
    #expect(failure.codes == [.unknownField])
    #expect(failure.rendered.contains("1 | count big\n  |       ^^^"))
  }

  @Test func namedFiltersThatDoubleEachTimeStopAtTheLimit() throws {
    var script = "load \"phones.json\"\nlet f0 = price > 1 or price < 0\n"
    for i in 1...25 { script += "let f\(i) = f\(i - 1) or f\(i - 1)\n" }
    let failure = try #require(harness.failure(script))
    #expect(failure.codes == [.expansionTooLarge])
  }

  @Test func namedFiltersNestedDeeplyStopAtTheLimit() throws {
    var script = "load \"phones.json\"\nlet f0 = price > 1\n"
    for i in 1...150 { script += "let f\(i) = not f\(i - 1)\n" }
    let failure = try #require(harness.failure(script))
    #expect(failure.codes == [.expansionTooLarge])
    #expect(failure.rendered.contains("test.flt:"))
  }

  @Test func settings() throws {
    harness.run("load \"phones.json\"\nset format jsonl\nset limit 2\nshow model")
    #expect(
      harness.printed("price > 1500 order by price desc") == """
        {"model":"Galaxy Z Fold4"}
        {"model":"Galaxy Z Fold4"}

        """)
    #expect(harness.warnings.contains("2 of 10 records printed"))
    harness.run("set limit none\nset width 12\nset format table\nshow model")
    #expect(harness.printed("model like \"Galaxy Z Fold*\" limit 1").contains("Galaxy Z Fo…"))
    for (text, code) in [
      ("set format yaml", DiagnosticCode.invalidSetting), ("set limit -1", .invalidSetting),
      ("set colour on", .invalidSetting), ("set width 2", .invalidSetting),
      ("set time maybe", .invalidSetting),
    ] {
      let failure = try #require(harness.failure(text), "\(text)")
      #expect(failure.codes == [code], "\(text)")
    }
    #expect(harness.failure("set colour on")?.rendered.contains("did you mean 'color'?") == false)
    // A misspelt word among a setting's words gets the likely one.
    #expect(
      harness.failure("set format tabel")?.rendered.contains("help: did you mean 'table'?") == true)
    #expect(harness.failure("set live offf")?.rendered.contains("did you mean 'off'?") == true)
    #expect(harness.failure("set format yaml")?.rendered.contains("did you mean") == false)
    // `set` alone lists every setting with its value and what it takes.
    #expect(
      harness.printed("set limit 3\nset memory 4GB\nset") == """
        format  table   set format table|records|json|jsonl|csv|tsv|values
        limit   3       set limit N|none
        time    off     set time on|off
        width   12      set width N
        null    "null"  set null "TEXT"
        memory  4 GB    set memory SIZE|none
        live    on      set live on|off
        pager   off     set pager on|off

        """)
  }

  @Test func tableRowsBeyondTheLimitAreCounted() {
    let printed = harness.printed("load \"phones.json\"\nset limit 3\nshow model\ndiskSpace >= 256")
    #expect(printed.hasSuffix("3 of 72 rows\n"))
  }

  @Test func showChecksItsFields() throws {
    harness.run("load \"phones.json\"")
    let failure = try #require(harness.failure("show model, prise"))
    #expect(failure.codes == [.unknownField])
    #expect(failure.rendered.contains("did you mean 'price'?"))
    harness.run("show camera.megapixels\nset format csv")
    #expect(harness.printed("model == \"Pixel 7a\" limit 1") == "camera.megapixels\n64\n")
    harness.run("show *")
    #expect(harness.printed("model == \"Pixel 7a\" limit 1").hasPrefix("model,price,"))
  }

  @Test func timeGoesToWarnings() {
    harness.run("load \"phones.json\"\nset time on\ncount")
    #expect(harness.warnings.hasPrefix("time: "))
  }

  /// `flt check` runs nothing, so it times nothing.
  @Test func checkingPrintsNoTimes() {
    harness.session.checkOnly = true
    harness.run("load \"phones.json\"\nset time on\ncount\nprice > 1")
    #expect(harness.warnings.isEmpty, "\(harness.warnings)")
  }

  @Test func syntaxErrorsAreAllReportedBeforeAnythingRuns() throws {
    let failure = try #require(
      harness.failure("load \"phones.json\"\ncount price < )\nset limit\ncount (a"))
    #expect(failure.error.diagnostics.count == 3)
    #expect(failure.rendered.contains("test.flt:2:"))
    #expect(failure.rendered.contains("test.flt:3:"))
    #expect(failure.rendered.contains("test.flt:4:"))
    #expect(harness.session.datasets.isEmpty)
  }

  @Test func transcriptKeepsSuccessfulStatements() {
    harness.run("load \"phones.json\"\ncount")
    harness.run("count colour == Gold")
    harness.run("let big = diskSpace >= 256")
    #expect(
      harness.session.transcript.map(\.text) == [
        "load \"phones.json\"", "count", "let big = diskSpace >= 256",
      ])
  }

  @Test func anInterruptStopsTheStatementAndTheRestOfTheEntry() throws {
    harness.run("load \"phones.json\"\nshow model")
    // Stopped while loading: nothing is loaded.
    var asked = 0
    harness.session.interrupted = {
      asked += 1
      return asked > 1
    }
    let load = try #require(harness.failure("load \"cards.json\" as cards\ncount"))
    #expect(load.codes == [.interrupted])
    #expect(load.rendered.contains("test.flt:1:1"))
    #expect(harness.session.datasets.map(\.name) == ["phones"])
    // Stopped in each statement that reads the data, after it started: nothing is printed,
    // and the statement is not in the transcript.
    for statement in ["count diskSpace >= 256", "diskSpace >= 256", "facets color"] {
      asked = 0
      let before = harness.session.transcript.count
      let failure = try #require(harness.failure(statement + "\ncount"), "\(statement)")
      #expect(failure.codes == [.interrupted])
      #expect(harness.session.transcript.count == before)
    }
    #expect(harness.output.text.isEmpty)
    // A statement is not started once an interrupt is pending.
    harness.session.interrupted = { true }
    #expect(harness.failure("show price")?.codes == [.interrupted])
  }
}
