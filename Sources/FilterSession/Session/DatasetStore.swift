import FilterDSL
import FilterData

/// Where a data set's records are, and how statements run over them: records loaded into
/// memory (``LoadedStore``) or a database table (``TableStore``). A session asks its data set's
/// store, never which kind it is.
///
/// Each statement's query comes with its names expanded; the store checks it against its
/// schema in the session's environment (``StatementRun/environment(_:)``), reports the
/// checker's warnings, and, unless the session only checks, runs it. Errors are thrown as
/// they come (a `FilterError`, a database's `DatabaseError`); the session places them.
protocol DatasetStore: AnyObject {
  /// The fields.
  var schema: Schema { get }
  /// For CSV, the header's columns, which output writes in that order; nil otherwise.
  var header: [String]? { get }
  /// The records, when they are in memory; nil when they stay where they are.
  var loaded: LoadedRecords? { get }
  /// What `load` says it loaded, after the data set's name: `12 records, 5 fields`.
  var summary: String { get }
  /// What `:datasets` says it holds: `12 records, 5 fields`, `table phones, 5 fields`.
  var size: String { get }

  /// The records `query` matches, sorted and paged; nil when only checking.
  func matches(_ query: Query, _ run: StatementRun) throws -> (MatchedRecords, FaultCounts)?
  /// How many records `filter` matches (all of them without one); nil when only checking.
  func count(_ filter: Expr?, _ run: StatementRun) throws -> (Int, FaultCounts)?
  /// How `query` runs, in words; nil when only checking.
  func explain(_ query: Query, _ run: StatementRun) throws -> StatementResult?
  /// The facets of `fields` (see `FacetCounter`); nil when only checking.
  func facets(_ fields: [FieldPath], _ filter: Expr?, _ run: StatementRun) throws
    -> FacetCounts?
  /// The rows of `stats` (see `StatsCounter`); nil when only checking.
  func stats(_ stats: StatsQuery, _ run: StatementRun) throws -> StatsResult?
  /// Checks `stats`, without computing them.
  func checkStats(_ stats: StatsQuery, _ run: StatementRun) throws
  /// What the live preview shows for `query`, checked whole; nil when `stop` said to stop.
  /// Throws what checking it throws.
  func preview(_ query: Query, _ run: StatementRun, until stop: () -> Bool) throws
    -> LivePreview?
  /// Checks the facets of `fields` over `filter`, without counting them.
  func checkFacets(_ fields: [FieldPath], _ filter: Expr?, _ run: StatementRun) throws
  /// The distinct values of the field at `path`, most frequent texts first (for completion).
  func values(of path: String) -> [Value]
}

/// What a statement runs with: the session's policy, parameters and clock, whether it only
/// checks, and where warnings go.
struct StatementRun {
  /// The statement's text, which its diagnostics point into.
  let source: SourceText
  let policy: SessionPolicy
  /// The parameters that have values, with their types.
  let parameters: (types: [String: ValueType], values: [String: Value])
  let now: Instant
  /// Whether the statement is only checked (`flt check`): nothing runs.
  let checkOnly: Bool
  /// Whether the checker's warnings are reported (not in the live preview).
  let reporting: Bool
  /// Whether messages carry colours.
  let styled: Bool
  /// Whether the user asked to stop.
  let interrupted: () -> Bool
  /// How long a live preview waits for a database (``Settings/previewSeconds``).
  let previewSeconds: Double
  /// Where the checker's warnings go.
  let report: ([Diagnostic]) -> Void
  /// Where other warnings go, as text.
  let warn: (String) -> Void

  /// The environment a query over records of `type` is checked and compiled in: the
  /// session's parameters and limits; without the data's values in messages when the policy
  /// says messages may not quote them.
  func environment<Root>(_ type: RecordType<Root>) -> FilterEnvironment<Root> {
    FilterEnvironment(
      policy.quotesDataValues ? type : type.withoutKnownValues(), parameters: parameters.types,
      limits: policy.parserLimits, evaluationLimits: policy.evaluationLimits)
  }

  /// The checker's warnings, reported when the statement reports them.
  func report(warnings: [Diagnostic]) {
    if reporting && !warnings.isEmpty { report(warnings) }
  }
}
