/// The running state of a `stats`: one row of aggregates per group met so far. Tallies of
/// different records (two threads, two blocks) merge; ``result()`` gives the rows.
public struct StatsTally: Sendable {
  /// The stats tallied.
  public let stats: BoundStats
  /// The records tallied (after the filter).
  public private(set) var records = 0
  /// Faults met: evaluating the keys and values, and values an aggregate could not take.
  public var faults = FaultCounts()
  /// The groups met, by their keys' values.
  private var index: GroupIndex
  /// The groups' accumulators, a group's after another's (one per aggregate).
  private var accumulators: [StatsAccumulator] = []
  /// The accumulators of a group not met yet.
  private let fresh: [StatsAccumulator]
  /// The number of groups.
  private var groups: Int { index.count }

  /// An empty tally of `stats`.
  public init(_ stats: BoundStats) {
    self.stats = stats
    fresh = stats.aggregates.map { StatsAccumulator($0.function, fraction: $0.fraction ?? 0.5) }
    index = GroupIndex(width: stats.groups.count)
    if stats.groups.isEmpty { _ = row(for: []) }
  }

  /// The row of the group with these keys' values, made when new.
  mutating func row(for key: [Value]) -> Int {
    let before = index.count
    let row = index.group(key)
    if index.count > before {
      for accumulator in fresh { accumulators.append(accumulator) }
    }
    return row
  }

  /// Adds one record, whose keys' values are `key` (a list's elements each a group of their
  /// own) and whose aggregates' arguments are `values` (nil for `count()`).
  mutating func add(key: [Value], values: [Value?]) {
    records &+= 1
    guard key.contains(where: { if case .list = $0 { true } else { false } }) else {
      add(values, toRow: row(for: key))
      return
    }
    for key in Self.expanded(key) { add(values, toRow: row(for: key)) }
  }

  private mutating func add(_ values: [Value?], toRow row: Int) {
    let first = row * fresh.count
    for (column, value) in values.enumerated() {
      if let value {
        accumulators[first + column].add(value, &faults)
      } else {
        accumulators[first + column].addRecord()
      }
    }
  }

  /// Every combination of the keys' values: a list key stands for each of its distinct
  /// elements (none when it is empty, as facets count them).
  private static func expanded(_ key: [Value]) -> [[Value]] {
    var combinations: [[Value]] = [[]]
    for value in key {
      let choices: [Value]
      if case .list(let items) = value {
        var distinct: [Value] = []
        for item in items where !distinct.contains(item) { distinct.append(item) }
        choices = distinct
      } else {
        choices = [value]
      }
      combinations = combinations.flatMap { prefix in choices.map { prefix + [$0] } }
    }
    return combinations
  }

  /// Adds `records` records of the group with these keys' values, whose aggregates are
  /// `accumulators`.
  mutating func merge(key: [Value], _ accumulators: [StatsAccumulator], records: Int) {
    self.records &+= records
    let first = row(for: key) * fresh.count
    for (column, accumulator) in zip(fresh.indices, accumulators) {
      self.accumulators[first + column].merge(accumulator, &faults)
    }
  }

  /// Adds `records` records of the group with these keys' values, whose aggregates a back end
  /// computed in parts (a database's `GROUP BY`): for each aggregate, how many values it took,
  /// their exact integer sum, and the least or greatest of them.
  package mutating func merge(
    key: [Value], records: Int, parts: [(count: Int, integers: Int128, extreme: Value?)]
  ) {
    let accumulators = zip(stats.aggregates, parts).map { aggregate, part in
      StatsAccumulator(
        aggregate.function, count: part.count, integers: part.integers, decimals: 0,
        compensation: 0, least: aggregate.function == .min ? part.extreme : nil,
        greatest: aggregate.function == .max ? part.extreme : nil)
    }
    merge(key: key, accumulators, records: records)
  }

  /// Adds what `other` tallied (the same stats over other records).
  public mutating func merge(_ other: StatsTally) {
    records &+= other.records
    faults.merge(other.faults)
    for index in 0..<other.groups {
      let (first, theirs) = (
        row(for: Array(other.index.key(of: index))) * fresh.count, index * fresh.count
      )
      for column in fresh.indices {
        accumulators[first + column].merge(other.accumulators[theirs + column], &faults)
      }
    }
  }

  /// The rows, sorted by their keys (nulls last), each the keys' values and then the
  /// aggregates'.
  public func result() -> StatsResult {
    var faults = self.faults
    var beyond: Set<Int> = []
    var rows: [[Value]] = []
    rows.reserveCapacity(groups)
    for index in 0..<groups {
      var row = Array(self.index.key(of: index))
      row.reserveCapacity(self.index.width + fresh.count)
      for (column, aggregate) in stats.aggregates.enumerated() {
        let (value, past) = accumulators[index * fresh.count + column].result(
          as: aggregate.type, &faults)
        if past { beyond.insert(column) }
        row.append(value)
      }
      rows.append(row)
    }
    rows = Self.arranged(rows, stats)
    let width = stats.groups.count
    let schema = Schema(
      stats.schema.fields.enumerated().map { index, field in
        beyond.contains(index - width) ? Schema.Field(field.name, .double, optional: true) : field
      })
    return StatsResult(
      schema: schema, rows: rows, records: records, faults: faults,
      beyondIntegers: beyond.sorted().map { stats.aggregates[$0].name })
  }

  /// `rows` in the order `stats` says: by their keys, then by its `order by` (ties keep the
  /// keys' order), then its `offset` and `limit`. The one arrangement every engine's rows get
  /// (the reference evaluator's too).
  package static func arranged(_ rows: [[Value]], _ stats: BoundStats) -> [[Value]] {
    let width = stats.groups.count
    var rows = rows.sorted { a, b in precedes(a.prefix(width), b.prefix(width)) }
    if !stats.ordering.isEmpty {
      // Swift's sort is not stable: the keys' order is the last tie-breaker, by position.
      let order = stats.ordering
      rows = rows.enumerated().sorted { a, b in
        for key in order {
          let (x, y) = (a.element[key.column], b.element[key.column])
          if x.isNull != y.isNull { return x.isNull == key.nullsFirst }
          if x.isNull { continue }
          let ascending = precedes([x], [y])
          if ascending || precedes([y], [x]) {
            return key.direction == .ascending ? ascending : !ascending
          }
        }
        return a.offset < b.offset
      }.map(\.element)
    }
    let start = min(stats.offset, rows.count)
    let end = stats.limit.map { min(start + min($0, rows.count), rows.count) } ?? rows.count
    return Array(rows[start..<end])
  }

  /// Key order: value by value, nulls last, values of different kinds by their text.
  private static func precedes(_ a: ArraySlice<Value>, _ b: ArraySlice<Value>) -> Bool {
    for (x, y) in zip(a, b) where x != y {
      if x.isNull != y.isNull { return y.isNull }
      if let order = ValueOrder.compare(x, y), order != 0 { return order < 0 }
      let (left, right) = (x.description, y.description)
      if left != right { return left < right }
    }
    return false
  }
}

/// What a `stats` found: a row per group (the keys' values, then the aggregates'), the
/// records it aggregated, and the faults met.
public struct StatsResult: Hashable, Sendable {
  /// The columns: the keys', then the aggregates'.
  public var schema: Schema
  /// The rows, sorted by their keys; one row when there are no keys.
  public var rows: [[Value]]
  /// The records aggregated (those matching the filter).
  public var records: Int
  /// Faults met while filtering and aggregating.
  public var faults: FaultCounts
  /// The columns whose integer sum left 64 bits in some row: given there as the nearest
  /// decimal (the column's type is then a decimal).
  public var beyondIntegers: [String]

  /// What to say about the rows beside them, a line each: the columns whose sums left 64 bits.
  public var notes: [String] {
    beyondIntegers.map {
      "note: \($0) is beyond 64-bit integers in some rows: shown there as the nearest decimal\n"
    }
  }

  package init(
    schema: Schema, rows: [[Value]], records: Int, faults: FaultCounts, beyondIntegers: [String]
  ) {
    self.schema = schema
    self.rows = rows
    self.records = records
    self.faults = faults
    self.beyondIntegers = beyondIntegers
  }
}
