/// `and` / `or`. Their nodes are n-ary, so long chains stay flat.
public enum LogicalOperator: String, Hashable, Sendable, CaseIterable {
  case and
  case or
}

/// `+ - * / %`.
public enum ArithmeticOperator: String, Hashable, Sendable, CaseIterable {
  case add = "+"
  case subtract = "-"
  case multiply = "*"
  case divide = "/"
  case remainder = "%"
}

/// `== != < <= > >=`. (`=` is written `==` and `<>` is written `!=` when printed.)
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
}

/// Operators on text: `contains`, `startsWith`, `endsWith`, `like` (glob), `matches` (regex).
public enum TextOperator: String, Hashable, Sendable, CaseIterable {
  case contains
  case startsWith
  case endsWith
  case like
  case matches
}

/// `any`, `all`, `none` over a list field.
public enum Quantifier: String, Hashable, Sendable, CaseIterable {
  case any
  case all
  case none
}

/// `...` (closed) or `..<` (half-open), as in Swift.
public enum RangeKind: String, Hashable, Sendable, CaseIterable {
  case closed = "..."
  case halfOpen = "..<"
}

/// NSPredicate-style string modifiers: `[c]` ignores case, `[d]` ignores diacritics.
public struct StringOptions: OptionSet, Hashable, Sendable {
  /// The options as bits.
  public let rawValue: UInt8
  /// Options from their bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// `[c]`: compare without regard to case.
  public static let caseInsensitive = StringOptions(rawValue: 1)
  /// `[d]`: compare without regard to diacritics (`é` matches `e`).
  public static let diacriticInsensitive = StringOptions(rawValue: 2)

  /// The modifier as written after an operator: `""`, `"[c]"`, `"[d]"` or `"[cd]"`.
  public var spelling: String {
    switch (contains(.caseInsensitive), contains(.diacriticInsensitive)) {
    case (false, false): ""
    case (true, false): "[c]"
    case (false, true): "[d]"
    case (true, true): "[cd]"
    }
  }
}

/// Sort order of one `order by` key.
public enum SortDirection: String, Hashable, Sendable, CaseIterable {
  case ascending = "asc"
  case descending = "desc"
}

/// Where nulls go in a sort: `nulls first` or `nulls last`.
public enum NullsOrder: String, Hashable, Sendable, CaseIterable {
  case first
  case last
}
