import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL
import TestSupport
import Testing

/// Random queries over random records, in memory and in PostgreSQL: the same records in the
/// same order. Seeded; a failure prints its seed, query and statement.
@Suite(.enabled(if: PostgresServer.available, "no PostgreSQL server"))
struct PostgresDifferentialTests {
  static let schema = TypedFilterGenerator.schema

  /// A record PostgreSQL stores exactly: durations and times of day in whole microseconds
  /// (`interval` and `time` keep no nanoseconds).
  static func storable(_ record: [Value]) -> [Value] {
    record.map { value in
      switch value {
      case .duration(let span): .duration(TimeSpan(nanoseconds: span.nanoseconds / 1000 * 1000))
      case .time(let t):
        TimeOfDay(nanosecondsSinceMidnight: t.nanosecondsSinceMidnight / 1000 * 1000).map(
          Value.time) ?? value
      default: value
      }
    }
  }

  /// A new table of `records`, in input order.
  static func load(_ records: [[Value]], _ connection: PostgresConnection, name: String) throws
    -> SQLTable
  {
    let table = SQLTable(name: name, schema: schema, rowOrder: SQLTable.rowOrderColumn)
    try connection.executeScript(
      "DROP TABLE IF EXISTS \(SQLDialect.postgresql.quote(name)); "
        + table.createStatement(.postgresql))
    try insert(records, into: table, connection)
    return table
  }

  /// Inserts `records` into `table`, in their order.
  static func insert(_ records: [[Value]], into table: SQLTable, _ connection: PostgresConnection)
    throws
  {
    for record in records {
      let cells = zip(record, schema.fields).map { value, field -> SQLValue in
        switch (value, field.type) {
        case (.null, _): .null
        case (_, .list), (_, .record), (_, .any): .text(JSONValue.encode(value, as: field.type))
        default: SQLDialect.postgresql.stored(value) ?? .null
        }
      }
      try connection.forEachRow(SQLStatement(table.insertStatement(.postgresql), parameters: cells))
      { _ in true }
    }
  }

  @Test(arguments: 0..<6)
  func databaseAgreesWithMemory(batch: Int) throws {
    let connection = try PostgresServer.connect()
    var generator = TypedFilterGenerator(seed: UInt64(20_000 + batch))
    let records = (0..<80).map { _ in Self.storable(generator.record()) }
    let table = try Self.load(records, connection, name: "differential_\(batch)")
    // The table reads back with its types.
    let read = try connection.table(named: table.name)
    #expect(read.schema.fields.map { shape($0.type) } == Self.schema.fields.map { shape($0.type) })
    #expect(read.rowOrder == SQLTable.rowOrderColumn)
    let (whole, _) = try SQLiteDifferentialTests.checkQueries(
      records, connection, table, seed: UInt64(batch * 1000))
    #expect(whole >= 15, "only \(whole) of 100 filters ran wholly in PostgreSQL")
    try SQLiteDifferentialTests.checkFacets(records, connection, table, seed: UInt64(batch * 1000))
    try connection.executeScript("DROP TABLE \(SQLDialect.postgresql.quote(table.name))")
  }
}
