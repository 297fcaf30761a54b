/// A function filters can call: its name, how many arguments it takes, its type rule and its
/// implementation. The built-ins are in ``FunctionRegistry/builtins``; an embedder adds its own
/// with ``FunctionRegistry/adding(_:)``.
///
/// A function must be pure: the same arguments (and context) give the same result. Over
/// records held by column (``ColumnTable``), a test that reads one coded field calls it once
/// per distinct value of the field, not once per record.
public struct FunctionDefinition: Sendable {
  /// The name filters call it by.
  public let name: String
  /// How many arguments it takes.
  public let arity: ClosedRange<Int>
  /// The result type for the argument types, or what is wrong with them (lower case, such as
  /// "lower takes text, not a number").
  public let resultType: @Sendable ([ValueType]) -> Result<ValueType, TypeRuleError>
  /// How a call is evaluated.
  public let evaluation: Evaluation
  /// Checks the arguments written as literals (nil for the others) when the filter is
  /// checked, so that a bad date format is an error with a place, not a null per record.
  public let checkLiterals: @Sendable ([Literal?]) -> TypeRuleError?
  /// Whether the first argument may be a list, taken whole (`len`, `at`). A strict function
  /// that says no applies to each element of a list given first instead: `lower(tags)` is the
  /// list of the tags in lower case, so `any lower(tags) == "5g"` works.
  public let takesLists: Bool
  /// Whether a list given as the only argument is taken whole even so: `min(scores)` is the
  /// least score, `min(scores, 3)` each score or 3, whichever is less.
  package internal(set) var takesListAlone = false
  /// Whether this is flt's own function of its name (a back end may then write it in its own
  /// language), not an embedder's.
  package internal(set) var isBuiltin = false

  /// How a function gets its arguments.
  public enum Evaluation: Sendable {
    /// Every argument is evaluated first, left to right; a null argument makes the call null
    /// without calling the function.
    case strict(@Sendable ([Value], EvaluationContext) -> Result<Value, Fault>)
    /// The function asks for the arguments it needs, by position, and sees nulls: for
    /// `if`, whose branch not taken is never evaluated (so its faults do not count), and
    /// `coalesce`. The closure it is given must not escape.
    case lazy(
      @Sendable (_ count: Int, _ argument: (Int) -> Value, EvaluationContext) -> Result<
        Value, Fault
      >)
  }

  /// A strict function: null in, null out.
  public init(
    name: String, arity: ClosedRange<Int>,
    resultType: @escaping @Sendable ([ValueType]) -> Result<ValueType, TypeRuleError>,
    checkLiterals: @escaping @Sendable ([Literal?]) -> TypeRuleError? = { _ in nil },
    takesLists: Bool = false,
    evaluate: @escaping @Sendable ([Value], EvaluationContext) -> Result<Value, Fault>
  ) {
    self.name = name
    self.arity = arity
    self.resultType = resultType
    self.checkLiterals = checkLiterals
    self.takesLists = takesLists
    self.evaluation = .strict(evaluate)
  }

  /// A function that evaluates its arguments itself (see ``Evaluation/lazy(_:)``).
  public init(
    name: String, arity: ClosedRange<Int>,
    resultType: @escaping @Sendable ([ValueType]) -> Result<ValueType, TypeRuleError>,
    lazy evaluate:
      @escaping @Sendable (Int, (Int) -> Value, EvaluationContext) -> Result<
        Value, Fault
      >
  ) {
    self.name = name
    self.arity = arity
    self.resultType = resultType
    self.checkLiterals = { _ in nil }
    self.takesLists = true
    self.evaluation = .lazy(evaluate)
  }

  /// Whether a list given first, with `count` arguments in all, is taken element by element.
  func mapsOverList(count: Int) -> Bool {
    !takesLists && !(takesListAlone && count == 1)
  }

  /// Calls the function, evaluating arguments through `argument` as its evaluation says; a
  /// fault is given to `record` and makes the result (or that element's result) null.
  @inline(__always)
  func call(
    _ count: Int, _ argument: (Int) -> Value, _ context: EvaluationContext,
    _ record: (Fault) -> Void
  ) -> Value {
    switch evaluation {
    case .strict(let evaluate):
      var values: [Value] = []
      values.reserveCapacity(count)
      for index in 0..<count {
        let value = argument(index)
        if value.isNull { return .null }
        values.append(value)
      }
      if mapsOverList(count: count), case .list(let items) = values.first {
        // Element by element: a null element gives null, as a null argument does.
        return .list(
          items.map { item in
            guard !item.isNull else { return .null }
            values[0] = item
            return evaluate(values, context).settled(record)
          })
      }
      return evaluate(values, context).settled(record)
    case .lazy(let evaluate):
      return evaluate(count, argument, context).settled(record)
    }
  }

}

/// Why a function's type rule refused its arguments.
public struct TypeRuleError: Error, Sendable {
  /// What is wrong, in lower case: "lower takes text, not a number".
  public let message: String
  /// An error saying `message`.
  public init(_ message: String) { self.message = message }
}

/// What evaluation needs besides the record: the time, and the parameters' values.
public struct EvaluationContext: Sendable {
  /// What `now()` returns (and `today()`, as a date in UTC). The core has no wall clock: the
  /// caller passes the time, which also keeps evaluation reproducible.
  public var now: Instant
  /// The values of `$parameters`, by name without `$`.
  public var parameters: [String: Value]

  /// A context whose clock says `now`, with `parameters` bound.
  public init(now: Instant = Instant(seconds: 0), parameters: [String: Value] = [:]) {
    self.now = now
    self.parameters = parameters
  }
}

/// The functions a filter may call, by name.
public struct FunctionRegistry: Sendable {
  private var definitions: [String: FunctionDefinition]

  /// The built-in functions: lower, upper, len, abs, round, floor, ceil, min, max, now,
  /// today, date.
  public static let builtins = FunctionRegistry(
    definitions: BuiltinFunctions.all.map { definition in
      var builtin = definition
      builtin.isBuiltin = true
      return builtin
    })

  init(definitions: [FunctionDefinition]) {
    var table: [String: FunctionDefinition] = [:]
    for definition in definitions { table[definition.name] = definition }
    self.definitions = table
  }

  /// This registry with `definition` added (replacing a function of the same name).
  public func adding(_ definition: FunctionDefinition) -> FunctionRegistry {
    var copy = self
    copy.definitions[definition.name] = definition
    return copy
  }

  /// Other names of built-in functions: `iif` (SQLite's, SQL Server's) is `if`, `avg` is
  /// `mean`.
  static let aliases = ["iif": "if", "avg": "mean"]

  /// The function called `name` (or by one of its other names), if any.
  public func definition(named name: String) -> FunctionDefinition? {
    definitions[name] ?? FunctionRegistry.aliases[name].flatMap { definitions[$0] }
  }

  /// The names of all functions, sorted.
  public var names: [String] { definitions.keys.sorted() }
}
