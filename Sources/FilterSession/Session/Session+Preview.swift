import FilterDSL
import FilterData

/// What the REPL shows under a line while it is being typed (live results): how many records
/// the filter matches, or the first error in it.
public enum LivePreview: Equatable, Sendable {
  /// Nothing to show: an empty line, a command, or a statement that does not filter.
  case nothing
  /// The filter matches `count` of the current data's `total` records.
  case matches(Int, of: Int)
  /// The statement checks; its data is in a database, which did not count its matches in the
  /// time a preview waits (``Settings/previewSeconds``).
  case checked
  /// The first error of the statement as typed so far.
  case problem(Diagnostic)
}

extension Session {
  /// What `source` (one REPL entry, as typed so far) would do, without doing it: the first
  /// syntax or checking error, or, for a query, `count`, `facets`, `stats` or `explain`,
  /// how many records its filter matches (in memory, or counted by a table's database). Nothing changes: no warning
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
    var context = Context(source: source)
    context.statement = statement.range
    do throws(SessionError) {
      let query: Query
      switch statement.kind {
      case .query(let written), .explain(let written):
        query = try expand(written, context)
      case .count(let written):
        query = Query(
          filter: try written.map { (filter) throws(SessionError) in
            try expand(filter, context, constants: false)
          })
      case .facets(let fields, let written):
        let filter = try written.map { (filter) throws(SessionError) in
          try expand(filter, context, constants: false)
        }
        try perform(context, reporting: false) { run in
          try current.store.checkFacets(fields, filter, run)
        }
        query = Query(filter: filter)
      case .stats(let written):
        let stats = try expand(written, context)
        try perform(context, reporting: false) { run in try current.store.checkStats(stats, run) }
        query = Query(filter: stats.filter)
      default:
        return .nothing
      }
      return try perform(context, reporting: false) { run in
        try current.store.preview(query, run, until: stop)
      }
    } catch {
      return error.diagnostics.first(where: \.isError).map(LivePreview.problem) ?? .nothing
    }
  }
}
