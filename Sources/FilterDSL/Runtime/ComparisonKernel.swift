/// `value op constant`: the comparison every engine runs (the row engine's typed tests and
/// selectors, the column engine's loops, the generic path over any two values), one type per
/// operator. Code generic over the kernel (a ``ComparisonSpecialization``) is compiled once
/// per operator with the comparison inlined, so that no engine tests the operator per value,
/// and none writes the six comparisons itself.
///
/// A value unequal to itself (NaN) on either side fails every operator, `!=` included: the
/// reference evaluator's unknown, which a filter drops like false. Where unknown must stay
/// unknown (under `not`), the caller tests for NaN first.
protocol ComparisonKernel {
  /// Whether `value op k` holds, for values of one type.
  static func holds<T: Comparable>(_ value: T, _ k: T) -> Bool
  /// Whether it holds for the result of a comparison (negative, zero, positive), as
  /// `NumberComparison` and `ValueOrder` give it for values of two types.
  static func holds(order: Int) -> Bool
}

/// `==`
enum EqualKernel: ComparisonKernel {
  @inline(__always) static func holds<T: Comparable>(_ value: T, _ k: T) -> Bool { value == k }
  @inline(__always) static func holds(order: Int) -> Bool { order == 0 }
}

/// `!=`
enum NotEqualKernel: ComparisonKernel {
  @inline(__always) static func holds<T: Comparable>(_ value: T, _ k: T) -> Bool {
    value != k && value == value && k == k
  }
  @inline(__always) static func holds(order: Int) -> Bool { order != 0 }
}

/// `<`
enum LessKernel: ComparisonKernel {
  @inline(__always) static func holds<T: Comparable>(_ value: T, _ k: T) -> Bool { value < k }
  @inline(__always) static func holds(order: Int) -> Bool { order < 0 }
}

/// `<=`
enum LessOrEqualKernel: ComparisonKernel {
  @inline(__always) static func holds<T: Comparable>(_ value: T, _ k: T) -> Bool { value <= k }
  @inline(__always) static func holds(order: Int) -> Bool { order <= 0 }
}

/// `>`
enum GreaterKernel: ComparisonKernel {
  @inline(__always) static func holds<T: Comparable>(_ value: T, _ k: T) -> Bool { value > k }
  @inline(__always) static func holds(order: Int) -> Bool { order > 0 }
}

/// `>=`
enum GreaterOrEqualKernel: ComparisonKernel {
  @inline(__always) static func holds<T: Comparable>(_ value: T, _ k: T) -> Bool { value >= k }
  @inline(__always) static func holds(order: Int) -> Bool { order >= 0 }
}

/// Code made for one comparison operator at a time (see ``ComparisonKernel``): a loop, a test,
/// a closure, specialized for the kernel it is made with.
protocol ComparisonSpecialization {
  associatedtype Made
  /// The code for the operator whose kernel is `kernel`.
  func make<Kernel: ComparisonKernel>(_ kernel: Kernel.Type) -> Made
}

extension ComparisonOperator {
  /// `specialization` made for this operator's kernel: the one place an operator becomes its
  /// comparison.
  @inline(__always)
  func specialized<S: ComparisonSpecialization>(_ specialization: S) -> S.Made {
    switch self {
    case .equal: specialization.make(EqualKernel.self)
    case .notEqual: specialization.make(NotEqualKernel.self)
    case .less: specialization.make(LessKernel.self)
    case .lessOrEqual: specialization.make(LessOrEqualKernel.self)
    case .greater: specialization.make(GreaterKernel.self)
    case .greaterOrEqual: specialization.make(GreaterOrEqualKernel.self)
    }
  }

  /// `value op k` as a closure made for this operator: `{ $0 < k }` for `<`. (Inlined, so
  /// that the closure is made for `T` where it is known, without a thunk around it.)
  @inline(__always)
  func test<T: Comparable>(against k: T) -> (T) -> Bool {
    specialized(ConstantTest(k: k))
  }

  /// Whether the operator holds for the result of a comparison (negative, zero, positive).
  @inline(__always)
  func holds(order: Int) -> Bool {
    specialized(OrderTest(order: order))
  }
}

/// `{ $0 op k }`.
private struct ConstantTest<T: Comparable>: ComparisonSpecialization {
  let k: T
  @inline(__always)
  func make<Kernel: ComparisonKernel>(_ kernel: Kernel.Type) -> (T) -> Bool {
    { [k] in Kernel.holds($0, k) }
  }
}

/// `order op 0`.
private struct OrderTest: ComparisonSpecialization {
  let order: Int
  @inline(__always)
  func make<Kernel: ComparisonKernel>(_ kernel: Kernel.Type) -> Bool {
    Kernel.holds(order: order)
  }
}
