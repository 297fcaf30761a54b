/// `and` / `or`. Their nodes are n-ary, so long chains stay flat.
public enum LogicalOperator: String, Hashable, Sendable, CaseIterable {
  /// True when every operand is.
  case and
  /// True when any operand is.
  case or
}

/// `+ - * / %`.
public enum ArithmeticOperator: String, Hashable, Sendable, CaseIterable {
  /// `+`
  case add = "+"
  /// `-`
  case subtract = "-"
  /// `*`
  case multiply = "*"
  /// `/`: integer division of integers (a division by zero is a fault).
  case divide = "/"
  /// `%`: the remainder, with the sign of the dividend.
  case remainder = "%"
}

/// `== != < <= > >=`. (`=` is written `==` and `<>` is written `!=` when printed.)
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
  /// `==` (also written `=`).
  case equal = "=="
  /// `!=` (also written `<>`).
  case notEqual = "!="
  /// `<`
  case less = "<"
  /// `<=`
  case lessOrEqual = "<="
  /// `>`
  case greater = ">"
  /// `>=`
  case greaterOrEqual = ">="
}

/// Operators on text: `contains`, `startsWith`, `endsWith`, `like` (glob), `matches` (regex).
public enum TextOperator: String, Hashable, Sendable, CaseIterable {
  /// The text holds the other anywhere.
  case contains
  /// The text begins with the other.
  case startsWith
  /// The text ends with the other.
  case endsWith
  /// The whole text matches a glob: `*` any run of characters, `?` one character.
  case like
  /// The whole text matches a regular expression.
  case matches
}

/// `any`, `all`, `none` over a list field.
public enum Quantifier: String, Hashable, Sendable, CaseIterable {
  /// At least one element passes.
  case any
  /// Every element passes (true for an empty list).
  case all
  /// No element passes.
  case none
}

/// `...` (closed) or `..<` (half-open), as in Swift.
public enum RangeKind: String, Hashable, Sendable, CaseIterable {
  /// `a...b`: from `a` to `b`, both included.
  case closed = "..."
  /// `a..<b`: from `a` up to, not including, `b`.
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
  /// `asc`: smallest first (the default).
  case ascending = "asc"
  /// `desc`: largest first.
  case descending = "desc"
}

/// Where nulls go in a sort: `nulls first` or `nulls last`.
public enum NullsOrder: String, Hashable, Sendable, CaseIterable {
  /// Nulls before every value.
  case first
  /// Nulls after every value.
  case last
}
