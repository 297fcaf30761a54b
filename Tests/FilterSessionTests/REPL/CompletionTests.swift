import FilterDSL
import Testing

@testable import FilterSession

@Suite struct CompletionTests {
  let completer: Completer = {
    var completer = Completer()
    completer.fields = ["color", "camera", "camera.megapixels", "camera.zoom", "price", "tags"]
    completer.values = { field in
      switch field {
      case "color": ["Midnight", "Space Black", "Silver", "Starlight"].map(Value.string)
      case "tags": ["5G", "eSIM"].map(Value.string)
      case "diskSpace": [64, 128, 256, 512, 1024].map(Value.int)
      default: []
      }
    }
    completer.filters = ["big"]
    completer.parameters = ["budget"]
    completer.datasets = ["phones", "cards"]
    return completer
  }()

  @Test func numbersAfterAComparisonInOrderAndNoSpaceInALists() {
    #expect(
      completer.complete("diskSpace == ").candidates == ["64", "128", "256", "512", "1024"])
    #expect(completer.complete("diskSpace >= 1").candidates == ["128", "1024"])
    let listed = completer.complete("color in (Sta")
    // In a list the comma follows (and a space), ready for the next value.
    #expect(listed.candidates == ["Starlight"] && listed.suffix == ", ")
    #expect(completer.complete("color in (Starlight, \"Space").suffix == ", ")
    #expect(completer.complete("color == Sta").suffix == " ")
    // Inside quotes, only texts.
    #expect(completer.complete("diskSpace == \"").candidates.isEmpty)
  }

  @Test func choicesAreListedInColumnsWithoutBreakingAWord() {
    let choices = ["Midnight", "\"Space Black\"", "Silver", "Starlight", "Blue", "Red", "Gold"]
    #expect(
      Completer.columns(choices, width: 45) == [
        "Midnight       Starlight      Gold",
        "\"Space Black\"  Blue",
        "Silver         Red",
      ])
    // Too narrow for two: one a line.
    #expect(Completer.columns(choices, width: 10) == choices)
    #expect(Completer.columns([], width: 80).isEmpty)
  }

  @Test func sortKeysAreFields() {
    #expect(completer.complete("price < 5 order by p").candidates == ["price"])
    #expect(
      completer.complete("order by price desc, c").candidates == [
        "camera", "camera.megapixels", "camera.zoom", "color",
      ])
    #expect(!completer.complete("order by ").candidates.contains("and"))
  }

  @Test func valuesOfTheFieldCompared() {
    let spaced = completer.complete("count color == Sp")
    #expect(spaced.candidates == ["\"Space Black\""])
    #expect(spaced.replacing == 2)
    #expect(
      completer.complete("color != S").candidates == ["Silver", "\"Space Black\"", "Starlight"])
    #expect(completer.complete("color in (Midnight, St").candidates == ["Starlight"])
    #expect(completer.complete("color not in (Sp").candidates == ["\"Space Black\""])
    #expect(completer.complete("color ==[c] mid").candidates == ["Midnight"])
    #expect(completer.complete("any tags == 5").candidates == ["\"5G\""])
  }

  @Test func insideAQuoteTheQuoteIsReplacedToo() {
    let completion = completer.complete("color == \"Spa")
    #expect(completion.candidates == ["\"Space Black\""])
    #expect(completion.replacing == 4)
  }

  @Test func fieldsFiltersKeywordsAndStatements() {
    #expect(completer.complete("co").candidates == ["color", "contains", "count"])
    #expect(completer.complete("price > 5 and co").candidates == ["color", "contains"])
    #expect(completer.complete("camera.m").candidates == ["camera.megapixels"])
    #expect(completer.complete("bi").candidates == ["big"])
    #expect(completer.complete("price <= $b").candidates == ["$budget"])
    let record = completer.complete("came")
    #expect(record.candidates == ["camera", "camera.megapixels", "camera.zoom"])
  }

  @Test func statementArguments() {
    #expect(completer.complete("use ph").candidates == ["phones"])
    #expect(completer.complete("set f").candidates == ["format"])
    #expect(completer.complete("set format js").candidates == ["json", "jsonl"])
    #expect(
      completer.complete("set format ").candidates == [
        "csv", "json", "jsonl", "records", "table", "tsv", "values",
      ])
    #expect(completer.complete(":sa").candidates == [":save"])
    #expect(completer.complete("load \"x\" as ").candidates.isEmpty == false)
  }

  @Test func valuesAreQuotedWhenTheyCannotBeBareWords() {
    #expect(Completer.bareOrQuoted("Starlight") == "Starlight")
    #expect(Completer.bareOrQuoted("and") == "\"and\"")
    #expect(Completer.bareOrQuoted("say \"hi\"\\") == "\"say \\\"hi\\\"\\\\\"")
  }
}

extension CompletionTests {
  @Test func loadCompletesDataFilesAndFolders() {
    var completer = completer
    completer.folder = { path in
      switch path {
      case "":
        ["examples/", "notes.txt", "phones.json", "plans.csv", ".hidden.json", "Package.swift"]
      case "examples/":
        ["cards.json", "cards.flt", "phones.json", "phones.csv", "my \"best\".jsonl"]
      default: []
      }
    }
    let first = completer.complete("load ")
    #expect(first.candidates == ["\"examples/", "\"phones.json\"", "\"plans.csv\""])
    #expect(first.replacing == 0)
    let folder = completer.complete("load \"ex")
    #expect(folder.candidates == ["\"examples/"])
    #expect(folder.replacing == 3)
    #expect(!folder.appendsSpace)
    let file = completer.complete("load \"examples/ph")
    #expect(file.candidates == ["\"examples/phones.csv\"", "\"examples/phones.json\""])
    let unique = completer.complete("load \"examples/c")
    #expect(unique.candidates == ["\"examples/cards.json\""])
    #expect(unique.appendsSpace)
    #expect(
      completer.complete("load \"examples/m").candidates == [#""examples/my \"best\".jsonl""#])
    #expect(completer.complete("load \".").candidates == ["\".hidden.json\""])
    #expect(completer.complete("load \"nowhere/").candidates.isEmpty)
    // Only after load.
    #expect(completer.complete("count \"ex").candidates.isEmpty)
    // Scripts after :run, unquoted.
    #expect(completer.complete(":run ").candidates == ["examples/"])
    #expect(completer.complete(":run examples/c").candidates == ["examples/cards.flt"])
  }

  @Test func aSessionListsItsFolder() throws {
    let harness = SessionHarness()
    let completer = Completer(harness.session)
    // gzip files load too.
    #expect(
      completer.complete("load \"ph").candidates == [
        "\"phones.csv\"", "\"phones.json\"", "\"phones.json.gz\"",
      ])
  }
}

extension CompletionTests {
  /// Names that are not bare words complete as the parser reads them: in backticks, whether
  /// or not the backtick was typed, and their values complete after them.
  @Test func namesThatNeedBackticksCompleteInBackticks() {
    var completer = Completer()
    completer.fields = [
      Name.written("Province / Territory"), Name.written("Country Code"), "code",
      "stats." + Name.written("2024 total", step: true),
    ]
    completer.values = { field in
      field == "Country Code" ? ["CA", "US"].map(Value.string) : []
    }
    completer.datasets = [
      Name.written("sales 2024", statement: true), Name.written("phones", statement: true),
    ]
    #expect(completer.fields.first == "`Province / Territory`")
    let bare = completer.complete("Prov")
    #expect(bare.candidates == ["`Province / Territory`"] && bare.replacing == 4)
    let open = completer.complete("count `Province / T")
    #expect(open.candidates == ["`Province / Territory`"] && open.replacing == 13)
    #expect(completer.complete("co").candidates.contains("`Country Code`"))
    #expect(completer.complete("`Country Code` == ").candidates == ["CA", "US"])
    #expect(completer.complete("stats.`20").candidates == ["stats.`2024 total`"])
    #expect(completer.complete("use sa").candidates == ["`sales 2024`"])
    #expect(completer.complete("use ph").candidates == ["phones"])
    // A backtick inside a string or a comment opens nothing.
    #expect(Completer.openBacktick("code == \"a`b") == nil)
    #expect(Completer.openBacktick("code # `x") == nil)
    #expect(Completer.openBacktick("`a b` and `c") != nil)
  }

  /// Every format `load` reads is offered: Parquet and SQLite files too.
  @Test func loadOffersParquetAndDatabases() {
    var completer = Completer()
    completer.folder = { path in
      path.isEmpty ? ["a.parquet", "b.db", "c.sqlite3", "d.pq", "e.txt", "f.jsonl"] : []
    }
    #expect(
      completer.complete("load ").candidates == [
        "\"a.parquet\"", "\"b.db\"", "\"c.sqlite3\"", "\"d.pq\"", "\"f.jsonl\"",
      ])
  }
}
