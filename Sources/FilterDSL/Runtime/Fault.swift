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

/// How many times each fault happened during an evaluation. Fixed-size, so that evaluating a
/// record never allocates.
public struct FaultCounts: Hashable, Sendable, CustomStringConvertible {
  private var overflow = 0
  private var division = 0
  private var conversion = 0
  private var dates = 0

  /// No faults.
  public init() {}

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

  /// Whether nothing went wrong.
  public var isEmpty: Bool { overflow == 0 && division == 0 && conversion == 0 && dates == 0 }

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

  /// The total of all faults.
  public var total: Int { overflow &+ division &+ conversion &+ dates }

  /// Adds the counts of `other`.
  public mutating func merge(_ other: FaultCounts) {
    overflow &+= other.overflow
    division &+= other.division
    conversion &+= other.conversion
    dates &+= other.dates
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
