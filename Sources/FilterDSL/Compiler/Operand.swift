/// What a compiled filter evaluates with: the parameters' values by slot, and the clock.
final class Bindings: Sendable {
  let parameters: [Value]
  let context: EvaluationContext

  init(parameters: [Value], context: EvaluationContext) {
    self.parameters = parameters
    self.context = context
  }
}

/// The state of one evaluation: its bindings, and the faults met.
struct Run {
  /// Not retained, which saves two atomic operations per record: a run lives only inside
  /// `CompiledFilter.evaluate`, whose filter holds the bindings for the whole call.
  unowned(unsafe) let bindings: Bindings
  var faults = FaultCounts()

  init(bindings: Bindings) { self.bindings = bindings }

  var parameters: [Value] { bindings.parameters }
  var context: EvaluationContext { bindings.context }
}

/// A compiled value-producing expression. Its case is its type, chosen at compile time, so
/// evaluating it never switches on types; `.value` is the general form for what has no typed
/// case (lists, records, mixed arithmetic).
enum Operand<Root> {
  case constant(Value)
  case int((Root, inout Run) -> Int64?)
  case double((Root, inout Run) -> Double?)
  case string((Root, inout Run) -> String?)
  case bool((Root, inout Run) -> Truth)
  case value((Root, inout Run) -> Value)

  /// The operand as a general value producer.
  var asValue: (Root, inout Run) -> Value {
    switch self {
    case .constant(let value): return { _, _ in value }
    case .int(let f): return { r, run in f(r, &run).map(Value.int) ?? .null }
    case .double(let f): return { r, run in f(r, &run).map(Value.double) ?? .null }
    case .string(let f): return { r, run in f(r, &run).map(Value.string) ?? .null }
    case .bool(let f):
      return { r, run in
        switch f(r, &run) {
        case .true: .bool(true)
        case .false: .bool(false)
        case .unknown: .null
        }
      }
    case .value(let f): return f
    }
  }

  /// The operand as a number producer, for arithmetic on numbers.
  var asDouble: ((Root, inout Run) -> Double?)? {
    switch self {
    case .double(let f): f
    case .int(let f): { r, run in f(r, &run).map(Double.init) }
    case .constant(.double(let d)): { _, _ in d }
    case .constant(.int(let i)): { _, _ in Double(i) }
    default: nil
    }
  }

  var asInt: ((Root, inout Run) -> Int64?)? {
    switch self {
    case .int(let f): f
    case .constant(.int(let i)): { _, _ in i }
    default: nil
    }
  }

  var constant: Value? {
    if case .constant(let value) = self { return value }
    return nil
  }
}

/// Keeps the indices of a selection whose records pass a test.
typealias Selector<Root> = ([Root], inout [Int]) -> Void

/// A compiled test: its closure and its description.
struct Node<Root> {
  let test: (Root, inout Run) -> Truth
  let plan: Plan
  /// For tests of a field against constants (which cannot fault): narrows a selection of
  /// record indices to those for which the test is true, in one loop over the batch that the
  /// field's declaration specialized. Nil for everything else.
  var select: Selector<Root>? = nil

  init(test: @escaping (Root, inout Run) -> Truth, plan: Plan, select: Selector<Root>? = nil) {
    self.test = test
    self.plan = plan
    self.select = select
  }
}
