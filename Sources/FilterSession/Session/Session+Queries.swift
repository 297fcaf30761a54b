import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL

/// The statements that read the current data: a query, `count`, `explain`, `facets`.
extension Session {
  /// A query: its matches, sorted and paged.
  func matches(_ query: Query, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> StatementResult
  {
    if let (data, database, values) = try onDatabase(query, statement, context) {
      if checkOnly { return .none }
      let (records, faults) = try run(on: database.connection, context) {
        () throws(DatabaseError) in
        try database.records(values, now: clock())
      }
      return .records(
        MatchedRecords(records.map { DataRecord($0, schema: data.schema) }), from: data,
        faults: faults)
    }
    let (data, compiled) = try compile(query, statement, context)
    if checkOnly { return .none }
    let (matches, faults) = compiled.run(data.rows, until: interrupted)
    try context.stopIfInterrupted(self)
    if data.records.changedOnDisk {
      warn(
        "warning: \(data.path) changed since it was loaded; its records are printed from the values loaded then (load it again to read the new file)\n"
      )
    }
    return .records(MatchedRecords(rows: matches, of: data.records), from: data, faults: faults)
  }

  /// `count` or `count <filter>`: the number of matching records.
  func count(_ filter: Expr?, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> StatementResult
  {
    if let (_, database, values) = try onDatabase(Query(filter: filter), statement, context) {
      if checkOnly { return .none }
      let count = try run(on: database.connection, context) { () throws(DatabaseError) in
        try database.count(values, now: clock())
      }
      return .count(count, faults: FaultCounts())
    }
    let (data, compiled) = try compile(Query(filter: filter), statement, context)
    if checkOnly { return .none }
    let (count, faults) =
      compiled.filter?.count(data.rows, until: interrupted) ?? (data.rows.count, FaultCounts())
    try context.stopIfInterrupted(self)
    return .count(count, faults: faults)
  }

  /// `explain <query>`: the compiled chain.
  func explain(_ query: Query, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> StatementResult
  {
    if let (_, database, values) = try onDatabase(query, statement, context) {
      return checkOnly
        ? .none : .translation(database.translation(values, now: clock()).explanation)
    }
    let (_, compiled) = try compile(query, statement, context)
    return checkOnly ? .none : .plan(compiled.plan)
  }

  /// `facets color, diskSpace where <filter>`: each field's values with their counts,
  /// disjunctively (see ``FacetCounter``).
  func facets(_ fields: [FieldPath], _ filter: Expr?, _ statement: Stmt, _ context: Context)
    throws(SessionError) -> StatementResult
  {
    let data = try requireData(statement, context)
    var expanded: Expr?
    if let filter { expanded = try expand(filter, context, constants: false) }
    let parameters = definitions.bound
    // The counter, checked against the data's fields, with the parameters' values bound.
    func counter<Root>(for type: RecordType<Root>) throws(SessionError) -> FacetCounter<Root> {
      do throws(FilterError) {
        return try environment(type, parameters: parameters.types)
          .facets(fields, filter: expanded, source: context.source)
          .binding(parameters.values, now: clock())
      } catch {
        throw context.error(error)
      }
    }
    if let database = data.database {
      let counter = try counter(for: .dynamic(data.schema))
      if checkOnly { return .none }
      return .facets(
        try run(on: database.connection, context) { () throws(DatabaseError) in
          try database.connection.count(
            counter, on: database.table, parameters: parameters.types, values: parameters.values,
            now: clock())
        })
    }
    let counter = try counter(for: data.recordType)
    if checkOnly { return .none }
    let result = counter.count(data.rows, until: interrupted)
    try context.stopIfInterrupted(self)
    return .facets(result)
  }

  /// For data in a database: the query with names expanded and checked against the table,
  /// to run there, with the parameters' values; nil for data in memory.
  func onDatabase(_ query: Query, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> (Dataset, DatabaseQuery, [String: Value])?
  {
    let data = try requireData(statement, context)
    guard let database = data.database else { return nil }
    let expanded = try expand(query, context)
    let parameters = definitions.bound
    do {
      let compiled = try environment(.dynamic(data.schema), parameters: parameters.types)
        .compileQuery(expanded, source: context.source)
      report(compiled.filter?.warnings ?? [], context)
      let query = DatabaseQuery(
        compiled.bound, on: database.table, in: database.connection,
        parameters: parameters.types)
      return (data, query, parameters.values)
    } catch {
      throw context.error(error)
    }
  }

  /// Runs `work` on `connection`; its errors are the statement's. While it runs, an
  /// interruption (Ctrl-C at the REPL) cancels the statement in the database.
  func run<T>(
    on connection: any SQLConnection, _ context: Context, _ work: () throws(DatabaseError) -> T
  ) throws(SessionError) -> T {
    let watch = InterruptWatch(connection, interrupted)
    defer { watch.stop() }
    do {
      return try work()
    } catch {
      try context.stopIfInterrupted(self)
      throw context.error(
        Diagnostic(
          .databaseError, at: context.statement, message: error.message, help: error.help))
    }
  }

  /// The query with the session's names (filters, parameters) expanded.
  private func expand(_ query: Query, _ context: Context) throws(SessionError) -> Query {
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

  /// The query with names expanded, checked and compiled against the current data; its
  /// warnings are reported unless `reporting` is false.
  func compile(
    _ query: Query, _ statement: Stmt, _ context: Context, reporting: Bool = true
  ) throws(SessionError) -> (Dataset, CompiledQuery<Int>) {
    let data = try requireData(statement, context)
    let expanded = try expand(query, context)
    // No records: the fields the query names have no value, and nothing matches (as the
    // command does with an empty file).
    data.reader?.assumeFields(expanded.fieldNames)
    // Parameters with values are bound to the compiled query, as an embedder binds them.
    let parameters = definitions.bound
    do {
      let compiled = try environment(data.recordType, parameters: parameters.types)
        .compileQuery(expanded, source: context.source)
      if reporting { report(compiled.filter?.warnings ?? [], context) }
      return (data, compiled.binding(parameters.values, now: clock()))
    } catch {
      throw context.error(error)
    }
  }

  /// How long `seconds` took, as `set time on` prints it.
  static func timing(_ seconds: Double) -> String {
    seconds < 1
      ? "\((seconds * 10_000).rounded() / 10) ms" : "\((seconds * 1000).rounded() / 1000) s"
  }
}
