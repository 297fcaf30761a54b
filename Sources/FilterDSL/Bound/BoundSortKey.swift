/// One bound key of `order by`.
public struct BoundSortKey: Sendable {
  /// What to sort by.
  public var key: BoundExpr
  /// Ascending or descending.
  public var direction: SortDirection
  /// Whether nulls come first: as written, else first ascending and last descending.
  public var nullsFirst: Bool

  /// A key sorting by `key` in `direction`, nulls first or last.
  public init(_ key: BoundExpr, _ direction: SortDirection, nullsFirst: Bool) {
    self.key = key
    self.direction = direction
    self.nullsFirst = nullsFirst
  }
}
