/// A function filters can call: its name, how many arguments it takes, its type rule and its
/// implementation. The built-ins are in ``FunctionRegistry/builtins``; an embedder adds its own
/// with ``FunctionRegistry/adding(_:)``.
public struct FunctionDefinition: Sendable {
  /// The name filters call it by.
  public let name: String
  /// How many arguments it takes.
  public let arity: ClosedRange<Int>
  /// The result type for the argument types, or what is wrong with them (lower case, such as
  /// "lower takes text, not a number").
  public let resultType: @Sendable ([ValueType]) -> Result<ValueType, TypeRuleError>
  /// The implementation. Null arguments never reach it: a call with a null argument is null.
  public let evaluate: @Sendable ([Value], EvaluationContext) -> Result<Value, Fault>

  public init(
    name: String, arity: ClosedRange<Int>,
    resultType: @escaping @Sendable ([ValueType]) -> Result<ValueType, TypeRuleError>,
    evaluate: @escaping @Sendable ([Value], EvaluationContext) -> Result<Value, Fault>
  ) {
    self.name = name
    self.arity = arity
    self.resultType = resultType
    self.evaluate = evaluate
  }
}

/// Why a function's type rule refused its arguments.
public struct TypeRuleError: Error, Sendable {
  public let message: String
  public init(_ message: String) { self.message = message }
}

/// What evaluation needs besides the record: the time, and the parameters' values.
public struct EvaluationContext: Sendable {
  /// What `now()` returns (and `today()`, as a date in UTC). The core has no wall clock: the
  /// caller passes the time, which also keeps evaluation reproducible.
  public var now: Instant
  /// The values of `$parameters`, by name without `$`.
  public var parameters: [String: Value]

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
  public static let builtins = FunctionRegistry(definitions: BuiltinFunctions.all)

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

  /// The function called `name`, if any.
  public func definition(named name: String) -> FunctionDefinition? { definitions[name] }

  /// The names of all functions, sorted.
  public var names: [String] { definitions.keys.sorted() }
}
