import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL
import Foundation
import TestSupport
import Testing

/// The SQLite client: tables read back with their types, values that do not fit, scripts.
@Suite struct SQLiteDatabaseTests {
  @Test func tablesAreReadBackWithTheirTypes() throws {
    var generator = TypedFilterGenerator(seed: 1)
    let records = (0..<200).map { _ in generator.record() }
    let (database, table) = try SQLiteTestTable.make(records)
    let read = try database.table(named: table.name)
    #expect(read.schema.fields.map(\.name) == table.schema.fields.map(\.name))
    // Types alike (nested records' fields by name and type; their optionality comes from the
    // values found).
    #expect(read.schema.fields.map { shape($0.type) } == table.schema.fields.map { shape($0.type) })
    #expect(read.rowOrder == "rowid")
    #expect(try database.tableNames() == ["t"])
    // And the records come back as they went in.
    let all = try TableQuery("true", on: read, in: database).records()
    #expect(all == records)
  }

  @Test func aMissingTableListsTheTables() throws {
    let (database, _) = try SQLiteTestTable.make([], name: "phones")
    #expect {
      _ = try database.table(named: "phone")
    } throws: { error in
      let error = error as? DatabaseError
      return error?.message.contains("no table phone") == true
        && error?.help == "its tables: phones"
    }
  }

  /// SQLite keeps any value in any column (outside STRICT tables): `'one'` in an INTEGER
  /// column, as sqlite3's `.import` leaves `NA`. Such a column is read for its numbers, in
  /// SQL and in flt alike: the text is null (and said at the end of a read), so a count done
  /// in SQLite and the records listed agree (SQLite compares text as greater than any number:
  /// `n > 0` counted it).
  @Test func textInANumberColumnIsNullThereAndInFlt() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    try database.execute(#"CREATE TABLE t (n INTEGER, s TEXT)"#)
    try database.execute(#"INSERT INTO t VALUES (1, 'a'), ('one', 'b'), (3, 'c')"#)
    let table = try database.table(named: "t")
    #expect(table.numbersOnly == ["n"] && table.typesMayVary)
    let source = TableSource(table, in: database)
    for (filter, expected) in [("n > 0", 2), ("n is null", 1), ("s == b", 1), ("true", 3)] {
      let records = try Scan(query: SourceText(filter), source: source).records()
      let counted = try Scan(query: SourceText(filter), source: source).run(
        into: CountSink(to: nil))
      #expect(records.count == expected && counted.matches == expected, "\(filter)")
    }
    let b = try Scan(query: SourceText("s == b"), source: source).records()
    #expect(b.map(\.values) == [[.null, .string("b")]])
    #expect(
      source.closingWarnings.first?.contains(
        "1 value of column n (such as 'one') is not an integer") == true)
  }

  /// A TIME column another program wrote (`22:00` beside `22:00:00`): read as times of day,
  /// compared and sorted by flt (equal times whose texts differ are equal), counted alike.
  @Test func timesOfDayOtherProgramsWroteCompareAsTimes() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    try database.execute(#"CREATE TABLE t (n INTEGER, at TIME)"#)
    try database.execute(
      #"INSERT INTO t VALUES (1, '22:00'), (2, '22:00:00'), (3, '09:30:15.5'), (4, NULL)"#)
    let table = try database.table(named: "t")
    #expect(table.schema.fields.map(\.type) == [.int, .time])
    let source = TableSource(table, in: database)
    for (filter, expected) in [
      ("at == 22:00", [1, 2]), ("at < 22:00", [3]), ("at >= 09:30:15.5", [3, 1, 2]),
      ("at is null", [4]),
    ] {
      let query = filter + (filter.contains(">=") ? " order by at, n" : "")
      let records = try Scan(query: SourceText(query), source: source).records()
      let counted = try Scan(query: SourceText(filter), source: source).run(
        into: CountSink(to: nil))
      #expect(records.map { $0.values[0] } == expected.map { .int(Int64($0)) }, "\(filter)")
      #expect(counted.matches == expected.count, "\(filter)")
    }
  }

  /// A misfit past the rows the column is typed from: listed, it is refused rather than
  /// dropped silently; counted in SQLite, the column is read for its numbers.
  @Test func aLaterMisfitIsRefusedWhenListed() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    try database.execute(#"CREATE TABLE t (n INTEGER)"#)
    try database.execute(
      "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 10001) "
        + "INSERT INTO t SELECT i FROM k")
    try database.execute(#"INSERT INTO t VALUES ('late')"#)
    let table = try database.table(named: "t")
    #expect(table.numbersOnly.isEmpty)
    let source = TableSource(table, in: database)
    let error = try #require(throws: DatabaseError.self) {
      _ = try Scan(query: SourceText("n > 10000"), source: source).records()
    }
    #expect(
      error.message
        == "table t: column n holds 'late', not an integer (in row 2 of those the query returned)")
    let counted = try Scan(query: SourceText("n > 10000"), source: source).run(
      into: CountSink(to: nil))
    #expect(counted.matches == 1)
  }

  /// A column with no declared type is typed by what it holds: numbers, or text.
  @Test func anUntypedColumnIsTypedByItsValues() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    try database.execute(#"CREATE TABLE t (a, b, c)"#)
    try database.execute(#"INSERT INTO t VALUES (1, 1, 'x'), (2, 2.5, 3)"#)
    let table = try database.table(named: "t")
    #expect(table.schema.fields.map(\.type) == [.int, .double, .string])
    let records = try Scan(
      query: SourceText("c == \"3\" or a == 1"), source: TableSource(table, in: database)
    ).records()
    #expect(
      records.map(\.values) == [
        [.int(1), .double(1), .string("x")], [.int(2), .double(2.5), .string("3")],
      ])
  }

  @Test func aJSONColumnIsTypedFromItsFirstValuesAndALaterMisfitIsAnError() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    try database.executeScript(
      """
      CREATE TABLE t (id INTEGER, tags JSON);
      INSERT INTO t WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 10000)
        SELECT n, '["a"]' FROM c;
      INSERT INTO t VALUES (10001, '{"not": "a list"}');
      """)
    let table = try database.table(named: "t")
    #expect(table.schema.fields[1].type == .list(.string))
    #expect(try TableQuery(#"tags contains "a""#, on: table, in: database).count() == 10_000)
    #expect {
      _ = try TableQuery("id > 9999", on: table, in: database).records()
    } throws: { error in
      (error as? DatabaseError)?.message.hasPrefix(
        #"table t: column tags holds '{"not": "a list"}', not a list of text"#) == true
    }
  }

  @Test func scriptsLoadRecordsExactly() throws {
    // Hostile text (quotes, a NUL, line breaks, backslashes) and extreme numbers.
    let schema = Schema([
      .init("s", .string, optional: true), .init("i", .int, optional: true),
      .init("d", .double, optional: true), .init("l", .list(.string), optional: true),
    ])
    let records: [[Value]] = [
      [.string("it's \"quoted\"\n\\ \u{0} é"), .int(.min), .double(1e300), .list([.string("'")])],
      [.string("'); DROP TABLE t; --"), .int(.max), .double(-0.5), .list([])],
      [.null, .null, .double(.infinity), .null],
    ]
    let out = OutputSink()
    let writer = SQLScriptWriter(SQLTable(name: "t", schema: schema), dialect: .sqlite, to: out)
    for record in records { writer.write(DataRecord(record, schema: schema)) }
    writer.finish()
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    try database.executeScript(out.text)
    let table = try database.table(named: "t")
    #expect(table.schema.fields.map(\.type) == schema.fields.map(\.type))
    #expect(try TableQuery("true", on: table, in: database).records() == records)
    #expect(try TableQuery(#"s contains "DROP""#, on: table, in: database).count() == 1)
  }

  /// A script run again where its table exists adds no row (sqlite3 goes on after the failed
  /// `CREATE TABLE`, and every row was added twice): each statement run on its own, errors
  /// passed over, as sqlite3 runs them.
  @Test func aScriptRunTwiceAddsNothingTheSecondTime() throws {
    let schema = Schema([.init("s", .string, optional: true), .init("i", .int)])
    let out = OutputSink()
    let writer = SQLScriptWriter(SQLTable(name: "t t", schema: schema), dialect: .sqlite, to: out)
    for i in 0..<3 { writer.write(DataRecord([.string("x\(i)"), .int(Int64(i))], schema: schema)) }
    writer.finish()
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    func runAsSQLite3() {
      for statement in out.text.split(separator: ";\n") {
        try? database.executeScript(String(statement) + ";")
      }
    }
    runAsSQLite3()
    runAsSQLite3()
    let table = try database.table(named: "t t")
    #expect(try TableQuery("true", on: table, in: database).count() == 3)
    // A table that exists before the first run is not added to either.
    let other = try SQLiteDatabase(path: ":memory:", writable: true)
    try other.executeScript(
      #"CREATE TABLE "t t" (s TEXT, i INTEGER); INSERT INTO "t t" VALUES ('old', 9)"#)
    for statement in out.text.split(separator: ";\n") {
      try? other.executeScript(String(statement) + ";")
    }
    #expect(try other.rows(SQLStatement(#"SELECT count(*) FROM "t t""#)) == [[.int(1)]])
  }

  /// A database another connection holds locked is waited for, not refused at once with
  /// "database is locked" (sqlite3's `.timeout`).
  @Test func aLockedDatabaseIsWaitedFor() throws {
    let path = TemporaryFiles.url("locked.db").path
    let writer = try SQLiteDatabase(path: path, writable: true)
    try writer.executeScript("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)")
    try writer.executeScript("BEGIN EXCLUSIVE; INSERT INTO t VALUES (2)")
    let reader = try SQLiteDatabase(path: path)
    final class Outcome: @unchecked Sendable { var rows: Result<[[SQLValue]], DatabaseError>? }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      outcome.rows = Result { () throws(DatabaseError) in
        try reader.rows(SQLStatement("SELECT count(*) FROM t"))
      }
      done.signal()
    }
    // The reader waits on the lock (or has not begun yet); either way it gets the rows.
    Thread.sleep(forTimeInterval: 0.2)
    try writer.executeScript("COMMIT")
    done.wait()
    #expect(try outcome.rows?.get() == [[.int(2)]])
  }

  /// Whether a table has a rowid is asked of SQLite, not guessed from the declaration's text
  /// (a comment or a default value saying "WITHOUT ROWID" fooled it).
  @Test func aTableWithoutRowidIsToldBySQLite() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    try database.executeScript(
      """
      CREATE TABLE plain (a TEXT DEFAULT 'WITHOUT ROWID'); -- WITHOUT ROWID
      CREATE TABLE keyed (a TEXT PRIMARY KEY) WITHOUT ROWID;
      CREATE VIEW seen AS SELECT a FROM plain;
      INSERT INTO plain VALUES ('x'); INSERT INTO keyed VALUES ('y');
      """)
    #expect(try database.table(named: "plain").rowOrder == "rowid")
    #expect(try database.table(named: "keyed").rowOrder == nil)
    #expect(try database.table(named: "seen").rowOrder == nil)
    let keyed = try database.table(named: "keyed")
    #expect(
      try TableQuery("true", on: keyed, in: database).records() == [[.string("y")]])
  }

  @Test func deeplyNestedFiltersRun() throws {
    // 60 levels: more than SQLite's parser takes, so the deep part stays in flt.
    var generator = TypedFilterGenerator(seed: 5)
    let records = (0..<30).map { _ in generator.record() }
    let (database, table) = try SQLiteTestTable.make(records)
    let deep = String(repeating: "not ", count: 60) + "i > 0"
    let query = try TableQuery(deep, on: table, in: database)
    let reference = ReferenceEvaluator(schema: table.schema)
    let filter = try Parser.parseFilter(deep).get()
    #expect(
      try query.count()
        == records.filter {
          reference.evaluate(filter, on: $0, has: asTable(reference.schema, $0)).truth == .true
        }.count)
  }

  /// Where flt's arithmetic faults (overflow, division by zero), the value is null; SQLite's
  /// integers overflow into reals, and its translation must not let them through.
  @Test func arithmeticFaultsAreNullInTheDatabaseToo() throws {
    try Self.checkArithmetic(SQLiteDatabase(path: ":memory:", writable: true), name: "t")
  }

  /// Filters doing arithmetic that faults in flt, in a new table `name` of `connection`: the
  /// same records as in memory.
  static func checkArithmetic(_ connection: any SQLConnection, name: String) throws {
    let schema = Schema([.init("i", .int, optional: true), .init("d", .double, optional: true)])
    let records: [[Value]] = [
      [.int(.max), .double(1e308)], [.int(.min), .double(-0.0)], [.int(1), .double(2.5)],
      [.int(-1), .null], [.null, .double(.infinity)],
    ]
    let dialect = connection.dialect
    let table = SQLTable(
      name: name, schema: schema,
      rowOrder: dialect == .sqlite ? "rowid" : SQLTable.rowOrderColumn)
    try connection.forEachRow(SQLStatement(table.createStatement(dialect))) { _ in true }
    for record in records {
      let cells = record.map { dialect.encode($0) ?? .null }
      try connection.forEachRow(SQLStatement(table.insertStatement(dialect), parameters: cells)) {
        _ in true
      }
    }
    let reference = ReferenceEvaluator(schema: schema)
    for text in [
      "i * 2 > 0", "i + 1 < 0", "i - 1 > 0", "-i > 0", "i / 0 > 0", "i / -1 > 0", "i % -1 == 0",
      "i % 0 == 0", "i * i is null", "d * 10 > 0", "d / 0 > 0", "d - d == 0", "d + i > 0",
      "(i + 1) * 2 is not null", "i % 3 == -1", "i / 2 < -3",
    ] {
      let query = try TableQuery(text, on: table, in: connection)
      let filter = try Parser.parseFilter(text).get()
      let expected = records.filter {
        reference.evaluate(filter, on: $0, has: asTable(reference.schema, $0)).truth == .true
      }
      if dialect == .sqlite || !text.contains("d") {
        #expect(try query.translation().residual == nil, "\(text) runs in \(dialect)")
      }
      #expect(try query.records() == expected, "\(text) in \(dialect)")
    }
  }

  @Test func aBadScriptSaysWhy() throws {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    #expect {
      try database.executeScript("CREATE TABLE t (a); INSERT INTO nowhere VALUES (1);")
    } throws: { error in
      (error as? DatabaseError)?.message == "SQLite: no such table: nowhere"
    }
  }

  @Test func aMissingFileIsNotCreated() throws {
    let path = "/nonexistent-\(UInt64.random(in: 0...UInt64.max))/x.db"
    #expect(throws: DatabaseError.self) { _ = try SQLiteDatabase(path: path) }
  }

  /// Text with a NUL, which PostgreSQL cannot hold, is written as NULL and said once the
  /// script is written; a scan counts a computed column's faults with the query's.
  @Test func whatASinkCouldNotWriteIsSaid() throws {
    let schema = Schema([.init("s", .string), .init("n", .int)])
    let out = OutputSink()
    let writer = SQLScriptWriter(SQLTable(name: "t", schema: schema), dialect: .postgresql, to: out)
    writer.write(DataRecord([.string("a\u{0}b"), .int(1)], schema: schema))
    writer.write(DataRecord([.string("ok"), .int(0)], schema: schema))
    writer.finish()
    #expect(out.text.contains("(NULL, 1)"))
    #expect(
      writer.warnings == [
        "warning: 1 value cannot be stored in t as it is (text with a NUL character, NaN, a date outside years 0 to 9999) and was written as NULL\n"
      ])
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    try database.executeScript("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (2), (0);")
    let scan = try Scan(
      query: SourceText("true"), source: TableSource(try database.table(named: "t"), in: database))
    let projection = try #require(try Projection.selecting("10 / n as q", of: scan.first))
    let collected = RecordCollector()
    let summary = try scan.run(into: ProjectingSink(projection, into: collected))
    #expect(collected.records.map(\.values) == [[.double(5)], [.null]])
    #expect(summary.faults[.divisionByZero] == 1)
  }
}

/// A type with its nested records' fields by name and type only.
func shape(_ type: ValueType) -> String {
  switch type {
  case .list(let element): "[" + shape(element) + "]"
  case .record(let schema):
    "{" + schema.fields.map { $0.name + ": " + shape($0.type) }.joined(separator: ", ") + "}"
  default: type.description
  }
}

extension SQLiteDatabaseTests {
  /// Deep arithmetic (the fuzzer found SQLite's parser overflowing at 14 levels): what is too
  /// deep for SQLite stays in flt, and the answer is the same.
  @Test func deepArithmeticRuns() throws {
    var generator = TypedFilterGenerator(seed: 9)
    let records = (0..<30).map { _ in generator.record() }
    let (database, table) = try SQLiteTestTable.make(records)
    let reference = ReferenceEvaluator(schema: table.schema)
    for depth in [3, 6, 10, 20, 40] {
      let text =
        String(repeating: "(", count: depth) + "i" + String(repeating: " - 2) * 1", count: depth)
        + " > 0"
      let filter = try Parser.parseFilter(text).get()
      #expect(
        try TableQuery(text, on: table, in: database).count()
          == records.filter {
            reference.evaluate(filter, on: $0, has: asTable(reference.schema, $0)).truth == .true
          }.count,
        "depth \(depth)")
    }
  }
}
