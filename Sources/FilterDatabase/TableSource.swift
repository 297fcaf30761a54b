import FilterDSL
import FilterData
import FilterSQL

/// A database table as a scan's source: the database answers what SQL answers exactly (the
/// statement `SQLTranslator` writes), and the scan finishes the rest on the rows that come
/// back, so the records are those flt would give in memory, in the same order.
///
/// ```swift
/// let database = try connect(to: "shop.db")
/// let source = TableSource(try database.table(named: "phones"), in: database)
/// let cheap = try Scan(query: SourceText("price < 500 order by price"), source: source).records()
/// ```
public final class TableSource: RecordSource {
  /// The table, with its schema.
  public let table: SQLTable
  /// The connection its statements run on.
  public let connection: any SQLConnection
  /// The statement of the query pushed down last: its rows are what ``read(_:)`` hands over.
  private var statement: SQLStatement?
  /// What the last read says at its end (values read as null; see `SQLTable.numbersOnly`).
  public private(set) var closingWarnings: [String] = []
  /// The fields (by slot) the caller looks at, when not all: the others are not fetched,
  /// and are null in the records (facets fetch only the fields they count and filter on).
  public var reading: Set<Int>?

  /// The table `table` of the database `connection` is connected to.
  public init(_ table: SQLTable, in connection: any SQLConnection) {
    (self.table, self.connection) = (table, connection)
  }

  /// The table's name.
  public var name: String { table.name }
  /// The table's columns as fields.
  public var schema: Schema { table.schema }
  /// How filters read the table's records.
  public var recordType: RecordType<DataRecord> { DataRecord.recordType(table.schema) }

  private func translation(_ query: BoundQuery, _ parameters: [String: Value], _ now: Instant)
    -> SQLTranslation
  {
    SQLTranslator(table: table, dialect: connection.dialect).translate(
      query, parameters: parameters, reading: reading, now: now)
  }

  /// Writes the conjuncts SQL answers exactly (and the sort and page, when all of them are)
  /// into the statement ``read(_:)`` runs; returns the rest.
  public func pushDown(_ query: BoundQuery, parameters: [String: Value], now: Instant)
    -> BoundQuery?
  {
    let translation = translation(query, parameters, now)
    statement = translation.select
    return translation.remainder
  }

  /// `count(*)` in the database, when SQL answers the whole filter and there is no page. (In
  /// a table whose columns may hold other values than their types', the number fields are
  /// read for their numbers: a text among them matches no comparison, as it is null to flt.)
  public func count(_ query: BoundQuery, parameters: [String: Value], now: Instant) throws
    -> Int?
  {
    guard query.limit == nil, query.offset == nil else { return nil }
    let counted = table.typesMayVary ? table.readingNumbersOnly : table
    let translation = SQLTranslator(table: counted, dialect: connection.dialect).translate(
      query, parameters: parameters, now: now)
    guard translation.residual == nil else { return nil }
    return try connection.count(translation.count)
  }

  /// The statement, and what flt does after it; for a table with foreign partitions, what
  /// the coordinator sends each shard (its plan's remote SQL), which says which parts of the
  /// statement run there.
  public func explanation(_ query: BoundQuery, parameters: [String: Value], now: Instant)
    -> String?
  {
    let translation = translation(query, parameters, now)
    guard !translation.partitions.isEmpty else { return translation.explanation }
    var lines = [translation.explanation]
    var statements = [("the rows", translation.select)]
    if translation.residual == nil { statements.append(("the count", translation.count)) }
    for (what, statement) in statements {
      guard let remote = try? shardStatements(statement), !remote.isEmpty else { continue }
      lines.append("for \(what), the coordinator sends:")
      lines += remote.map { "  " + $0 }
    }
    return lines.joined(separator: "\n")
  }

  /// The statements the coordinator's plan of `statement` sends to other servers
  /// (`postgres_fdw`'s "Remote SQL", from `EXPLAIN VERBOSE`), each after the foreign table
  /// it reads: `public.sales_2024: SELECT count(*) FROM public.sales WHERE ...`. What a
  /// statement asks that is not there runs on the coordinator. Empty for a table with no
  /// foreign partition.
  public func shardStatements(_ statement: SQLStatement) throws -> [String] {
    guard table.answersByPartition else { return [] }
    var remote: [String] = []
    var relation = ""
    try connection.forEachRow(
      SQLStatement(
        "EXPLAIN (VERBOSE, COSTS OFF) " + statement.text, parameters: statement.parameters)
    ) { row in
      guard case .text(let line) = row.first else { return true }
      let text = line.drop { $0 == " " || $0 == "-" || $0 == ">" }
      if let on = text.range(of: "Foreign Scan on ") {
        relation = String(text[on.upperBound...].prefix { $0 != " " }) + ": "
      } else if text.hasPrefix("Relations: "), let open = text.lastIndex(of: "(") {
        relation = String(text[text.index(after: open)...].prefix { $0 != ")" }) + ": "
      } else if text.hasPrefix("Remote SQL: ") {
        remote.append(relation + text.dropFirst("Remote SQL: ".count))
      }
      return true
    }
    return remote
  }

  /// Runs the statement of the query pushed down (every row, when none was), handing its rows
  /// over by column, 1,024 at a time.
  public func read(_ body: (DataBlock) throws -> Bool) throws {
    var builder = ColumnBuilder()
    var rows = 0
    func hand() throws -> Bool {
      let full = builder
      (builder, rows) = (ColumnBuilder(), 0)
      return try body(.batches([RecordBatch(full.finish(table.schema))]))
    }
    let stopped = try forEachRow { record in
      builder.append(record)
      rows += 1
      return try rows < 1024 || hand()
    }
    if !stopped && rows > 0 { _ = try hand() }
  }

  /// Runs the statement of the query pushed down (every row, when none was), handing each
  /// row's values (in the schema's order) to `body` until it returns false. Returns whether
  /// it did.
  @discardableResult
  public func forEachRow(_ body: ([Value]) throws -> Bool) throws -> Bool {
    let select = statement ?? translation(BoundQuery(filter: nil), [:], Instant(seconds: 0)).select
    var decoder = RowDecoder(table, connection.dialect)
    defer { closingWarnings = decoder.notNumbersSummary }
    var fetched = 0
    var (problem, stopped): ((any Error)?, Bool) = (nil, false)
    try connection.forEachRow(select) { row in
      fetched += 1
      guard let record = decoder.decode(row) else {
        problem = decoder.problem(row, fetched)
        return false
      }
      do {
        stopped = try !body(record)
      } catch {
        problem = error
      }
      return !stopped && problem == nil
    }
    if let problem { throw problem }
    return stopped
  }
}

extension TableSource: AggregatingSource {
  /// The stats by one `GROUP BY`, when SQL computes them exactly (see
  /// `SQLConnection.stats(_:on:values:now:)`); nil otherwise.
  public func stats(_ stats: BoundStats, parameters: [String: Value], now: Instant) throws
    -> StatsResult?
  {
    try connection.stats(stats, on: table, values: parameters, now: now)
  }

  /// The statement that computes `stats`, when SQL gives them exactly.
  public func explanation(of stats: BoundStats, parameters: [String: Value], now: Instant)
    -> String?
  {
    SQLTranslator(table: table, dialect: connection.dialect).statsStatement(
      stats, parameters: parameters, now: now
    ).map { "in \(connection.dialect.rawValue): \($0.statement)" }
  }

  /// The statements that count the facets, when SQL gives them exactly (else the rows the
  /// shared part of the filter narrows to are counted in flt, as the session does).
  public func explanation(
    of counter: FacetCounter<[Value]>, parameters: [String: Value], now: Instant
  ) -> String? {
    guard
      let (total, fields) = DatabaseFacets.statements(
        counter, on: table, dialect: connection.dialect, values: parameters, now: now)
    else { return nil }
    return
      (fields.map { "in \(connection.dialect.rawValue): \($0)" }
      + ["in \(connection.dialect.rawValue), when the counts do not say it: \(total)"])
      .joined(separator: "\n")
  }

  /// The facets by a `GROUP BY` per field, or counted in flt from the rows the database
  /// narrows to (see `SQLConnection.count(_:on:parameters:values:now:)`): never nil.
  public func facets(_ counter: FacetCounter<[Value]>, parameters: [String: Value], now: Instant)
    throws -> FacetCounts?
  {
    try connection.count(
      counter, on: table, parameters: counter.parameterTypes, values: parameters, now: now)
  }
}
