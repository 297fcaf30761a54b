import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL

/// A query over a database table run as flt runs it, a `Scan` of a `TableSource`, and the
/// translation that scan pushes down.
struct TableQuery {
  let query: Query
  let source: SourceText
  let table: SQLTable
  let connection: any SQLConnection
  var types: [String: ValueType] = [:]
  var values: [String: Value] = [:]
  var now: Instant? = nil
  var functions: FunctionRegistry = .builtins

  init(
    _ text: String, on table: SQLTable, in connection: any SQLConnection,
    functions: FunctionRegistry = .builtins
  ) throws {
    source = SourceText(text)
    query = try Parser.parseQuery(source).get()
    (self.table, self.connection, self.functions) = (table, connection, functions)
  }

  /// `query`, parsed already, with parameters of these types and values.
  init(
    _ query: Query, on table: SQLTable, in connection: any SQLConnection,
    types: [String: ValueType] = [:], values: [String: Value] = [:], now: Instant? = nil
  ) {
    (self.query, source) = (query, SourceText(query.description))
    (self.table, self.connection) = (table, connection)
    (self.types, self.values, self.now) = (types, values, now)
  }

  private func scan(_ query: Query) throws -> Scan {
    try Scan(
      query: query, source: source, sources: [{ TableSource(table, in: connection) }],
      options: Scan.Options(functions: functions), parameterTypes: types, parameters: values,
      now: now)
  }

  /// The records that match, in order, as values in the schema's order.
  func records() throws -> [[Value]] { try scan(query).records().map(\.values) }

  /// How many records match the filter (a sort and page left out).
  func count() throws -> Int {
    try scan(Query(filter: query.filter)).run(into: CountSink(to: nil)).matches
  }

  /// What `--explain` says of the query.
  func explanation() throws -> String { try scan(query).explanation }

  /// What runs in the database, and what flt does after.
  func translation() throws -> SQLTranslation {
    let bound = try FilterEnvironment(
      RecordType.dynamic(table.schema, presence: .columns), parameters: types, functions: functions
    ).check(query).get(source)
    return SQLTranslator(table: table, dialect: connection.dialect).translate(
      bound, parameters: values, now: now ?? Instant(seconds: 0))
  }
}

/// Which fields a table's row has though their value is null, for the reference evaluator:
/// every column, and a nested field where its record is there (``FieldPresence/columns``).
func asTable(_ schema: Schema, _ record: [Value]) -> (FieldPath) -> Bool {
  { FieldPresence.columns(schema, record, has: $0) }
}
