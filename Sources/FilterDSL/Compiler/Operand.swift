/// A compiled value-producing expression. Its case is its type, chosen at compile time, so
/// evaluating it never switches on types; `.value` is the general form for what has no typed
/// case (lists, records, mixed arithmetic).
enum Operand<Root> {
  case constant(Value)
  case int((Root, inout EvaluationState) -> Int64?)
  case double((Root, inout EvaluationState) -> Double?)
  case string((Root, inout EvaluationState) -> String?)
  case bool((Root, inout EvaluationState) -> Truth)
  case value((Root, inout EvaluationState) -> Value)

  /// The operand as a general value producer.
  var asValue: (Root, inout EvaluationState) -> Value {
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
  var asDouble: ((Root, inout EvaluationState) -> Double?)? {
    switch self {
    case .double(let f): f
    case .int(let f): { r, run in f(r, &run).map(Double.init) }
    case .constant(.double(let d)): { _, _ in d }
    case .constant(.int(let i)): { _, _ in Double(i) }
    default: nil
    }
  }

  var asInt: ((Root, inout EvaluationState) -> Int64?)? {
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
