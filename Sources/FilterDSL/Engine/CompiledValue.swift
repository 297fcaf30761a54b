/// An expression compiled for records of type `Root` to compute one value per record: a
/// computed output column (`dep_delay - arr_delay as gain`), a key of your own.
///
/// ```swift
/// let bound = try FilterEnvironment(phones).bind(Parser.parseValue("price * 2").get()).get()
/// let doubled = CompiledValue(bound, for: phones)
/// var faults = FaultCounts()
/// let value = doubled.value(of: phone, faults: &faults)
/// ```
///
/// A fault (an integer overflow, a division by zero) makes the value null for that record,
/// and is counted in the faults passed in.
public struct CompiledValue<Root>: @unchecked Sendable {
  /// The expression as the checker bound it: what was compiled.
  public let bound: BoundExpr
  let read: (Root, inout EvaluationState) -> Value
  let layout: ParameterLayout
  /// The limits on the work of an evaluation.
  public let limits: EvaluationLimits
  private(set) var bindings: Bindings

  /// Compiles `bound`, which the checker bound against `type`'s schema and `parameters`.
  public init(
    _ bound: BoundExpr, for type: RecordType<Root>, parameters: [String: ValueType] = [:],
    limits: EvaluationLimits = .default
  ) {
    self.bound = bound
    read = Compiler(recordType: type).operand(bound).asValue
    layout = ParameterLayout(parameters)
    self.limits = limits
    bindings = layout.bindings(EvaluationContext(), limits: limits)
  }

  /// The type of the values it computes.
  public var type: ValueType { bound.type }

  /// This expression with parameter values (and the clock) bound.
  public func binding(_ parameters: [String: Value], now: Instant? = nil) -> CompiledValue {
    let context = EvaluationContext(now: now ?? bindings.context.now, parameters: parameters)
    var bound = self
    bound.bindings = layout.bindings(context, limits: limits)
    return bound
  }

  /// The value for `record`, adding the faults met and the cost spent to `faults` (null once
  /// ``FaultCounts/overLimit`` is set).
  public func value(of record: Root, faults: inout FaultCounts) -> Value {
    withExtendedLifetime(bindings) {
      let start = faults.cost
      var run = EvaluationState(bindings: bindings, spent: start)
      let value = read(record, &run)
      faults.merge(run.outcome(since: start))
      return faults.overLimit == nil ? value : .null
    }
  }
}
