import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL
import TestSupport
import Testing

/// Random queries over random records, in memory and in SQLite: the same records in the same
/// order, whatever part of the query SQLite answers. Seeded; a failure prints its seed, query
/// and statement.
@Suite struct SQLiteDifferentialTests {
  static let schema = TypedFilterGenerator.schema
  static let context = TypedFilterGenerator.context
  static let sortable = ["i", "j", "d", "s", "b", "t", "dt", "du"]

  @Test(arguments: 0..<10)
  func databaseAgreesWithMemory(batch: Int) throws {
    var generator = TypedFilterGenerator(seed: UInt64(10_000 + batch))
    let records = (0..<80).map { _ in generator.record() }
    let database = try SQLiteTestTable.make(records)
    let (whole, some) = try Self.checkQueries(
      records, database.connection, database.table, seed: UInt64(batch * 1000))
    // The generator's filters call functions and do arithmetic, which stay in flt; many
    // still run wholly or partly in SQLite.
    #expect(whole >= 15, "only \(whole) of 100 queries ran wholly in SQLite")
    print("batch \(batch): \(whole) queries wholly in SQLite, \(some) partly")
  }

  /// 100 random queries over `records`, in `table` and in memory: the same records in the
  /// same order, and the same counts. Returns how many ran wholly, and partly, in the
  /// database.
  static func checkQueries(
    _ records: [[Value]], _ connection: any SQLConnection, _ table: SQLTable, seed: UInt64
  ) throws -> (whole: Int, some: Int) {
    var whole = 0
    var some = 0
    let reference = ReferenceEvaluator(schema: schema, context: context)
    for i in 0..<100 {
      let seed = seed + UInt64(i)
      var generator = TypedFilterGenerator(seed: seed)
      let query = Self.query(&generator)
      guard
        let bound = Checker.check(
          query, schema: schema, parameters: TypedFilterGenerator.parameters
        ).tree
      else { continue }
      let expected = CompiledQuery(
        bound, for: .dynamic(schema, presence: .columns),
        parameters: TypedFilterGenerator.parameters
      )
      .binding(context.parameters, now: context.now).run(records).records
      let onDatabase = TableQuery(
        query, on: table, in: connection, types: TypedFilterGenerator.parameters,
        values: context.parameters, now: context.now)
      let translation = try onDatabase.translation()
      if translation.residual == nil && query.filter != nil {
        whole += 1
      } else if !translation.pushed.isEmpty || !translation.narrowed.isEmpty {
        some += 1
      }
      let actual = try onDatabase.records()
      #expect(
        actual == expected,
        "seed \(seed): \(bound.source)\n\(translation.explanation)\n\(actual.count) rows vs \(expected.count)"
      )
      if actual != expected { break }
      // A count of the whole query (with its page) as the command's --count makes it.
      let counted = CountSink(to: nil)
      try Scan(
        query: SourceText(query.description), source: TableSource(table, in: connection),
        parameterTypes: TypedFilterGenerator.parameters, parameters: context.parameters,
        now: context.now
      ).run(into: counted)
      #expect(counted.count == expected.count, "seed \(seed): \(bound.source), counted by a scan")
      let count = try onDatabase.count()
      let matching =
        query.filter.map { filter in
          records.filter {
            reference.evaluate(filter, on: $0, has: asTable(reference.schema, $0)).truth == .true
          }.count
        } ?? records.count
      #expect(
        count == matching, "seed \(seed): count \(count) vs \(matching)\n\(translation.explanation)"
      )
    }
    return (whole, some)
  }

  @Test(arguments: 0..<3)
  func facetsAgreeWithMemory(batch: Int) throws {
    var generator = TypedFilterGenerator(seed: UInt64(30_000 + batch))
    let records = (0..<80).map { _ in generator.record() }
    let database = try SQLiteTestTable.make(records)
    try Self.checkFacets(records, database.connection, database.table, seed: UInt64(batch * 1000))
  }

  /// Disjunctive facet counts of random filters: in the database as in memory.
  static func checkFacets(
    _ records: [[Value]], _ connection: any SQLConnection, _ table: SQLTable, seed: UInt64
  ) throws {
    for i in 0..<40 {
      var generator = TypedFilterGenerator(seed: seed + UInt64(i))
      let filter: Expr = Expr(
        .logical(
          .and,
          [
            generator.bool(1),
            Expr(
              .predicate(
                Expr(.field(FieldPath("s"))),
                Condition(
                  .member(
                    Expr(.list([Expr(.literal(.string("a"))), Expr(.literal(.string("b")))])), [],
                    negated: false)))),
          ]))
      // Scalar fields are counted by the database (GROUP BY); a list makes flt count.
      let fields =
        (i % 2 == 0
        ? ["s", "i", "rec.y", "b", "d", "t", "du", "rec.x"] : ["s", "i", "tags", "rec.y"])
        .map { FieldPath($0) }
      let source = SourceText(filter.description)
      guard
        let counter = try? FacetCounter(
          fields, filter: filter, source: source, for: .dynamic(schema, presence: .columns),
          parameters: TypedFilterGenerator.parameters
        ).binding(context.parameters, now: context.now)
      else { continue }
      let expected = counter.count(records)
      let actual = try connection.count(
        counter, on: table, parameters: TypedFilterGenerator.parameters,
        values: context.parameters, now: context.now)
      let differing = zip(actual.facets, expected.facets).filter { $0 != $1 }
      #expect(
        actual.facets == expected.facets && actual.matches == expected.matches,
        "seed \(seed + UInt64(i)): \(filter)\n\(differing.map { "\($0)\nin memory: \($1)" })")
    }
  }

  /// A random query: a filter, sometimes sort keys, a limit and an offset.
  static func query(_ generator: inout TypedFilterGenerator) -> Query {
    let filter = generator.bool(generator.rng.int(0...3))
    var ordering: [SortKey] = []
    for _ in 0..<generator.rng.int(0...2) {
      ordering.append(
        SortKey(
          // Mostly fields; sometimes arithmetic (which SQL sorts by) or a function (which
          // leaves the sorting, and the parameters of the keys before it, to flt).
          generator.rng.chance(0.8)
            ? Expr(.field(FieldPath(generator.rng.pick(sortable))))
            : generator.rng.chance(0.5) ? generator.int(1) : generator.string(1),
          generator.rng.pick(SortDirection.allCases),
          nulls: generator.rng.pick([nil, .first, .last])))
    }
    let limit =
      generator.rng.chance(0.3) ? Expr(.literal(.int(Int64(generator.rng.int(-1...20))))) : nil
    let offset =
      generator.rng.chance(0.2) ? Expr(.literal(.int(Int64(generator.rng.int(0...10))))) : nil
    return Query(
      filter: generator.rng.chance(0.9) ? filter : nil, ordering: ordering, limit: limit,
      offset: offset)
  }
}

/// A SQLite database in memory holding records of ``TypedFilterGenerator/schema``.
enum SQLiteTestTable {
  static func make(_ records: [[Value]], name: String = "t") throws -> (
    connection: SQLiteDatabase, table: SQLTable
  ) {
    let database = try SQLiteDatabase(path: ":memory:", writable: true)
    let table = SQLTable(name: name, schema: TypedFilterGenerator.schema, rowOrder: "rowid")
    try database.execute(table.createStatement(.sqlite))
    try database.execute("BEGIN")
    for record in records {
      let cells = zip(record, table.schema.fields).map { value, field -> SQLValue in
        switch (value, field.type) {
        case (.null, _): .null
        case (_, .list), (_, .record), (_, .any): .text(JSONValue.encode(value, as: field.type))
        default: SQLDialect.sqlite.encode(value) ?? .null
        }
      }
      try database.execute(table.insertStatement(.sqlite), cells)
    }
    try database.execute("COMMIT")
    return (database, table)
  }
}
