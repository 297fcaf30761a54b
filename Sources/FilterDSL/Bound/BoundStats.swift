/// What a column of `stats` computes over the values of its argument (nulls left out, as SQL
/// leaves them out).
public enum Aggregate: String, CaseIterable, Hashable, Sendable {
  /// `count()`: the records; `count(x)`: the records where `x` is not null.
  case count
  /// `sum(x)`: of numbers or durations; null when there is none.
  case sum
  /// `min(x)`: the least value (numbers, text, dates, times, durations, true/false).
  case min
  /// `max(x)`: the greatest value.
  case max
  /// `mean(x)`, also spelled `avg(x)`: of numbers (a decimal) or durations.
  case mean
  /// `distinct(x)`: how many different values `x` has (SQL's `count(distinct x)`).
  case distinct
  /// `median(x)`: of numbers, the middle value (the mean of the two middle ones for an even
  /// count): `quantile(x, 0.5)`.
  case median
  /// `quantile(x, p)`: of numbers, the value a fraction `p` (0 to 1) of the way through them in
  /// order, interpolated between the two nearest (DuckDB's `quantile_cont`, pandas' default).
  case quantile

  /// The aggregate a call's name spells (any case; `avg` is `mean`), if any.
  public init?(spelling: String) {
    let lower = spelling.lowercased()
    if lower == "avg" {
      self = .mean
    } else {
      self.init(rawValue: lower)
    }
  }

  /// The aggregate `expr` calls, with the call's name and arguments; nil when it is not a
  /// call of one (`max(price, 100)`, with two arguments, is the function, not the aggregate).
  public static func called(by expr: Expr) -> (Aggregate, name: Name, arguments: [Expr])? {
    guard case .call(let name, let arguments) = expr.kind,
      let function = Aggregate(spelling: name.text),
      !(function == .min || function == .max) || arguments.count == 1
    else { return nil }
    return (function, name, arguments)
  }

  /// How many arguments it takes.
  public var arity: ClosedRange<Int> {
    switch self {
    case .count: 0...1
    case .quantile: 2...2
    default: 1...1
    }
  }

  /// The type of its result over values of `type`; nil when it takes no such values.
  public func resultType(of type: ValueType) -> ValueType? {
    switch self {
    case .count, .distinct: .int
    case .min, .max: Checker.isOrderable(type) ? type : nil
    case .sum:
      // (Of true/false values: how many are true, as DuckDB and pandas sum them.)
      switch type {
      case .int, .double, .decimal, .duration, .null: type
      case .bool: .int
      default: nil
      }
    case .mean:
      // (Of true/false values: the fraction that is true.)
      switch type {
      case .int, .double, .decimal, .bool: .double
      case .duration, .null: type
      default: nil
      }
    case .median, .quantile:
      switch type {
      case .int, .double, .decimal, .null: .double
      default: nil
      }
    }
  }
}

/// A column of a checked `stats`: an aggregate of an expression, and the column's name.
public struct BoundAggregate: Sendable {
  /// What it computes.
  public var function: Aggregate
  /// What it computes it of; nil for `count()`, which counts records.
  public var argument: BoundExpr?
  /// The column's name: its `as` name, or the item as written (`mean(dep_delay)`).
  public var name: String
  /// The type of its values (``Aggregate/resultType(of:)``).
  public var type: ValueType
  /// For `quantile`, the fraction of the way through the values (0 to 1); 0.5 for `median`.
  public var fraction: Double?

  /// A column computing `function` of `argument`, called `name`.
  public init(_ function: Aggregate, of argument: BoundExpr?, name: String, type: ValueType) {
    self.function = function
    self.argument = argument
    self.name = name
    self.type = type
    if function == .median { fraction = 0.5 }
  }
}

/// A key of `order by` over the rows of a `stats`: a column, its direction, and where nulls go
/// (last unless `nulls first` is said, as for queries).
public struct StatsOrder: Hashable, Sendable {
  /// The column, an index into ``BoundStats/schema``.
  public var column: Int
  /// Ascending or descending.
  public var direction: SortDirection
  /// Whether nulls come first.
  public var nullsFirst: Bool

  /// A key sorting by `column`.
  public init(column: Int, direction: SortDirection, nullsFirst: Bool) {
    self.column = column
    self.direction = direction
    self.nullsFirst = nullsFirst
  }
}

/// A key of a checked `stats`: the expression after `by` and its column's name.
public struct BoundGroupKey: Sendable {
  /// The value grouped by; a list's elements each make their own group.
  public var key: BoundExpr
  /// The column's name.
  public var name: String

  /// A key grouping by `key`, shown as `name`.
  public init(_ key: BoundExpr, name: String) {
    self.key = key
    self.name = name
  }
}

/// A checked `stats` (``StatsQuery``): its keys, its aggregates and its filter, bound. What
/// every engine computes, the same way.
public struct BoundStats: Sendable {
  /// The keys, in the order written (empty: one row).
  public var groups: [BoundGroupKey]
  /// The aggregates, in the order written (a bare item stands for several).
  public var aggregates: [BoundAggregate]
  /// The filter, or nil for every record.
  public var filter: BoundExpr?
  /// `order by`: columns of ``schema`` to sort the rows by, most significant first (the rows
  /// are otherwise in the order of their keys, which breaks ties).
  public var ordering: [StatsOrder] = []
  /// `limit n`: at most this many rows, after ordering and `offset`.
  public var limit: Int?
  /// `offset n`: the rows passed over, after ordering.
  public var offset = 0

  /// Stats of these parts.
  public init(groups: [BoundGroupKey], aggregates: [BoundAggregate], filter: BoundExpr?) {
    self.groups = groups
    self.aggregates = aggregates
    self.filter = filter
  }

  /// These stats over the records matching `filter` (their own filter left out).
  public func filtered(by filter: BoundExpr?) -> BoundStats {
    var copy = self
    copy.filter = filter
    return copy
  }

  /// The result's columns: the keys (a list key's element type), then the aggregates.
  public var schema: Schema {
    Schema(
      groups.map { group in
        let type: ValueType =
          if case .list(let element) = group.key.type { element } else {
            group.key.type
          }
        return Schema.Field(group.name, type, optional: true)
      } + aggregates.map { Schema.Field($0.name, $0.type, optional: true) })
  }

  /// Every expression it evaluates per record (keys, then the aggregates' arguments), and its
  /// filter.
  public var expressions: [BoundExpr] {
    groups.map(\.key) + aggregates.compactMap(\.argument) + (filter.map { [$0] } ?? [])
  }
}
