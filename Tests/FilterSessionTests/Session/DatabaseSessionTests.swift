import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL
import FilterSession
import TestSupport
import Testing

/// `load "shop.db" table phones`: statements run in the database and print what they print
/// for the same records loaded from a file.
@Suite struct DatabaseSessionTests {
  /// examples/phones.json in a new SQLite database file, as `flt -f sql` would put it.
  static func phonesDatabase() throws -> String {
    let reader = try DataReader(path: SessionHarness.examples + "/phones.json")
    try reader.inferWhole()
    let out = OutputSink()
    let writer = SQLScriptWriter(
      SQLTable(name: "phones", schema: reader.schema, rowOrder: "rowid"), dialect: .sqlite,
      to: out)
    while let block = try reader.next() { for record in block { writer.write(record) } }
    writer.finish()
    let path = TemporaryFiles.url("shop-\(UInt64.random(in: 0...UInt64.max)).db").path
    try SQLiteDatabase(path: path, writable: true).executeScript(out.text)
    return path
  }

  static let statements = """
    count
    count color in (Starlight, "Space Black") and diskSpace >= 256
    let big = diskSpace >= 256
    let budget = 1000
    facets color, diskSpace where big and price < $budget and color in (Starlight, Midnight)
    stats count(), mean(price), max(diskSpace), min(released) by color where big
    stats price, distinct(color) as colors by diskSpace where tags contains "5G"
    show model, price, diskSpace
    big and camera.megapixels >= 48 order by price desc, model limit 4
    tags contains "5G" and released >= 2022-09-01 order by released, price limit 3 offset 2
    """

  @Test func aTableAnswersAsTheFileDoes() throws {
    let database = try Self.phonesDatabase()
    let file = SessionHarness()
    let fromFile = try file.run("load \"phones.json\" as phones\n" + Self.statements).get()
    let table = SessionHarness()
    let fromTable = try table.run("load \"\(database)\" table phones\n" + Self.statements).get()
    #expect(fromTable == fromFile)
    #expect(fromFile.contains("13\n"))
    let explained = try table.run("explain price < 900 and model ==[c] \"x\"").get()
    #expect(explained.hasPrefix("in sqlite: SELECT"))
    #expect(explained.contains("in flt: model ==[c] \"x\""))
  }

  /// A table read into memory (a source loaded as a file is): statements answer as over the
  /// file, and as over the table in the database.
  @Test func aTableLoadedIntoMemoryAnswersAsTheFileDoes() throws {
    let database = try Self.phonesDatabase()
    let file = SessionHarness()
    let fromFile = try file.run("load \"phones.json\" as phones\n" + Self.statements).get()
    let loaded = SessionHarness()
    let source = try TableSource.open(database, table: "phones")
    let dataset = try Dataset(name: "phones", loading: source)
    #expect(dataset.records?.count == 111 && dataset.path == "phones")
    loaded.session.add(dataset)
    #expect(try loaded.run(Self.statements).get() == fromFile)
    // What the live preview counts, over the columns in memory.
    #expect(
      loaded.session.preview(SourceText("price < 900"), until: { false })
        == file.session.preview(SourceText("price < 900"), until: { false }))
  }

  @Test func ctrlCCancelsAStatementInTheDatabase() throws {
    // A view without end: only a cancel stops counting it.
    let path = TemporaryFiles.url("endless-\(UInt64.random(in: 0...UInt64.max)).db").path
    try SQLiteDatabase(path: path, writable: true).executeScript(
      "CREATE VIEW endless AS WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT CAST(n AS TEXT) AS n FROM c"
    )
    let harness = SessionHarness()
    _ = try harness.run("load \"\(path)\" table endless").get()
    let start = ContinuousClock.now
    harness.session.interrupted = { ContinuousClock.now - start > .milliseconds(300) }
    let failure = harness.failure(#"count n != "x""#)
    #expect(failure?.codes == [.interrupted])
    #expect(ContinuousClock.now - start < .seconds(20))
    harness.session.interrupted = { false }
    #expect(try harness.run(#"n == "2" limit 1"#).get().contains("1 row"))
  }

  @Test func mistakesAboutTables() throws {
    let database = try Self.phonesDatabase()
    let harness = SessionHarness()
    let missing = harness.failure("load \"\(database)\" table phone")
    #expect(missing?.codes == [.cannotLoad])
    #expect(missing?.rendered.contains("has no table phone") == true)
    #expect(missing?.rendered.contains("help: its tables: phones") == true)
    let option = harness.failure("load \"\(database)\" table phones null \"NA\"")
    #expect(option?.codes == [.invalidSetting])
    let field = harness.failure("load \"\(database)\" table phones\ncount pric > 3")
    #expect(field?.rendered.contains("did you mean 'price'?") == true)
  }

  /// What the REPL asks of a table as of a file: live previews (counted in the database, as
  /// the file's are in memory), completion's values, `:datasets`' size, and check-only
  /// scripts.
  @Test func aTableAnswersTheREPLAsAFileDoes() throws {
    let database = try Self.phonesDatabase()
    let harness = SessionHarness()
    _ = try harness.run("load \"\(database)\" table phones").get()
    let session = harness.session
    // (Waits as long as a busy machine needs: a count late for the preview checks only.)
    session.settings.previewSeconds = 600
    let file = SessionHarness()
    _ = try file.run("load \"\(SessionHarness.examples)/phones.json\"").get()
    for line in [
      "price < 900", "count price > 1", "facets color where price < 900", "explain true",
      "model contains \"Pro\" and price % 2 == 1",
    ] {
      let preview = session.preview(SourceText(line), until: { false })
      #expect(preview == file.session.preview(SourceText(line), until: { false }), "\(line)")
      if case .matches(_, of: let total) = preview {
        #expect(total > 0)
      } else {
        Issue.record("\(line): \(String(describing: preview)), not a count")
      }
    }
    if case .problem(let diagnostic) = session.preview(SourceText("pric < 900"), until: { false }) {
      #expect(diagnostic.message.contains("unknown field"))
    } else {
      Issue.record("a misspelt field is not a problem in the preview")
    }
    if case .problem = session.preview(SourceText("facets colr"), until: { false }) {
    } else {
      Issue.record("a misspelt facet is not a problem in the preview")
    }
    let current = try #require(session.current)
    #expect(current.records == nil && current.size == "table phones, 12 fields")
    #expect(current.values(of: "color").contains(.string("Midnight")))
    #expect(current.summary.hasSuffix("statements run there"))
    // Checked only: nothing runs, nothing prints, mistakes are still found.
    session.checkOnly = true
    #expect(
      try harness.run("count price > 1\nprice > 1\nexplain price > 1\nfacets color").get().isEmpty)
    #expect(harness.failure("count pric > 1") != nil)
  }

  /// A preview's count is cancelled in the database when the user types on (no status) or
  /// when it takes longer than the preview waits (the statement checks); either way the
  /// connection answers the next statement.
  @Test func aPreviewStopsItsCountInTheDatabase() throws {
    let database = try Self.phonesDatabase()
    let harness = SessionHarness()
    _ = try harness.run("load \"\(database)\" table phones").get()
    let session = harness.session
    let line = SourceText("price < 900")
    #expect(session.preview(line, until: { true }) == nil)
    session.settings.previewSeconds = 0
    #expect(session.preview(line, until: { false }) == .checked)
    #expect(session.preview(SourceText("pric < 900"), until: { false }) != .checked)
    session.settings.previewSeconds = 600
    let counted = session.preview(line, until: { false })
    guard case .matches(let count, of: _) = counted else {
      Issue.record("no count after a cancelled one: \(String(describing: counted))")
      return
    }
    #expect(try harness.run("count price < 900").get() == "\(count)\n")
    // A count that never ends (a view without end) is cancelled past the wait.
    let path = TemporaryFiles.url("endless-\(UInt64.random(in: 0...UInt64.max)).db").path
    try SQLiteDatabase(path: path, writable: true).executeScript(
      "CREATE VIEW endless AS WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT CAST(n AS TEXT) AS n FROM c"
    )
    _ = try harness.run("load \"\(path)\" table endless").get()
    session.settings.previewSeconds = 0.2
    #expect(session.preview(SourceText(#"n != "x""#), until: { false }) == .checked)
    #expect(try harness.run(#"n == "2" limit 1"#).get().contains("1 row"))
  }
}
