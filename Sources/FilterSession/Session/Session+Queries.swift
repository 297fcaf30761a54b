import FilterDSL
import FilterData
import FilterDatabase

/// The statements that read the current data: a query, `count`, `explain`, `facets`. Each
/// runs in the data set's store (records in memory, or a database table), which the session
/// never asks the kind of.
extension Session {
  /// A query: its matches, sorted and paged.
  func matches(_ query: Query, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> StatementResult
  {
    let data = try requireData(statement, context)
    let expanded = try expand(query, context)
    guard
      let (records, faults) = try perform(context, { run in try data.store.matches(expanded, run) })
    else { return .none }
    return .records(records, from: data, faults: faults)
  }

  /// `count` or `count <filter>`: the number of matching records.
  func count(_ filter: Expr?, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> StatementResult
  {
    let data = try requireData(statement, context)
    let expanded = try filter.map { (filter) throws(SessionError) in
      try expand(filter, context, constants: false)
    }
    guard let (count, faults) = try perform(context, { run in try data.store.count(expanded, run) })
    else { return .none }
    return .count(count, faults: faults)
  }

  /// `explain <query>`: the compiled chain, or what runs in the database and what in flt.
  func explain(_ query: Query, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> StatementResult
  {
    let data = try requireData(statement, context)
    let expanded = try expand(query, context)
    return try perform(context) { run in try data.store.explain(expanded, run) } ?? .none
  }

  /// `facets color, diskSpace where <filter>`: each field's values with their counts,
  /// disjunctively (see ``FacetCounter``).
  func facets(_ fields: [FieldPath], _ filter: Expr?, _ statement: Stmt, _ context: Context)
    throws(SessionError) -> StatementResult
  {
    let data = try requireData(statement, context)
    let expanded = try filter.map { (filter) throws(SessionError) in
      try expand(filter, context, constants: false)
    }
    return try perform(context) { run in try data.store.facets(fields, expanded, run) }
      .map(StatementResult.facets) ?? .none
  }

  /// `stats mean(price) by color where <filter>`: a row of aggregates per group.
  func stats(_ stats: StatsQuery, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> StatementResult
  {
    let data = try requireData(statement, context)
    let expanded = try expand(stats, context)
    return try perform(context) { run in try data.store.stats(expanded, run) }
      .map(StatementResult.stats) ?? .none
  }

  /// `stats` with its named filters and parameters expanded, in its filter, keys and items.
  func expand(_ stats: StatsQuery, _ context: Context) throws(SessionError) -> StatsQuery {
    var expanded = stats
    if let filter = stats.filter { expanded.filter = try expand(filter, context, constants: false) }
    for path in [\StatsQuery.items, \StatsQuery.groups] {
      for i in expanded[keyPath: path].indices {
        expanded[keyPath: path][i].expr = try expand(
          expanded[keyPath: path][i].expr, context, constants: false)
      }
    }
    return expanded
  }

  /// How the statement of `context` runs: the session's policy, parameters and clock.
  func statementRun(_ context: Context, reporting: Bool = true) -> StatementRun {
    StatementRun(
      source: context.source, policy: policy, parameters: definitions.bound, now: clock(),
      checkOnly: checkOnly, reporting: reporting, styled: styled, interrupted: interrupted,
      previewSeconds: settings.previewSeconds,
      report: { [self] diagnostics in report(diagnostics, context) }, warn: warn)
  }

  /// Runs `work` with the statement's run; its errors become the statement's (a query that
  /// does not check, a database's error), and an interruption stops it.
  func perform<T>(
    _ context: Context, reporting: Bool = true, _ work: (StatementRun) throws -> T
  ) throws(SessionError) -> T {
    let result: T
    do {
      result = try work(statementRun(context, reporting: reporting))
    } catch let error as FilterError {
      throw context.error(error)
    } catch let error as SessionError {
      throw error
    } catch {
      try context.stopIfInterrupted(self)
      let (message, help) =
        switch error {
        case let error as DatabaseError: (error.message, error.help)
        case let error as ScanError: (error.message, error.help)
        case let error as DataError: (error.diagnostic.message, error.diagnostic.help)
        default: ("\(error)", nil)
        }
      throw context.error(
        Diagnostic(.databaseError, at: context.statement, message: message, help: help))
    }
    try context.stopIfInterrupted(self)
    return result
  }

  /// The query with the session's names (filters, parameters) expanded.
  func expand(_ query: Query, _ context: Context) throws(SessionError) -> Query {
    var expanded = query
    if let filter = query.filter { expanded.filter = try expand(filter, context, constants: false) }
    for i in expanded.ordering.indices {
      expanded.ordering[i].key = try expand(expanded.ordering[i].key, context, constants: false)
    }
    for page in [\Query.limit, \Query.offset] {
      if let count = expanded[keyPath: page] {
        expanded[keyPath: page] = try expand(count, context, constants: false)
      }
    }
    return expanded
  }

  /// How long `seconds` took, as `set time on` prints it.
  static func timing(_ seconds: Double) -> String {
    seconds < 1
      ? "\((seconds * 10_000).rounded() / 10) ms" : "\((seconds * 1000).rounded() / 1000) s"
  }
}
