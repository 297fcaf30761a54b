import FilterDSL
import FilterData

/// What the REPL shows under a line while it is being typed (live results): how many records
/// the filter matches, or the first error in it.
public enum LivePreview: Equatable, Sendable {
  /// Nothing to show: an empty line, a command, or a statement that does not filter.
  case nothing
  /// The filter matches `count` of the current data's `total` records.
  case matches(Int, of: Int)
  /// The statement checks (its data is in a database, where it is not run while typed).
  case checked
  /// The first error of the statement as typed so far.
  case problem(Diagnostic)
}

extension Session {
  /// What `source` (one REPL entry, as typed so far) would do, without doing it: the first
  /// syntax or checking error, or, for a query, `count`, `facets ... where` or `explain`
  /// over data in memory, how many records its filter matches. Nothing changes: no warning
  /// is printed, no transcript entry made, no setting or definition touched; `load`, `let`,
  /// `set`, `use` and `show` are only parsed. Returns nil when `stop` said to stop (the
  /// user typed on) before the count finished.
  public func preview(_ source: SourceText, until stop: () -> Bool) -> LivePreview? {
    let parsed = Parser.parseScript(source, limits: policy.parserLimits)
    if let error = parsed.diagnostics.sortedByPosition().first(where: \.isError) {
      return .problem(error)
    }
    guard let statements = parsed.value?.statements, statements.count == 1,
      let current
    else { return .nothing }
    let statement = statements[0]
    // Empty data takes any field a statement names (see `compile`): nothing to check.
    if current.database == nil && current.records.count == 0 {
      switch statement.kind {
      case .query, .count, .facets, .explain: return .matches(0, of: 0)
      default: return .nothing
      }
    }
    var context = Context(source: source)
    context.statement = statement.range
    let filter: Expr?
    do throws(SessionError) {
      switch statement.kind {
      case .query(let query), .explain(let query):
        _ = try compile(query, statement, context, reporting: false)
        filter = query.filter
      case .count(let written):
        filter = written
      case .facets(let fields, let written):
        let expanded = try written.map { (filter) throws(SessionError) in
          try expand(filter, context, constants: false)
        }
        do throws(FilterError) {
          _ = try environment(current.recordType, parameters: definitions.bound.types)
            .facets(fields, filter: expanded, source: source)
        } catch {
          throw context.error(error)
        }
        filter = written
      default:
        return .nothing
      }
      let (data, compiled) = try compile(
        Query(filter: filter), statement, context, reporting: false)
      if data.database != nil { return .checked }
      guard let compiledFilter = compiled.filter else {
        return .matches(data.records.count, of: data.records.count)
      }
      var stopped = false
      let (count, _) = compiledFilter.count(data.rows) {
        stopped = stopped || stop()
        return stopped
      }
      return stopped ? nil : .matches(count, of: data.records.count)
    } catch {
      return error.diagnostics.first(where: \.isError).map(LivePreview.problem) ?? .nothing
    }
  }
}
