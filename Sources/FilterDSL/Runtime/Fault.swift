/// What can go wrong while evaluating a filter on one record. A fault never stops evaluation
/// and never crashes: the operation that hit it yields unknown (null) for that record, and the
/// engine counts the faults so that they can be reported.
public enum Fault: Int, Error, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// An integer operation whose result does not fit in 64 bits.
  case integerOverflow
  /// `x / 0` or `x % 0`.
  case divisionByZero
  /// A value that does not convert: NaN or infinity where an integer is needed, text that
  /// is not a date for `date()`.
  case invalidConversion
  /// A date or duration computation outside the supported range.
  case dateOutOfRange

  /// The fault in words: "division by zero".
  public var description: String {
    switch self {
    case .integerOverflow: "integer overflow"
    case .divisionByZero: "division by zero"
    case .invalidConversion: "value that did not convert"
    case .dateOutOfRange: "date out of range"
    }
  }

  /// The description for several: "divisions by zero".
  public var plural: String {
    switch self {
    case .integerOverflow: "integer overflows"
    case .divisionByZero: "divisions by zero"
    case .invalidConversion: "values that did not convert"
    case .dateOutOfRange: "dates out of range"
    }
  }
}

/// How many times each fault happened during an evaluation, the cost it took, and whether it
/// went over its ``EvaluationLimits``. Fixed-size, so that evaluating a record never allocates.
public struct FaultCounts: Hashable, Sendable, CustomStringConvertible {
  // (Usable from inlinable code, as the initializer is: an evaluation inlined into an
  // embedder's loop sets up its counts without a call.)
  @usableFromInline var overflow = 0
  @usableFromInline var division = 0
  @usableFromInline var conversion = 0
  @usableFromInline var dates = 0
  /// The cost units spent (see ``EvaluationLimits``).
  public internal(set) var cost = 0
  /// The limit the run went over, if it did: then the run stopped and handed back no records
  /// (no counts), and its caller must report an error, not an empty answer.
  public internal(set) var overLimit: CostLimit?

  /// No faults.
  @inlinable public init() {}

  /// Records one occurrence of `fault`.
  public mutating func record(_ fault: Fault) {
    switch fault {
    case .integerOverflow: overflow &+= 1
    case .divisionByZero: division &+= 1
    case .invalidConversion: conversion &+= 1
    case .dateOutOfRange: dates &+= 1
    }
  }

  /// How many times `fault` happened.
  public subscript(fault: Fault) -> Int {
    switch fault {
    case .integerOverflow: overflow
    case .divisionByZero: division
    case .invalidConversion: conversion
    case .dateOutOfRange: dates
    }
  }

  /// Whether nothing went wrong: no fault, and no limit exceeded.
  public var isEmpty: Bool {
    overflow == 0 && division == 0 && conversion == 0 && dates == 0 && overLimit == nil
  }

  /// The counts in words, most common first: "2 divisions by zero, 1 integer overflow".
  public var description: String {
    Fault.allCases.map { ($0, self[$0]) }.filter { $0.1 > 0 }
      .sorted { $0.1 > $1.1 }
      .map { "\($0.1) \($0.1 == 1 ? $0.0.description : $0.0.plural)" }
      .joined(separator: ", ")
  }

  /// The warning a run prints when faults happened: "3 operations failed (2 divisions by
  /// zero, 1 integer overflow) and counted as unknown".
  public var summary: String {
    "\(total) operation\(total == 1 ? "" : "s") failed (\(self)) and counted as unknown"
  }

  /// Whether `a` and `b` count the same faults and went over the same limit. Their costs are
  /// not compared: engines spend differently for the same answer.
  public static func == (a: FaultCounts, b: FaultCounts) -> Bool {
    a.overflow == b.overflow && a.division == b.division && a.conversion == b.conversion
      && a.dates == b.dates && a.overLimit == b.overLimit
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(overflow)
    hasher.combine(division)
    hasher.combine(conversion)
    hasher.combine(dates)
    hasher.combine(overLimit)
  }

  /// The total of all faults.
  public var total: Int { overflow &+ division &+ conversion &+ dates }

  /// Adds the counts and cost of `other` (and its limit exceeded, if this run had none).
  public mutating func merge(_ other: FaultCounts) {
    overflow &+= other.overflow
    division &+= other.division
    conversion &+= other.conversion
    dates &+= other.dates
    cost = Cost.sum(cost, other.cost)
    if overLimit == nil { overLimit = other.overLimit }
  }

  /// Sets ``overLimit`` when the cost is now over `limits`' per-run limit (for runs whose
  /// parts are counted apart, such as chunks on several cores).
  mutating func check(_ limits: EvaluationLimits) {
    if overLimit == nil, cost > limits.maxCostPerQuery {
      overLimit = .perQuery(limits.maxCostPerQuery)
    }
  }
}

extension Result where Success == Value, Failure == Fault {
  /// The value, or null after giving the fault to `record` (which counts it).
  func settled(_ record: (Fault) -> Void) -> Value {
    switch self {
    case .success(let value): return value
    case .failure(let fault):
      record(fault)
      return .null
    }
  }
}
