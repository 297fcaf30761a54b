import FilterDSL

/// What a session may do: for scripts and statements that an embedder runs on behalf of
/// people it does not trust (a filter service that runs its users' `.flt` scripts). The
/// default trusts the script: it may load any file or database, without limits.
///
/// ```swift
/// let session = Session(output: sink)
/// session.policy = .untrusted(loadingFrom: "/srv/catalog/data")
/// ```
public struct SessionPolicy: Sendable {
  /// The folder `load` may read files from (at any depth, after symlinks and `..` are
  /// resolved); nil for anywhere.
  public var loadFolder: String?
  /// Whether `load ... table` may open a database (a SQLite file or a PostgreSQL URL).
  public var allowsDatabases: Bool
  /// The parser's limits on each script and entry.
  public var parserLimits: ParserLimits
  /// The limits on the work of each query, count and facet count.
  public var evaluationLimits: EvaluationLimits
  /// Whether messages may quote the data: the checker's "did you mean" for a text value,
  /// which it takes from the values loaded, and the line and values a data error or warning
  /// shows. When not, a data error says only its code, file, line and column, and a `load`'s
  /// warnings are counted instead of shown. Field names are always shown.
  public var quotesDataValues: Bool
  /// Whether the session's statements may not raise its limits (`set memory none`, or more
  /// than it has): an untrusted script cannot lift what the embedder set.
  public var fixesItsLimits: Bool

  /// A policy of these parts.
  public init(
    loadFolder: String? = nil, allowsDatabases: Bool = true,
    parserLimits: ParserLimits = .default, evaluationLimits: EvaluationLimits = .default,
    quotesDataValues: Bool = true, fixesItsLimits: Bool = false
  ) {
    self.loadFolder = loadFolder
    self.allowsDatabases = allowsDatabases
    self.parserLimits = parserLimits
    self.evaluationLimits = evaluationLimits
    self.quotesDataValues = quotesDataValues
    self.fixesItsLimits = fixesItsLimits
  }

  /// Everything allowed: scripts written by the people running them.
  public static let trusted = SessionPolicy()

  /// For untrusted scripts: files only from `folder`, no databases, the untrusted parser and
  /// evaluation limits (after named filters are expanded, too), no values from the data in
  /// messages, and limits the script cannot raise.
  public static func untrusted(loadingFrom folder: String) -> SessionPolicy {
    SessionPolicy(
      loadFolder: folder, allowsDatabases: false, parserLimits: .untrusted,
      evaluationLimits: .untrusted, quotesDataValues: false, fixesItsLimits: true)
  }
}
