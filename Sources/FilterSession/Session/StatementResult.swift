import FilterDSL
import FilterData

/// What a statement produced, as a value: ``Session/evaluate(_:)`` returns them,
/// and `ResultPrinter` renders them per the session's settings when the session runs.
public enum StatementResult {
  /// `load`: the data set loaded, now current.
  case loaded(Dataset)
  /// A query: its matches, sorted and paged, from `dataset`, and the faults met.
  case records(MatchedRecords, from: Dataset, faults: FaultCounts)
  /// `count`: the number of matching records, and the faults met.
  case count(Int, faults: FaultCounts)
  /// `facets`: each field's value counts (the faults are in the result).
  case facets(FacetCounts)
  /// `stats`: a row per group (the faults are in the result).
  case stats(StatsResult)
  /// `explain`: the compiled chain.
  case plan(Plan)
  /// `explain` on a database table: the statement it runs there, and what flt does after.
  case translation(String)
  /// `let`: the name and what it now stands for (expanded).
  case defined(String, Definitions.Definition)
  /// `set` alone: every setting and its value.
  case settings(Settings)
  /// `use`, `set`, `show`, and every statement that is only checked: nothing to show.
  case none

  /// The faults met while computing the result.
  public var faults: FaultCounts {
    switch self {
    case .records(_, _, let faults), .count(_, let faults): faults
    case .facets(let result): result.faults
    case .stats(let result): result.faults
    default: FaultCounts()
    }
  }
}
