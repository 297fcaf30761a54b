import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL
import TestSupport
import Testing

/// `--stats` and `--facets` over a table ask the table first (`AggregatingSource`), in a
/// one-shot scan as in a session: the database's `GROUP BY`s answer, no row travels, and the
/// answer is the one memory gives.
@Suite struct AggregatingSourceTests {
  /// A connection that notes each statement it runs.
  final class Recording: SQLConnection, @unchecked Sendable {
    let inner: any SQLConnection
    var statements: [String] = []
    init(_ inner: any SQLConnection) { self.inner = inner }
    var dialect: SQLDialect { inner.dialect }
    func forEachRow(_ statement: SQLStatement, _ body: ([SQLValue]) -> Bool) throws(DatabaseError) {
      statements.append(statement.text)
      try inner.forEachRow(statement, body)
    }
    func interrupt() { inner.interrupt() }
    func tableNames() throws(DatabaseError) -> [String] { try inner.tableNames() }
    func table(named name: String, typingJSON: Set<String>?) throws(DatabaseError) -> SQLTable {
      try inner.table(named: name, typingJSON: typingJSON)
    }
  }

  static func table() throws -> (records: [[Value]], source: TableSource, log: Recording) {
    var generator = TypedFilterGenerator(seed: 81_000)
    let records = (0..<300).map { _ in generator.record() }
    let database = try SQLiteTestTable.make(records)
    let log = Recording(database.connection)
    return (records, TableSource(database.table, in: log), log)
  }

  @Test func facetsAreCountedByTheDatabase() throws {
    let (records, source, log) = try Self.table()
    let text = SourceText("i > 0 and s in (a, b, \"\") and b == true")
    let filter = try Parser.parseFilter(text).get()
    let fields = [FieldPath("s"), FieldPath("b"), FieldPath("t")]
    let sink = try FacetSink(fields, filter: filter, source: text, for: source)
    let scan = try Scan(query: SourceText(""), source: source)
    let summary = try scan.run(into: sink)
    let expected = try FacetCounter(
      fields, filter: filter, source: text, for: .dynamic(TypedFilterGenerator.schema)
    ).count(records)
    #expect(sink.counts == expected)
    #expect(summary.matches == expected.matches)
    #expect(!log.statements.isEmpty)
    #expect(log.statements.allSatisfy { $0.contains("GROUP BY") || $0.contains("count(") })
  }

  @Test func statsAreComputedByTheDatabase() throws {
    let (records, source, log) = try Self.table()
    let text = SourceText("count(), sum(i), min(j), max(i) by s, b")
    let stats = try Parser.parseStats(text).get()
    let sink = try StatsSink(stats, source: text, for: source)
    let scan = try Scan(query: SourceText("j >= 0"), source: source)
    let summary = try scan.run(into: sink)
    let expected = try FilterEnvironment(.dynamic(TypedFilterGenerator.schema))
      .compileStats("count(), sum(i), min(j), max(i) by s, b where j >= 0").run(records)
    #expect(sink.result.rows == expected.rows)
    #expect(summary.matches == expected.records)
    #expect(log.statements.count == 1)
    #expect(log.statements.allSatisfy { $0.contains("GROUP BY") })
  }

  /// Stats SQL cannot give (a median) read the rows, as before.
  @Test func statsTheDatabaseCannotComputeReadTheRows() throws {
    let (records, source, log) = try Self.table()
    let text = SourceText("median(i) by b")
    let sink = try StatsSink(try Parser.parseStats(text).get(), source: text, for: source)
    let scan = try Scan(query: SourceText("true"), source: source)
    scan.options.outputFields = sink.fieldNames
    try scan.run(into: sink)
    let expected = try FilterEnvironment(.dynamic(TypedFilterGenerator.schema))
      .compileStats("median(i) by b").run(records)
    #expect(StatsGenerator.same(sink.result.rows, expected.rows))
    #expect(!log.statements.contains { $0.contains("GROUP BY") })
  }
}
