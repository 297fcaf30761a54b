/// Everything a filter is checked and compiled against, in one value: the record type (its
/// schema), the parameters' types, the functions, the parser's limits. The front door of the
/// library (cel-go's `Env`): make one, then check, compile and count with it as often as
/// needed.
///
/// ```swift
/// let env = FilterEnvironment(phones, parameters: ["budget": .int])
/// let query = try env.compileQuery("price <= $budget order by price desc limit 5")
/// let cheapest = query.binding(["budget": .int(800)]).run(catalog).records
/// ```
///
/// The initializers of ``CompiledFilter``, ``CompiledQuery`` and ``FacetCounter`` are
/// shorthands for an environment's methods.
public struct FilterEnvironment<Root>: Sendable {
  /// The records filtered, and the fields filters may use.
  public var recordType: RecordType<Root>
  /// The parameters filters may use (`$budget`), with their types.
  public var parameters: [String: ValueType]
  /// The functions filters may call.
  public var functions: FunctionRegistry
  /// The parser's limits on untrusted text.
  public var limits: ParserLimits
  /// The limits on the work of evaluating a compiled filter or query.
  public var evaluationLimits: EvaluationLimits

  /// An environment for records of `recordType`, with these parameters, functions and limits.
  /// For filters from untrusted users, pass `.untrusted` for both limits.
  public init(
    _ recordType: RecordType<Root>, parameters: [String: ValueType] = [:],
    functions: FunctionRegistry = .builtins, limits: ParserLimits = .default,
    evaluationLimits: EvaluationLimits = .default
  ) {
    self.recordType = recordType
    self.parameters = parameters
    self.functions = functions
    self.limits = limits
    self.evaluationLimits = evaluationLimits
  }

  /// The fields filters may use.
  public var schema: Schema { recordType.schema }

  // MARK: Checking (never throws)

  /// Parses and checks a query: the bound tree, and every diagnostic of both steps.
  public func check(_ source: SourceText) -> Checked<BoundQuery> {
    let parsed = Parser.parseQuery(source, limits: limits)
    guard let query = parsed.value, !parsed.hasErrors else {
      return Checked(tree: nil, diagnostics: parsed.diagnostics)
    }
    var checked = check(query)
    checked.diagnostics = (parsed.diagnostics + checked.diagnostics).sortedByPosition()
    return checked
  }

  /// Checks a parsed query, and its estimated cost against ``evaluationLimits``.
  public func check(_ query: Query) -> Checked<BoundQuery> {
    withinLimits(
      Checker.check(query, schema: schema, parameters: parameters, functions: functions)
    ) { $0 }
  }

  /// Checks and binds `expr` as a value, not a filter (a script's `let price = 500 * 2`, a
  /// parameter given on the command line): constants are folded.
  public func bind(_ expr: Expr) -> Checked<BoundExpr> {
    Checker.bind(expr, schema: schema, parameters: parameters, functions: functions)
  }

  /// Checks a parsed filter, and its estimated cost against ``evaluationLimits``.
  public func check(_ filter: Expr) -> Checked<BoundExpr> {
    withinLimits(
      Checker.check(filter, schema: schema, parameters: parameters, functions: functions)
    ) { BoundQuery(filter: $0) }
  }

  /// `checked`, with an error (and no tree) when its estimated cost per record is over
  /// ``evaluationLimits``; `query` makes the tree a query to estimate.
  private func withinLimits<Tree>(_ checked: Checked<Tree>, _ query: (Tree) -> BoundQuery)
    -> Checked<Tree>
  {
    guard let tree = checked.tree, let error = evaluationLimits.check(query(tree)) else {
      return checked
    }
    return Checked(tree: nil, diagnostics: (checked.diagnostics + [error]).sortedByPosition())
  }

  // MARK: Compiling (throws every error, with warnings along)

  /// Parses, checks and compiles a filter such as `price < 1000 and color == Midnight`.
  public func compileFilter(_ text: String) throws(FilterError) -> CompiledFilter<Root> {
    let source = SourceText(text)
    return try compileFilter(Parser.parseFilter(source, limits: limits).get(), source: source)
  }

  /// Checks and compiles a parsed filter; `source` is what its ranges point into.
  public func compileFilter(_ filter: Expr, source: SourceText) throws(FilterError)
    -> CompiledFilter<Root>
  {
    let checked = check(filter)
    let bound = try checked.get(source)
    return CompiledFilter(
      bound, as: filter, warnings: checked.diagnostics, for: recordType, parameters: parameters,
      limits: evaluationLimits)
  }

  /// Parses, checks and compiles a query such as `price < 1000 order by price desc limit 5`.
  public func compileQuery(_ text: String) throws(FilterError) -> CompiledQuery<Root> {
    try compileQuery(SourceText(text, name: "<query>"))
  }

  /// Parses, checks and compiles the query in `source` (whose name messages show: a file's
  /// path, say).
  public func compileQuery(_ source: SourceText) throws(FilterError) -> CompiledQuery<Root> {
    try compileQuery(Parser.parseQuery(source, limits: limits).get(), source: source)
  }

  /// Checks and compiles a parsed query; `source` is what its ranges point into.
  public func compileQuery(_ query: Query, source: SourceText) throws(FilterError)
    -> CompiledQuery<Root>
  {
    let checked = check(query)
    let bound = try checked.get(source)
    return CompiledQuery(
      bound, as: query, warnings: checked.diagnostics, for: recordType, parameters: parameters,
      limits: evaluationLimits)
  }

  /// Checks and compiles the disjunctive counting of `fields` among the records matching
  /// `filter` (see ``FacetCounter``).
  public func facets(_ fields: [FieldPath], filter: Expr?, source: SourceText) throws(FilterError)
    -> FacetCounter<Root>
  {
    try FacetCounter(counting: fields, filter: filter, source: source, in: self)
  }
}
