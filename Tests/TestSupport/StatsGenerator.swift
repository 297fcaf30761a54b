import FilterDSL

/// Random `stats` over ``TypedFilterGenerator``'s records: keys and aggregates of fields and
/// of computed values of every type, with and without a filter. Seeded.
public struct StatsGenerator {
  /// The generator of the values, filters and records.
  public var values: TypedFilterGenerator

  /// A generator whose stats and records follow from `seed`.
  public init(seed: UInt64) { values = TypedFilterGenerator(seed: seed) }

  /// A `stats` with 0 to 2 keys, 1 to 4 items and, half the time, a filter.
  public mutating func stats() -> StatsQuery {
    let keys = (0..<values.rng.int(0...2)).map { _ in SelectItem(key()) }
    var items: [SelectItem] = []
    for _ in 0..<values.rng.int(1...4) { items.append(SelectItem(aggregate())) }
    // Names must differ: number the columns.
    let named = items.enumerated().map { SelectItem($1.expr, as: Name("c\($0)")) }
    let keyed = keys.enumerated().map { SelectItem($1.expr, as: Name("k\($0)")) }
    var stats = StatsQuery(
      named, by: keyed, filter: values.rng.chance(0.5) ? values.bool(2) : nil)
    if !keyed.isEmpty && values.rng.chance(0.3) {
      // Ordered by a key (exact values: a decimal aggregate may differ in its last digit
      // between engines, and a limit would then keep other rows), then cut.
      let key = SortKey(
        field("k\(values.rng.int(0...(keyed.count - 1)))"),
        values.rng.pick(SortDirection.allCases),
        nulls: values.rng.chance(0.3) ? .first : nil)
      stats.ordering = [key]
      if values.rng.chance(0.7) { stats.limit = Expr(.literal(.int(Int64(values.rng.int(0...3))))) }
      if values.rng.chance(0.3) { stats.offset = Expr(.literal(.int(1))) }
    }
    return stats
  }

  private func field(_ name: String) -> Expr { Expr(.field(FieldPath(name))) }

  private mutating func key() -> Expr {
    switch values.rng.int(0...7) {
    case 0: field("s")
    case 1: field("b")
    case 2: field("t")
    case 3: field("j")
    case 4: field("tags")
    case 5: field("nums")
    case 6: values.string(1)
    default: values.int(1)
    }
  }

  /// A value of some type, for an aggregate to take.
  private mutating func value() -> Expr {
    switch values.rng.int(0...9) {
    case 0: field("i")
    case 1: field("d")
    case 2: field("du")
    case 3: field("s")
    case 4: field("dt")
    case 5: values.int(2)
    case 6: values.double(2)
    case 7: values.duration(1)
    case 8: values.date(1)
    default: values.string(1)
    }
  }

  private mutating func aggregate() -> Expr {
    let numeric = values.rng.pick([field("i"), field("d"), field("du"), field("j")])
    let call = { (name: String, argument: Expr?) in
      Expr(.call(Name(name), argument.map { [$0] } ?? []))
    }
    switch values.rng.int(0...8) {
    case 0: return call("count", nil)
    case 1: return call("count", value())
    case 2:
      // (Of true/false values too: how many are true.)
      let argument =
        switch values.rng.int(0...5) {
        case 0: field("b")
        case 1: values.bool(1)
        case 2, 3: numeric
        default: values.int(2)
        }
      return call("sum", argument)
    case 3:
      return call(values.rng.pick(["mean", "avg"]), values.rng.chance(0.2) ? field("b") : numeric)
    case 4: return call("min", value())
    case 5: return call("max", value())
    case 6: return call("distinct", value())
    case 7 where values.rng.chance(0.5):
      // Quantiles, of numbers.
      let fraction = Expr(.literal(.double(values.rng.pick([0, 0.1, 0.5, 0.75, 1]))))
      return values.rng.chance(0.5)
        ? call("median", numeric)
        : Expr(
          .call(Name("quantile"), [values.rng.chance(0.5) ? numeric : values.double(1), fraction]))
    case 7: return call("sum", values.double(2))
    default: return numeric
    }
  }

  /// Whether two sets of rows hold the same rows, in any order, decimals equal within a
  /// relative 1e-9 (engines add them in different orders).
  public static func same(_ a: [[Value]], _ b: [[Value]]) -> Bool {
    guard a.count == b.count else { return false }
    var left = a
    for row in b {
      guard let index = left.firstIndex(where: { same(row: $0, row) }) else { return false }
      left.remove(at: index)
    }
    return true
  }

  /// Whether two rows hold the same values, decimals nearly.
  public static func same(row a: [Value], _ b: [Value]) -> Bool {
    a.count == b.count
      && zip(a, b).allSatisfy { x, y in
        switch (x, y) {
        case (.double(let p), .double(let q)):
          p == q || (p.isNaN && q.isNaN) || abs(p - q) <= 1e-9 * max(abs(p), abs(q))
        default: x == y
        }
      }
  }
}
