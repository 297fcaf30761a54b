/// A checked query: its filter, sort keys, and page.
public struct BoundQuery: Sendable {
  /// The filter, or nil for every record.
  public var filter: BoundExpr?
  /// The sort keys, most significant first.
  public var ordering: [BoundSortKey]
  /// `limit n` and `offset n`: integers that read no field (constants and parameters), so
  /// they are known once parameters are bound.
  public var limit: BoundExpr?
  /// `offset n`, if given.
  public var offset: BoundExpr?

  /// A query of these parts.
  public init(
    filter: BoundExpr?, ordering: [BoundSortKey] = [], limit: BoundExpr? = nil,
    offset: BoundExpr? = nil
  ) {
    self.filter = filter
    self.ordering = ordering
    self.limit = limit
    self.offset = offset
  }
}
