import FilterDSL
import FilterData

/// The statements that read the current data: a query, `count`, `explain`, `facets`.
extension Session {
  /// A query: its matches, sorted and paged.
  func matches(_ query: Query, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> StatementResult
  {
    let (data, compiled) = try compile(query, statement, context)
    if checkOnly { return .none }
    let (matches, faults) = compiled.run(data.rows, until: interrupted)
    try context.stopIfInterrupted(self)
    return .records(matches.map(data.records.record), from: data, faults: faults)
  }

  /// `count` or `count <filter>`: the number of matching records.
  func count(_ filter: Expr?, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> StatementResult
  {
    let (data, compiled) = try compile(Query(filter: filter), statement, context)
    if checkOnly { return .none }
    let (matches, faults) = compiled.run(data.rows, until: interrupted)
    try context.stopIfInterrupted(self)
    return .count(matches.count, faults: faults)
  }

  /// `explain <query>`: the compiled chain.
  func explain(_ query: Query, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> StatementResult
  {
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
    let counter: FacetCounter<Int>
    do throws(FilterError) {
      counter = try FacetCounter(
        fields, filter: expanded, source: context.source, for: data.recordType,
        parameters: parameters.types)
    } catch {
      throw context.error(error)
    }
    if checkOnly { return .none }
    let result = counter.binding(parameters.values, now: clock()).count(
      data.rows, until: interrupted)
    try context.stopIfInterrupted(self)
    return .facets(result)
  }

  /// The query with names expanded, checked and compiled against the current data; its
  /// warnings are reported.
  func compile(_ query: Query, _ statement: Stmt, _ context: Context) throws(SessionError)
    -> (Dataset, CompiledQuery<Int>)
  {
    let data = try requireData(statement, context)
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
    // No records: the fields the query names have no value, and nothing matches (as the
    // command does with an empty file).
    data.reader.assumeFields(expanded.fieldNames)
    // Parameters with values are bound to the compiled query, as an embedder binds them.
    let parameters = definitions.bound
    do {
      let compiled = try CompiledQuery(
        expanded, source: context.source, for: data.recordType, parameters: parameters.types)
      report(compiled.filter?.warnings ?? [], context)
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
