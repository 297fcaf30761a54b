/// How much work a compiled filter may do: the evaluation counterpart of ``ParserLimits``
/// (CEL's cost limit), for filters written by people the embedder does not trust.
///
/// Work is counted in *cost units*, about one per character a text operation looks at:
/// `contains` and `like` cost the text's length in bytes times (1 + the pattern's length / 64),
/// `startsWith` and `endsWith` the pattern's length, `matches` the text's length times the size
/// of the compiled pattern, `[c]` and `[d]` the length of the text they fold, `in` over a list
/// and `contains` on a list one per element, a quantifier one per element visited (plus its
/// test), and a function call one plus the size of what it returns (bytes of text, elements of
/// a list). Comparisons of numbers, dates and short values cost nothing: their work does not
/// grow with the data.
///
/// Limits are checked twice. Compiling estimates a record's cost with texts of
/// ``assumedTextBytes`` and lists of ``assumedListCount``, and refuses a filter over
/// ``maxCostPerRecord`` (`FLT294`, at the costliest part). Running counts the real cost: a run
/// that goes over either limit stops, hands back no records, and says which limit in
/// ``FaultCounts/overLimit``; the engines never return a partial answer as a whole one.
public struct EvaluationLimits: Hashable, Sendable {
  /// The most cost units evaluating one record may take. (The column engine counts each part
  /// of a filter that it runs record by record on its own, and a test on a coded column once
  /// per distinct value.)
  public var maxCostPerRecord: Int
  /// The most cost units one run (a filter over an array, a query, a facet count) may take.
  public var maxCostPerQuery: Int
  /// The length of a text, in bytes, that the estimate at compile time assumes.
  public var assumedTextBytes: Int
  /// The number of elements of a list that the estimate at compile time assumes.
  public var assumedListCount: Int

  /// Limits of these sizes (negative ones count as 0).
  public init(
    maxCostPerRecord: Int = .max, maxCostPerQuery: Int = .max, assumedTextBytes: Int = 256,
    assumedListCount: Int = 16
  ) {
    self.maxCostPerRecord = Swift.max(0, maxCostPerRecord)
    self.maxCostPerQuery = Swift.max(0, maxCostPerQuery)
    self.assumedTextBytes = Swift.max(0, assumedTextBytes)
    self.assumedListCount = Swift.max(0, assumedListCount)
  }

  /// No limits: the default, for filters written by the people running them.
  public static let `default` = EvaluationLimits()

  /// Tight limits for filters from untrusted users: about a millisecond of text work per
  /// record, and about a second per run.
  public static let untrusted = EvaluationLimits(
    maxCostPerRecord: 1_000_000, maxCostPerQuery: 500_000_000)

  /// Whether no limit is set.
  public var isUnlimited: Bool { maxCostPerRecord == .max && maxCostPerQuery == .max }
}

/// The limit of ``EvaluationLimits`` a run went over.
public enum CostLimit: Hashable, Sendable, CustomStringConvertible {
  /// One record cost more than ``EvaluationLimits/maxCostPerRecord``, which is given.
  case perRecord(Int)
  /// The run cost more than ``EvaluationLimits/maxCostPerQuery``, which is given.
  case perQuery(Int)

  /// In words: "the limit of 1000000 cost units per record".
  public var description: String {
    switch self {
    case .perRecord(let limit): "the limit of \(limit) cost units per record"
    case .perQuery(let limit): "the limit of \(limit) cost units per run"
    }
  }

  /// The error a run that went over this limit reports.
  public var message: String {
    "the filter went over \(self) and was stopped: no results were produced"
  }
}
