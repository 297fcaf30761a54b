/// What can go wrong while evaluating a filter on one record. A fault never stops evaluation
/// and never crashes: the operation that hit it yields unknown (null) for that record, and the
/// engine counts the faults so that they can be reported.
public enum Fault: Int, Error, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// An integer operation whose result does not fit in 64 bits.
  case integerOverflow
  /// `x / 0` or `x % 0`.
  case divisionByZero
  /// A number that cannot be converted (NaN or infinity where an integer is needed).
  case invalidConversion
  /// A date or duration computation outside the supported range.
  case dateOutOfRange

  public var description: String {
    switch self {
    case .integerOverflow: "integer overflow"
    case .divisionByZero: "division by zero"
    case .invalidConversion: "invalid number conversion"
    case .dateOutOfRange: "date out of range"
    }
  }
}

/// How many times each fault happened during an evaluation.
public struct FaultCounts: Hashable, Sendable {
  private var counts = [Int](repeating: 0, count: Fault.allCases.count)

  public init() {}

  /// Records one occurrence of `fault`.
  public mutating func record(_ fault: Fault) {
    counts[fault.rawValue] &+= 1
  }

  /// How many times `fault` happened.
  public subscript(fault: Fault) -> Int { counts[fault.rawValue] }

  /// Whether nothing went wrong.
  public var isEmpty: Bool { counts.allSatisfy { $0 == 0 } }

  /// Adds the counts of `other`.
  public mutating func merge(_ other: FaultCounts) {
    for i in counts.indices { counts[i] &+= other.counts[i] }
  }
}
