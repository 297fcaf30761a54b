import FilterDSL
import FilterData
import FilterSQL

/// A query on a database table: checked once against the table's schema, translated (for
/// the parameters' values) each time it runs. The database answers what SQL answers exactly;
/// flt finishes the rest on the rows that come back, with the one query engine of the
/// project, so the records are those flt would give in memory, in the same order.
///
/// ```swift
/// let database = try SQLiteDatabase(path: "shop.db")
/// let table = SQLTable(name: "phones", schema: schema, rowOrder: "rowid")
/// let query = try DatabaseQuery("price < $budget order by price limit 5", on: table,
///                               in: database, parameters: ["budget": .int])
/// for record in try query.records(["budget": .int(1000)]).records { print(record) }
/// ```
public struct DatabaseQuery: Sendable {
  /// Where the records are.
  public let table: SQLTable
  /// The connection the query runs on.
  public let connection: any SQLConnection
  /// The query, checked against the table's schema.
  public let bound: BoundQuery
  /// The parameters' declared types.
  public let parameters: [String: ValueType]
  /// The fields (by slot) the caller looks at, when not all: the others are not fetched, and
  /// are null in the records.
  public var reading: Set<Int>?

  /// Parses and checks `text` against `table`'s schema, calling `functions` (give the
  /// embedder's SQL spellings in the table's `functions`); throws its errors.
  public init(
    _ text: String, on table: SQLTable, in connection: any SQLConnection,
    parameters: [String: ValueType] = [:], functions: FunctionRegistry = .builtins
  ) throws(FilterError) {
    let source = SourceText(text, name: "<query>")
    let bound = try FilterEnvironment(
      RecordType.dynamic(table.schema), parameters: parameters, functions: functions
    ).check(source).get(source)
    self.init(bound, on: table, in: connection, parameters: parameters)
  }

  /// A query already checked against `table`'s schema with `parameters`.
  public init(
    _ bound: BoundQuery, on table: SQLTable, in connection: any SQLConnection,
    parameters: [String: ValueType] = [:]
  ) {
    self.table = table
    self.connection = connection
    self.bound = bound
    self.parameters = parameters
  }

  /// The translation for these parameter values and this time (that of `now()`; flt's
  /// default, the epoch, when nil): what runs in the database and what in flt.
  public func translation(_ values: [String: Value] = [:], now: Instant? = nil) -> SQLTranslation {
    SQLTranslator(table: table, dialect: connection.dialect).translate(
      bound, parameters: values, reading: reading, now: now ?? Instant(seconds: 0))
  }

  /// Runs the query, handing each record (values in the schema's order) to `body` in the
  /// query's order, until `body` returns false. Returns the faults flt met on the rows it
  /// evaluated, and how many rows the database returned.
  @discardableResult
  public func run(
    _ values: [String: Value] = [:], now: Instant? = nil, _ body: ([Value]) -> Bool
  ) throws(DatabaseError) -> (faults: FaultCounts, fetched: Int) {
    let translation = translation(values, now: now)
    let remainder = CompiledQuery(
      translation.remainder, for: .dynamic(table.schema), parameters: parameters
    ).binding(values, now: now)
    var execution = QueryExecution(remainder)
    var batch: [[Value]] = []
    var fetched = 0
    var problem: DatabaseError?
    var stopped = false
    var decoder = RowDecoder(table, connection.dialect)
    func hand(_ records: [[Value]]) {
      for record in records where !stopped { stopped = !body(record) }
    }
    try connection.forEachRow(translation.select) { row in
      fetched += 1
      guard let record = decoder.decode(row) else {
        problem = decoder.problem(row, fetched)
        return false
      }
      batch.append(record)
      if batch.count == 1024 {
        hand(execution.consume(batch))
        batch.removeAll(keepingCapacity: true)
      }
      return !stopped && !execution.isComplete
    }
    if let problem { throw problem }
    hand(execution.consume(batch))
    hand(execution.finish())
    return (execution.faults, fetched)
  }

  /// The matching records, in order, with the faults met.
  public func records(_ values: [String: Value] = [:], now: Instant? = nil) throws(DatabaseError)
    -> (records: [[Value]], faults: FaultCounts)
  {
    var records: [[Value]] = []
    let (faults, _) = try run(values, now: now) { record in
      records.append(record)
      return true
    }
    return (records, faults)
  }

  /// How many records match (the filter's matches; `limit` and `offset` are not applied):
  /// `count(*)` in the database when it answers the whole filter, else counted in flt.
  public func count(_ values: [String: Value] = [:], now: Instant? = nil) throws(DatabaseError)
    -> Int
  {
    let translation = translation(values, now: now)
    if translation.residual == nil { return try connection.count(translation.count) }
    var unpaged = bound
    unpaged.ordering = []
    unpaged.limit = nil
    unpaged.offset = nil
    var count = 0
    try DatabaseQuery(unpaged, on: table, in: connection, parameters: parameters).run(
      values, now: now
    ) { _ in
      count += 1
      return true
    }
    return count
  }
}
