import FilterDSL

/// Translates bound queries into SQL for one table, exactly or not at all: each conjunct of the
/// filter's top-level `and` runs in the database when SQL gives the same answer as flt on
/// every row (three-valued logic included), narrows the rows there when SQL can only give a
/// necessary condition (text matched by code points rather than whole characters), and is
/// otherwise left to flt as the residual. Values are only ever parameters, and names only
/// ever the schema's, quoted, so no text of the user's becomes SQL.
///
/// ```swift
/// let table = SQLTable(name: "phones", schema: schema)
/// let bound = try FilterEnvironment(RecordType.dynamic(schema)).check(query).get(source)
/// let sql = SQLTranslator(table: table, dialect: .postgresql).translate(bound)
/// // sql.select.text: SELECT ... FROM "phones" WHERE ("price" < $1::bigint) ...
/// ```
///
/// Text is compared by code points, which is flt's order for text in Unicode's composed form
/// (NFC), the form nearly all data is in (in PostgreSQL, under the "C" collation, whatever
/// the database's own). Nested fields are read from their column's JSON; `contains`, `any`,
/// `all` and `none` on a list column test its elements (values or records) there;
/// arithmetic and flt's functions give null where flt's faults. `[c]`, `[d]`, `matches` (in
/// PostgreSQL) and the text functions are exact on printable ASCII and narrow the rest. A
/// value that reads no field is computed by flt and sent as a parameter. Conversions, date
/// functions and date arithmetic on fields, and fields through lists of records, stay in flt.
public struct SQLTranslator: Sendable {
  /// The table queried.
  public let table: SQLTable
  /// The dialect written.
  public let dialect: SQLDialect

  /// A translator for queries on `table` in `dialect`.
  public init(table: SQLTable, dialect: SQLDialect) {
    self.table = table
    self.dialect = dialect
  }

  /// `query`, with `parameters` the values of its `$` parameters by name. With `reading`,
  /// only those columns (by the slot of their field) are selected, the others read as NULL:
  /// for a caller that looks at some fields only. With `now`, the time flt evaluates the
  /// residual at, values that read the clock (`today() - 30d`) become parameters too.
  public func translate(
    _ query: BoundQuery, parameters: [String: Value] = [:], reading: Set<Int>? = nil,
    now: Instant? = nil
  ) -> SQLTranslation {
    var writer = SQLWriter(dialect, table, values: parameters, now: now)
    var conditions: [String] = []
    var pushed: [BoundExpr] = []
    var narrowed: [BoundExpr] = []
    var residual: [BoundExpr] = []
    for conjunct in query.filter?.conjuncts ?? [] {
      guard let fragment = writer.attempt({ $0.truth(conjunct) }) else {
        residual.append(conjunct)
        continue
      }
      conditions.append(fragment.text)
      if fragment.exact {
        pushed.append(conjunct)
      } else {
        narrowed.append(conjunct)
        residual.append(conjunct)
      }
    }
    var from = " FROM \(dialect.quote(table.name))"
    var whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    let count = SQLStatement(counting(whereClause), parameters: writer.parameters, isSmall: true)

    // Sorting: every key in SQL, or none (and then none of their parameters); ties in input
    // order where the table has one.
    let written = writer.attempt { writer -> [String]? in
      var keys: [String] = []
      for key in query.ordering {
        guard let value = writer.exactValue(key.key) else { return nil }
        keys.append(
          writer.ordered(value, key.key.type) + (key.direction == .ascending ? " ASC" : " DESC")
            + (key.nullsFirst ? " NULLS FIRST" : " NULLS LAST"))
      }
      return keys
    }
    let sorts = written != nil
    var keys = written ?? []
    if let rowOrder = table.rowOrder { keys.append(dialect.quote(rowOrder)) }
    let orderClause = keys.isEmpty ? "" : " ORDER BY " + keys.joined(separator: ", ")

    // Paging, when the database returns exactly the query's rows in its order.
    var pageClause = ""
    var pages = query.limit == nil && query.offset == nil
    if !pages, sorts, residual.isEmpty, let limit = pageCount(query.limit, parameters),
      let offset = pageCount(query.offset, parameters)
    {
      pages = true
      var page = writer
      // No limit is `LIMIT ALL` in PostgreSQL, `LIMIT -1` in SQLite (which needs a limit
      // before an offset).
      let limitText =
        dialect == .postgresql && limit == nil
        ? "ALL" : page.bind(.int(Int64(limit ?? -1)), .int) ?? "NULL"
      pageClause = " LIMIT " + limitText
      if let offset, let offsetText = page.bind(.int(Int64(offset)), .int) {
        pageClause += " OFFSET " + offsetText
      }
      // A partitioned table's shards each sort their own matches and send the first
      // `offset + limit` of them; the coordinator sorts those again and takes the page.
      if let limit, table.answersByPartition,
        let top = page.bind(.int(Int64(limit + (offset ?? 0))), .int)
      {
        let columns = (table.columns + [table.rowOrder].compactMap { $0 }).map(dialect.quote)
          .joined(separator: ", ")
        from =
          " FROM ("
          + eachPartition {
            "(SELECT \(columns) FROM \($0)\(whereClause)\(orderClause) LIMIT \(top))"
          } + ") AS \(dialect.quote(table.name))"
        whereClause = ""
      }
      writer = page
    }
    let columns = zip(table.columns, table.schema.fields).enumerated().map { slot, column in
      reading?.contains(slot) == false
        ? "NULL" : dialect.selected(table.reading(slot, dialect), column.1.type)
    }.joined(separator: ", ")
    let limited = pages && query.limit != nil
    let select = SQLStatement(
      "SELECT " + columns + from + whereClause + orderClause + pageClause,
      parameters: writer.parameters, isSmall: limited)
    return SQLTranslation(
      dialect: dialect, select: select, count: count, pushed: pushed, narrowed: narrowed,
      residual: residual, sortsInDatabase: sorts, pagesInDatabase: pages, query: query,
      partitions: table.answersByPartition ? table.partitions : [])
  }

  /// `SELECT value, count(*) ... GROUP BY 1` over the rows where every one of `parts` is
  /// true: how many rows have each value (null among them); nil unless SQL answers the parts
  /// and the value exactly.
  public func groupStatement(
    counting value: BoundExpr, where parts: [BoundExpr], parameters: [String: Value] = [:],
    now: Instant? = nil
  ) -> SQLStatement? {
    var writer = SQLWriter(dialect, table, values: parameters, now: now)
    // A column is read back as a select list reads it (PostgreSQL's date-times and durations
    // in the form flt decodes).
    var read = writer.exactValue(value)
    var column: ValueType?
    if case .field(let field) = value.kind, field.isTopLevel, field.slot < table.columns.count {
      (read, column) = (table.reading(field.slot, dialect), field.type)
    }
    guard let read, let condition = writer.exactly(parts) else { return nil }
    guard table.answersByPartition else {
      let selected = column.map { dialect.selected(read, $0) } ?? read
      return SQLStatement(
        "SELECT \(selected), count(*) FROM \(dialect.quote(table.name))\(condition) GROUP BY 1",
        parameters: writer.parameters, isSmall: true)
    }
    // Each shard groups its own rows; the coordinator adds up the counts of each value.
    let text =
      "SELECT \(column.map { dialect.selected("v", $0) } ?? "v"), sum(n)::bigint FROM ("
      + eachPartition { "SELECT \(read) AS v, count(*) AS n FROM \($0)\(condition) GROUP BY 1" }
      + ") AS parts GROUP BY v"
    return SQLStatement(text, parameters: writer.parameters, isSmall: true)
  }

  /// `SELECT count(*)` of the rows where every one of `parts` is true; nil unless SQL answers
  /// them exactly.
  public func countStatement(
    where parts: [BoundExpr], parameters: [String: Value] = [:], now: Instant? = nil
  ) -> SQLStatement? {
    var writer = SQLWriter(dialect, table, values: parameters, now: now)
    guard let condition = writer.exactly(parts) else { return nil }
    return SQLStatement(counting(condition), parameters: writer.parameters, isSmall: true)
  }

  /// `SELECT count(*)` of the rows meeting `condition` (a `WHERE` clause, or nothing): of
  /// each partition, added up, when the table is asked by partition.
  private func counting(_ condition: String) -> String {
    guard table.answersByPartition else {
      return "SELECT count(*) FROM \(dialect.quote(table.name))\(condition)"
    }
    return "SELECT coalesce(sum(n), 0)::bigint FROM ("
      + eachPartition { "SELECT count(*) AS n FROM \($0)\(condition)" } + ") AS parts"
  }

  /// The statement `part` writes for each of the table's partitions (given its quoted name),
  /// joined by `UNION ALL`: one statement, so that the coordinator sends each part to its
  /// shard at once (`postgres_fdw`'s `async_capable`).
  private func eachPartition(_ part: (String) -> String) -> String {
    table.partitions.map { part(dialect.quote($0.schema) + "." + dialect.quote($0.name)) }
      .joined(separator: " UNION ALL ")
  }

  /// The value of `limit` or `offset` as flt takes it (negative is 0; null, or none, is no
  /// limit: `.some(nil)`); nil when it is not a constant or parameter of known value.
  private func pageCount(_ expr: BoundExpr?, _ parameters: [String: Value]) -> Int?? {
    guard let expr else { return .some(nil) }
    let value: Value
    switch expr.kind {
    case .constant(let constant): value = constant
    case .parameter(let parameter): value = parameters[parameter.name] ?? .null
    default: return nil
    }
    switch value {
    case .null: return .some(nil)
    case .int(let n): return .some(Int(Swift.max(0, Swift.min(n, Int64(Int.max / 2)))))
    default: return nil
    }
  }
}

/// `stats` in the database: each group's parts of each aggregate, for flt to finish.
extension SQLTranslator {
  /// What one aggregate of a `stats` reads from a row of ``statsStatement(_:parameters:now:)``.
  public enum StatsPart: Sendable {
    /// `count()`: the group's records (the row's count of records).
    case records
    /// `count(x)`: the values that are not null.
    case count(column: Int)
    /// `sum(x)`, `mean(x)` of integers: the count of values, and their sum in two parts that
    /// cannot overflow, `sum(x >> 32)` and `sum(x & 0xFFFFFFFF)`, added up exactly in flt.
    case integerSum(count: Int, high: Int, low: Int)
    /// `min(x)`, `max(x)` of integers: the count of values, and the least or greatest.
    case extremum(count: Int, value: Int)

    /// The columns of the row it reads.
    public var columns: [Int] {
      switch self {
      case .records: []
      case .count(let column): [column]
      case .integerSum(let count, let high, let low): [count, high, low]
      case .extremum(let count, let value): [count, value]
      }
    }
  }

  /// `SELECT keys, count(*), parts FROM table WHERE filter GROUP BY keys`: the parts each
  /// aggregate of `stats` is made of in each group of SQL's (see ``StatsPart``); the columns
  /// of the keys come first, then the records, then the parts. Nil unless SQL gives them
  /// exactly: the filter translates whole, each key is a top-level column of integers, text,
  /// dates or true/false, and each aggregate is `count()`, `count(x)` of a top-level column,
  /// or `sum`, `mean`, `min`, `max` of a top-level column of integers. (Text keys may be split
  /// where flt's equal texts differ in bytes; flt merges those groups.) A table asked by
  /// partition: each partition groups its own rows, and the coordinator adds up their parts
  /// (counts and sums summed, the least of the least, the greatest of the greatest).
  public func statsStatement(
    _ stats: BoundStats, parameters: [String: Value] = [:], now: Instant? = nil
  ) -> (statement: SQLStatement, parts: [StatsPart])? {
    var writer = SQLWriter(dialect, table, values: parameters, now: now)
    guard let condition = writer.exactly(stats.filter.map { [$0] } ?? []) else { return nil }
    func column(_ expr: BoundExpr?, _ types: [ValueType]) -> Int? {
      guard let expr, case .field(let field) = expr.kind, field.isTopLevel,
        field.slot < table.columns.count, types.contains(field.type)
      else { return nil }
      return field.slot
    }
    // Each column as the table (or a partition) computes it, and how the coordinator
    // combines the partitions' column of that name.
    var selected: [(sql: String, combined: (String) -> String)] = []
    func add(_ sql: String, _ combined: @escaping (String) -> String) -> Int {
      selected.append((sql, combined))
      return selected.count - 1
    }
    var keyTypes: [ValueType] = []
    for group in stats.groups {
      guard let slot = column(group.key, [.int, .string, .bool, .date]) else { return nil }
      let type = group.key.type
      keyTypes.append(type)
      _ = add(table.reading(slot, dialect)) { dialect.selected($0, type) }
    }
    let summed: (String) -> String = { "sum(\($0))" }
    _ = add("count(*)") { "sum(\($0))::bigint" }
    var parts: [StatsPart] = []
    for aggregate in stats.aggregates {
      switch aggregate.function {
      case .count:
        guard aggregate.argument != nil else {
          parts.append(.records)
          continue
        }
        guard let slot = column(aggregate.argument, [.int, .double, .string, .bool, .date])
        else { return nil }
        parts.append(.count(column: add("count(\(table.testing(slot, dialect)))", summed)))
      case .sum, .mean, .min, .max:
        guard let slot = column(aggregate.argument, [.int]) else { return nil }
        let x = table.testing(slot, dialect)
        let count = add("count(\(x))", summed)
        switch aggregate.function {
        case .sum, .mean:
          parts.append(
            .integerSum(
              count: count, high: add("sum((\(x)) >> 32)", summed),
              low: add("sum((\(x)) & 4294967295)", summed)))
        default:
          let function = aggregate.function.rawValue
          parts.append(
            .extremum(count: count, value: add("\(function)(\(x))") { "\(function)(\($0))" }))
        }
      case .distinct, .median, .quantile:
        return nil
      }
    }
    let keys = stats.groups.indices.map { String($0 + 1) }.joined(separator: ", ")
    let grouped = keys.isEmpty ? "" : " GROUP BY \(keys)"
    guard table.answersByPartition else {
      let list = selected.enumerated().map { index, column in
        index < keyTypes.count ? dialect.selected(column.sql, keyTypes[index]) : column.sql
      }
      let text =
        "SELECT \(list.joined(separator: ", ")) FROM \(dialect.quote(table.name))\(condition)"
        + grouped
      return (SQLStatement(text, parameters: writer.parameters, isSmall: true), parts)
    }
    let part = selected.enumerated().map { "\($1.sql) AS c\($0)" }.joined(separator: ", ")
    let whole = selected.enumerated().map { $1.combined("c\($0)") }.joined(separator: ", ")
    let text =
      "SELECT \(whole) FROM ("
      + eachPartition { "SELECT \(part) FROM \($0)\(condition)\(grouped)" } + ") AS parts"
      + grouped
    return (SQLStatement(text, parameters: writer.parameters, isSmall: true), parts)
  }
}
