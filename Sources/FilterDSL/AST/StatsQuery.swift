/// `stats mean(dep_delay), max(arr_delay) by carrier where origin == JFK`: aggregates of the
/// records that match a filter, overall or for each value of some keys (SQL's `GROUP BY`).
///
/// Each item is an aggregate of an expression: `count()`, `count(x)`, `sum(x)`, `min(x)`,
/// `max(x)`, `mean(x)` (or `avg(x)`), `distinct(x)`; an item that is not one (`price`) stands
/// for the summary of its values (count, min, max, and for numbers and durations sum and mean).
/// The checker says what each means (``BoundStats``).
public struct StatsQuery: Hashable, Sendable {
  /// The aggregates, as written, each with its `as` name when given.
  public var items: [SelectItem]
  /// The keys after `by`, as written: each distinct combination of their values is a row
  /// (a list's elements each count once). Empty: one row for every matching record.
  public var groups: [SelectItem]
  /// The filter after `where`, or nil for every record.
  public var filter: Expr?
  /// `order by` over the rows: each key names a column (`count() desc`, an `as` name); the
  /// rows are otherwise in the order of their keys.
  public var ordering: [SortKey] = []
  /// `limit n` over the rows, after ordering (a whole number).
  public var limit: Expr?
  /// `offset n` over the rows, after ordering (a whole number).
  public var offset: Expr?

  /// Stats of `items` by `groups` over the records matching `filter`.
  public init(_ items: [SelectItem], by groups: [SelectItem] = [], filter: Expr? = nil) {
    self.items = items
    self.groups = groups
    self.filter = filter
  }

  /// The top-level fields the stats read (their items, keys and filter).
  public var fieldNames: [String] {
    var names: [String] = []
    for expr in (items + groups).map(\.expr) + (filter.map { [$0] } ?? []) {
      for name in expr.fieldNames where !names.contains(name) { names.append(name) }
    }
    return names
  }
}
