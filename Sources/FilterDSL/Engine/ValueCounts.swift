/// How many records hold each value of a field, in the order the values came: a facet's
/// tally, its values found by ``GroupIndex``'s cheap hash (a facet of a million distinct texts
/// went through a `Dictionary` keyed by `Value` three times per value).
package struct ValueCounts: Sendable {
  private var index = GroupIndex(width: 1)
  /// Each value's count, by its number in ``index``.
  private var counts: [Int] = []

  /// No value counted yet.
  package init() {}

  /// How many distinct values were counted.
  package var count: Int { counts.count }
  /// The records counted: the sum of the counts.
  package var total: Int { counts.reduce(0, &+) }

  /// Counts `value` `times` more times, as it is.
  package mutating func add(_ value: Value, times: Int = 1) {
    let slot = index.group([value])
    if slot == counts.count { counts.append(0) }
    counts[slot] &+= times
  }

  /// Counts a record's value `times` more times: each distinct element of a list once (a
  /// record with `[5G, 5G, eSIM]` counts once for `5G`), or the value itself.
  package mutating func addRecords(holding value: Value, times: Int = 1) {
    guard case .list(let items) = value else {
      add(value, times: times)
      return
    }
    for item in Set(items) { add(item, times: times) }
  }

  /// Adds what `other` counted.
  package mutating func merge(_ other: ValueCounts) {
    for slot in other.counts.indices {
      add(other.index.first(of: slot), times: other.counts[slot])
    }
  }

  /// The values and their counts, most frequent first; ties in value order, nulls last.
  package var ranked: [FacetCounts.Count] {
    counts.indices.map { FacetCounts.Count(value: index.first(of: $0), count: counts[$0]) }
      .sorted { a, b in
        if a.count != b.count { return a.count > b.count }
        if a.value.isNull != b.value.isNull { return b.value.isNull }
        if let order = ValueOrder.compare(a.value, b.value), order != 0 { return order < 0 }
        return "\(a.value)" < "\(b.value)"
      }
  }
}
