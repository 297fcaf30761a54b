import FilterDSL
import FilterData

/// A session of statements, from a `.flt` script or typed at the REPL: the data loaded, the
/// named filters and parameters defined, and the settings. Each statement runs against this
/// state and prints to ``output``.
///
/// ```swift
/// let session = Session(output: OutputSink(descriptor: 1))
/// try session.run(SourceText("load \"phones.json\"\ncount price < 500", name: "tour.flt"))
/// ```
public final class Session {
  /// Where results go.
  public internal(set) var output: OutputSink
  /// Where warnings go (checker and data warnings, faults, timings).
  public let warn: (String) -> Void
  /// The folder that `load` paths are relative to (a script's folder); nil for the current
  /// directory.
  public var baseDirectory: String?
  /// The settings `set` changes.
  public var settings = Settings()
  /// Whether to colour table headers and diagnostics (a terminal that wants colour).
  public var styled = false
  /// Whether `load` says what it loaded (the REPL on a terminal).
  public var verbose = false
  /// The width tables are fitted to (the terminal's, asked each time: it may be resized);
  /// nil for no limit.
  public var tableWidth: () -> Int? = { nil }
  /// Whether the user asked to stop (Ctrl-C at the REPL). Loading, filtering, counting,
  /// facets and printing ask it now and then; a statement that sees it stops, changes nothing
  /// and fails with FLT509, and the statements after it do not run. (Sorting does not ask: it
  /// takes about a tenth of a second per million records.)
  public var interrupted: () -> Bool = { false }
  /// Whether statements are only checked (`flt check`): `load` infers the file's fields
  /// without keeping its records, and queries, `count`, `explain` and `facets` are checked
  /// against them but neither run nor print.
  public var checkOnly = false
  /// The clock `now()` and `today()` read.
  public var clock: () -> Instant = SystemClock.now
  /// What the session's statements may do: which files `load` may read, whether databases
  /// are allowed, the limits on parsing and evaluation, whether messages quote data values.
  public var policy = SessionPolicy.trusted

  /// The data loaded, by name, in the order loaded.
  public private(set) var datasets: [Dataset] = []
  /// The data statements run against: the last one loaded or used.
  public private(set) var current: Dataset?
  /// Named filters and parameters defined by `let`.
  public private(set) var definitions = Definitions()
  /// The statements that succeeded, as written, for `:save`.
  public private(set) var transcript: [TranscriptEntry] = []
  /// Parameters bound by ``bind(parameter:to:)`` that `let` statements leave alone.
  public var fixedParameters: Set<String> = []

  /// A session printing to `output` and sending warnings to `warn`.
  public init(output: OutputSink, warn: @escaping (String) -> Void = { _ in }) {
    self.output = output
    self.warn = warn
  }

  /// One statement as written, and where its `load` path pointed.
  public struct TranscriptEntry: Sendable {
    /// The statement, parsed.
    public var statement: Stmt
    /// The statement as written.
    public var text: String
    /// For `load`: the data file's path as the session resolved it.
    public var loadedPath: String?
  }

  /// Parses `source` as a script and runs its statements in order, printing each result to
  /// ``output``. Every syntax error of the source is reported before anything runs; the first
  /// statement that fails stops the run. (A REPL entry numbers its lines after the entries
  /// before it: `SourceText/firstLine`.)
  public func run(_ source: SourceText) throws(SessionError) {
    for (statement, context) in try statements(source) {
      try run(statement, context)
      output.flush()
    }
  }

  /// Runs the statements of `source` as ``run(_:)`` does, but prints nothing to ``output``:
  /// returns each statement's result, in order. (Warnings still go to ``warn``.)
  public func evaluate(_ source: SourceText) throws(SessionError) -> [StatementResult] {
    var results: [StatementResult] = []
    for (statement, context) in try statements(source) {
      results.append(try execute(statement, context))
    }
    return results
  }

  /// The statements of `source`, each with where it was written; throws every syntax error.
  private func statements(_ source: SourceText) throws(SessionError) -> [(Stmt, Context)] {
    let parsed = Parser.parseScript(source, limits: policy.parserLimits)
    if parsed.hasErrors {
      throw SessionError(source: source, diagnostics: parsed.diagnostics)
    }
    let context = Context(source: source)
    if !parsed.diagnostics.isEmpty { report(parsed.diagnostics, context) }
    return (parsed.value?.statements ?? []).map { statement in
      var placed = context
      placed.statement = statement.range
      return (statement, placed)
    }
  }

  /// Where a statement was written, for its diagnostics.
  struct Context {
    var source: SourceText
    /// The statement running.
    var statement = SourceRange.empty(at: 0)

    /// Throws FLT509 when the session was interrupted: what the statement computed is dropped.
    func stopIfInterrupted(_ session: Session) throws(SessionError) {
      guard session.interrupted() else { return }
      throw error(
        Diagnostic(
          .interrupted, at: statement, message: "interrupted before it finished",
          label: "stopped",
          help: "this statement changed nothing, and the rest of the entry did not run"))
    }

    func error(_ diagnostics: Diagnostic..., preamble: String = "") -> SessionError {
      SessionError(source: source, diagnostics: diagnostics, preamble: preamble)
    }

    func error(_ error: FilterError) -> SessionError {
      SessionError(source: source, diagnostics: error.diagnostics)
    }
  }

  /// Binds `$name` to `value`, as `flt run -p budget=1000` does, and fixes it: a `let` of that
  /// name is then skipped, so a script's `let budget = 500` is a default that the command line
  /// overrides. (Empty ``fixedParameters`` to let `let` change it again.) The binding goes into
  /// the transcript as a `let`, so that a saved session runs the same way.
  public func bind(parameter name: String, to value: Expr) {
    let statement = Stmt(.let(Name(name), value))
    let bound = FilterEnvironment(RecordType<Void>([])).bind(value).tree
    define(
      name,
      Definitions.Definition(
        value: value, isParameter: true, type: bound?.type, constant: bound?.constantValue))
    fixedParameters.insert(name)
    transcript.append(
      TranscriptEntry(statement: statement, text: statement.description, loadedPath: nil))
  }

  /// Runs `statement` and prints its result; with `set time on`, then how long that took
  /// (not when only checking: nothing ran).
  func run(_ statement: Stmt, _ context: Context) throws(SessionError) {
    let start = SystemClock.seconds()
    let result = try execute(statement, context)
    let printer = ResultPrinter(
      settings: settings, styled: styled, verbose: verbose, tableWidth: tableWidth(),
      output: output, warn: warn, interrupted: interrupted)
    if !printer.print(result) { try context.stopIfInterrupted(self) }
    switch result {
    case .loaded, .records, .count, .facets, .stats:
      guard settings.time, !checkOnly else { break }
      output.flush()
      warn("time: \(Session.timing(SystemClock.seconds() - start))\n")
    default:
      break
    }
  }

  /// Runs `statement` and returns what it produced; a statement that succeeds goes into the
  /// transcript.
  func execute(_ statement: Stmt, _ context: Context) throws(SessionError) -> StatementResult {
    try context.stopIfInterrupted(self)
    if case .let(let name, _) = statement.kind, fixedParameters.contains(name.text) {
      return .none
    }
    var loadedPath: String?
    let result: StatementResult
    switch statement.kind {
    case .load(let path, let alias, let options):
      let dataset: Dataset
      (loadedPath, dataset) = try load(path, as: alias, options: options, context)
      result = .loaded(dataset)
    case .use(let name):
      try use(name, context)
      result = .none
    case .let(let name, let value): result = try define(name, value, context)
    case .set(let name, let value):
      try set(name, value, context)
      result = .none
    case .show(let fields):
      try show(fields, context)
      result = .none
    case .settings:
      result = .settings(settings)
    case .query(let query): result = try matches(query, statement, context)
    case .count(let filter): result = try count(filter, statement, context)
    case .explain(let query): result = try explain(query, statement, context)
    case .facets(let fields, let filter): result = try facets(fields, filter, statement, context)
    case .stats(let stats): result = try self.stats(stats, statement, context)
    }
    if let limit = result.faults.overLimit {
      throw context.error(
        Diagnostic(
          .overCostLimit, at: statement.range, message: limit.message,
          help: "use shorter patterns or fewer text tests, or narrow the data first"))
    }
    transcript.append(
      TranscriptEntry(
        statement: statement, text: context.source.slice(statement.range),
        loadedPath: loadedPath))
    return result
  }

  /// Warnings rendered against the statement's source.
  func report(_ diagnostics: [Diagnostic], _ context: Context) {
    guard !diagnostics.isEmpty else { return }
    warn(
      SessionError(source: context.source, diagnostics: diagnostics)
        .rendered(colored: styled))
  }

  /// The current data, or an error at `statement` saying to load some.
  func requireData(_ statement: Stmt, _ context: Context) throws(SessionError) -> Dataset {
    if let current { return current }
    throw context.error(
      Diagnostic(
        .noData, at: statement.range, message: "no data loaded",
        label: "this needs data", help: "load a file first: load \"phones.json\""))
  }

  /// Makes `dataset` the current data, in place of any of the same name: what `load` does,
  /// for data an embedder reads itself (``Dataset/init(name:loading:path:until:warn:)``).
  public func add(_ dataset: Dataset) {
    datasets.removeAll { $0.name == dataset.name }
    datasets.append(dataset)
    current = dataset
    settings.columns = nil
  }

  func select(_ dataset: Dataset) {
    if current !== dataset { settings.columns = nil }
    current = dataset
  }

  func define(_ name: String, _ definition: Definitions.Definition) {
    definitions.define(name, definition)
  }
}
