import Dispatch

/// `stats` over records held by column (a ``ColumnTable``), without a value per record: each
/// record's group is a number made of its keys' codes; a coded column of numbers is counted
/// code by code per group (a histogram, from which every aggregate of it follows), other
/// numbers are gathered a chunk at a time and added into flat arrays, a slot per group. Each
/// column is read once however many aggregates take it. Used when every key is a top-level
/// field whose column is coded (text, true/false, integers or dates with few distinct values;
/// not lists) and every aggregate is `count()`, or `count`, `sum`, `mean`, `min` or `max` of a
/// top-level field of numbers; otherwise the counter evaluates each record (the same results:
/// the differential tests run both).
struct ColumnStats<Root>: @unchecked Sendable {
  /// A column the aggregates read, read once per chunk.
  private enum Feed {
    /// Integers or decimals, gathered.
    case numbers(NumberColumn<Root>)
    /// A coded column of numbers, counted by code per group: each code's number.
    case coded(CodedColumn<Root>, [Value])
  }

  private let keys: [CodedColumn<Root>]
  /// For each key, what its code is multiplied by in a group's number.
  private let strides: [Int]
  private let groupCount: Int
  private let functions: [Aggregate]
  private let feeds: [Feed]
  /// Each aggregate's feed (nil: `count()`).
  private let feedOf: [Int?]

  /// The fast form of `stats` over `columns`, or nil when some key or aggregate is not of the
  /// forms above, or the keys (times a coded column's codes) have too many combinations.
  init?(_ stats: BoundStats, _ columns: ColumnAccess<Root>) {
    var keys: [CodedColumn<Root>] = []
    var strides: [Int] = []
    var groups = 1
    for group in stats.groups {
      guard case .field(let field) = group.key.kind, !group.key.type.isList,
        let column = columns.codedColumn(field)
      else { return nil }
      keys.append(column)
      strides.append(groups)
      groups *= Swift.max(column.values.count, 1)
      guard groups <= 1 << 20 else { return nil }
    }
    var feeds: [Feed] = []
    var fields: [FieldRef] = []
    var feedOf: [Int?] = []
    for aggregate in stats.aggregates {
      // Distinct values and quantiles keep every value: the general tally does.
      guard ![.distinct, .median, .quantile].contains(aggregate.function) else { return nil }
      guard let argument = aggregate.argument else {
        feedOf.append(nil)
        continue
      }
      guard case .field(let field) = argument.kind,
        argument.type == .int || argument.type == .double
      else { return nil }
      if let known = fields.firstIndex(of: field) {
        feedOf.append(known)
        continue
      }
      if let numbers = columns.numbers(field) {
        feeds.append(.numbers(numbers))
      } else if let coded = columns.codedColumn(field),
        coded.values.allSatisfy({
          switch $0 {
          case .int, .double, .null: true
          default: false
          }
        }), groups * Swift.max(coded.values.count, 1) <= 1 << 22
      {
        feeds.append(.coded(coded, coded.values))
      } else {
        return nil
      }
      fields.append(field)
      feedOf.append(feeds.count - 1)
    }
    self.keys = keys
    self.strides = strides
    groupCount = groups
    functions = stats.aggregates.map(\.function)
    self.feeds = feeds
    self.feedOf = feedOf
  }

  /// The state of one gathered feed, a slot per group: what its aggregates need.
  private struct Sums {
    var counts: [Int]
    var integers: [Int128]
    var decimals: [Double]
    var compensations: [Double]
    var least: [Double]
    var greatest: [Double]
    var leastInts: [Int64]
    var greatestInts: [Int64]

    /// Adds what `other` holds (the same groups, other records).
    mutating func merge(_ other: Sums) {
      for group in counts.indices {
        counts[group] &+= other.counts[group]
        integers[group] &+= other.integers[group]
        StatsAccumulator.neumaier(&decimals[group], &compensations[group], other.decimals[group])
        StatsAccumulator.neumaier(
          &decimals[group], &compensations[group], other.compensations[group])
        least[group] = Swift.min(least[group], other.least[group])
        greatest[group] = Swift.max(greatest[group], other.greatest[group])
        leastInts[group] = Swift.min(leastInts[group], other.leastInts[group])
        greatestInts[group] = Swift.max(greatestInts[group], other.greatestInts[group])
      }
    }

    init(_ groups: Int) {
      counts = [Int](repeating: 0, count: groups)
      integers = [Int128](repeating: 0, count: groups)
      decimals = [Double](repeating: 0, count: groups)
      compensations = [Double](repeating: 0, count: groups)
      least = [Double](repeating: .infinity, count: groups)
      greatest = [Double](repeating: -.infinity, count: groups)
      leastInts = [Int64](repeating: .max, count: groups)
      greatestInts = [Int64](repeating: .min, count: groups)
    }
  }

  /// Adds the records of `records` that match `filter` (all of them when nil) to `tally`,
  /// each batch's matches as the filter finds them; on both cores when there are many (each
  /// its own half of each round, into its own state, merged at the end). `stop` is asked
  /// between rounds; the filter's faults go into the tally's, and a run over its limits adds
  /// nothing more.
  func add(
    _ records: [Root], filter: CompiledFilter<Root>?, to tally: inout StatsTally,
    until stop: () -> Bool
  ) {
    let total = records.count
    let threads = total >= 1 << 15 ? 2 : 1
    let partials = (0..<threads).map { _ in Partial(self) }
    // (Large rounds: each wakes the other thread, which costs as much as thousands of rows.)
    let round = 1 << 18
    var start = 0
    var faults = [FaultCounts](repeating: FaultCounts(), count: threads)
    while start < total, !stop(), tally.faults.overLimit == nil {
      let end = Swift.min(start + round * threads, total)
      let share = (end - start + threads - 1) / threads
      let from = start
      let spent = tally.faults.cost
      faults.withUnsafeMutableBufferPointer { faults in
        let work = Work(
          stats: self, records: records, filter: filter, spent: spent, partials: partials,
          faults: faults)
        if threads == 1 {
          work.run(from..<end, 0)
        } else {
          DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let lower = Swift.min(from + thread * share, end)
            work.run(lower..<Swift.min(lower + share, end), thread)
          }
        }
      }
      for index in faults.indices {
        tally.faults.merge(faults[index])
        faults[index] = FaultCounts()
      }
      start = end
    }
    if tally.faults.overLimit != nil { return }
    let whole = partials[0]
    for other in partials.dropFirst() { whole.merge(other) }
    // The groups met, into the tally.
    for group in whole.seen.indices where whole.seen[group] > 0 {
      var key: [Value] = []
      for (column, stride) in zip(keys, strides) {
        let code = group / stride % Swift.max(column.values.count, 1)
        key.append(code < column.values.count ? column.values[code] : .null)
      }
      let accumulators = functions.indices.map { column in
        accumulator(column, group, whole.seen[group], whole.histograms, whole.sums)
      }
      tally.merge(key: key, accumulators, records: whole.seen[group])
    }
  }

  /// What the threads of a round share: the stats, the records and the filter, read only,
  /// and a state and faults per thread, each written by its thread alone.
  private struct Work: @unchecked Sendable {
    let stats: ColumnStats
    let records: [Root]
    let filter: CompiledFilter<Root>?
    /// The cost the run spent before this round.
    let spent: Int
    let partials: [Partial]
    let faults: UnsafeMutableBufferPointer<FaultCounts>

    /// Adds the matches at `range` to the state of `thread`: a batch at a time, as the filter
    /// finds them, or a chunk at a time without a filter.
    func run(_ range: Range<Int>, _ thread: Int) {
      guard let filter else {
        var start = range.lowerBound
        while start < range.upperBound {
          let end = Swift.min(start + Partial.chunk, range.upperBound)
          partials[thread].add(
            RecordPick(records: records, positions: nil, range: start..<end), stats)
          start = end
        }
        return
      }
      filter.forEachBatch(
        records, in: range, until: { false }, spent: spent, faults: &faults[thread]
      ) { matches in
        partials[thread].add(
          RecordPick(records: records, positions: matches, range: 0..<matches.count), stats)
      }
    }
  }

  /// One thread's state: per group, its records, each coded feed's histogram, each gathered
  /// feed's sums; and the buffers a chunk is read into.
  private final class Partial {
    static var chunk: Int { 4096 }
    var seen: [Int]
    var histograms: [[Int]]
    var sums: [Sums]
    /// What the aggregates of each gathered feed need: sums, the least and greatest.
    let summed: [Bool]
    let extremes: [Bool]
    var groupOf = [Int](repeating: 0, count: Partial.chunk)
    var ints = [Int64](repeating: 0, count: Partial.chunk)
    var doubles = [Double](repeating: 0, count: Partial.chunk)
    var present = [Bool](repeating: false, count: Partial.chunk)
    var codes = [UInt32](repeating: 0, count: Partial.chunk)

    /// The codes of `column` for the records of `part`, in ``codes``.
    private func readCodes(_ column: CodedColumn<Root>, _ part: RecordPick<Root>) {
      codes.withUnsafeMutableBufferPointer { codes in
        guard let codes = codes.baseAddress else { return }
        column.pickedCodes(part, codes)
      }
    }

    init(_ stats: ColumnStats) {
      seen = [Int](repeating: 0, count: stats.groupCount)
      histograms = stats.feeds.map { feed in
        guard case .coded(_, let values) = feed else { return [] }
        return [Int](repeating: 0, count: stats.groupCount * Swift.max(values.count, 1))
      }
      // (Empty for a coded feed.)
      sums = stats.feeds.map { feed in
        if case .numbers = feed { Sums(stats.groupCount) } else { Sums(0) }
      }
      func needs(_ feed: Int, _ wanted: [Aggregate]) -> Bool {
        stats.functions.indices.contains {
          stats.feedOf[$0] == feed && wanted.contains(stats.functions[$0])
        }
      }
      summed = stats.feeds.indices.map { needs($0, [.sum, .mean]) }
      extremes = stats.feeds.indices.map { needs($0, [.min, .max]) }
    }

    /// Adds the records of `part` (at most ``chunk``).
    func add(_ part: RecordPick<Root>, _ stats: ColumnStats) {
      let n = part.count
      // (Without keys every record is in group 0: `groupOf` stays zero.)
      if stats.keys.isEmpty, !seen.isEmpty {
        seen[0] &+= n
      } else {
        countGroups(part, stats)
      }
      addFeeds(part, stats)
    }

    /// Puts each record's group in ``groupOf`` (its keys' codes times their strides), and
    /// counts the groups.
    private func countGroups(_ part: RecordPick<Root>, _ stats: ColumnStats) {
      let n = part.count
      groupOf.withUnsafeMutableBufferPointer { groupOf in
        for index in 0..<n { groupOf[index] = 0 }
        for (key, stride) in zip(stats.keys, stats.strides) {
          readCodes(key, part)
          codes.withUnsafeBufferPointer { codes in
            for index in 0..<n { groupOf[index] &+= Int(codes[index]) &* stride }
          }
        }
        seen.withUnsafeMutableBufferPointer { seen in
          for index in 0..<n { seen[groupOf[index]] &+= 1 }
        }
      }
    }

    /// Adds the feeds of the records of `part`, whose groups are in ``groupOf``.
    private func addFeeds(_ part: RecordPick<Root>, _ stats: ColumnStats) {
      let n = part.count
      for feed in stats.feeds.indices {
        switch stats.feeds[feed] {
        case .coded(let column, let values):
          readCodes(column, part)
          let width = Swift.max(values.count, 1)
          groupOf.withUnsafeBufferPointer { groupOf in
            codes.withUnsafeBufferPointer { codes in
              histograms[feed].withUnsafeMutableBufferPointer { histogram in
                for index in 0..<n {
                  let code = Swift.min(Int(codes[index]), width - 1)
                  histogram[groupOf[index] &* width &+ code] &+= 1
                }
              }
            }
          }
        case .numbers(.ints(let gather)):
          ints.withUnsafeMutableBufferPointer { values in
            present.withUnsafeMutableBufferPointer { present in
              guard let values = values.baseAddress, let present = present.baseAddress else {
                return
              }
              gather(part, values, present)
            }
          }
          ColumnStats.addInts(n, groupOf, ints, present, summed[feed], extremes[feed], &sums[feed])
        case .numbers(.doubles(let gather)):
          doubles.withUnsafeMutableBufferPointer { values in
            present.withUnsafeMutableBufferPointer { present in
              guard let values = values.baseAddress, let present = present.baseAddress else {
                return
              }
              gather(part, values, present)
            }
          }
          ColumnStats.addDoubles(
            n, groupOf, doubles, present, summed[feed], extremes[feed], &sums[feed])
        }
      }
    }

    /// Adds what `other` holds.
    func merge(_ other: Partial) {
      for group in seen.indices { seen[group] &+= other.seen[group] }
      for feed in histograms.indices {
        for slot in histograms[feed].indices {
          histograms[feed][slot] &+= other.histograms[feed][slot]
        }
      }
      for feed in sums.indices { sums[feed].merge(other.sums[feed]) }
    }
  }

  /// The accumulator of aggregate `column` for `group`, from its feed's state.
  private func accumulator(
    _ column: Int, _ group: Int, _ records: Int, _ histograms: [[Int]], _ sums: [Sums]
  ) -> StatsAccumulator {
    let function = functions[column]
    guard let feed = feedOf[column] else {
      return StatsAccumulator(
        function, count: records, integers: 0, decimals: 0, compensation: 0, least: nil,
        greatest: nil)
    }
    var count = 0
    var integers: Int128 = 0
    var decimals = 0.0
    var compensation = 0.0
    var least: Value? = nil
    var greatest: Value? = nil
    switch feeds[feed] {
    case .coded(_, let values):
      let width = Swift.max(values.count, 1)
      for code in values.indices {
        let times = histograms[feed][group * width + code]
        guard times > 0 else { continue }
        let value = values[code]
        switch value {
        case .int(let n): integers &+= Int128(n) &* Int128(times)
        case .double(let d):
          if d.isNaN && (function == .min || function == .max) { continue }
          StatsAccumulator.neumaier(&decimals, &compensation, d * Double(times))
        default: continue
        }
        count &+= times
        if least.map({ ValueOrder.compare(value, $0).map { $0 < 0 } ?? false }) ?? true {
          least = value
        }
        if greatest.map({ ValueOrder.compare(value, $0).map { $0 > 0 } ?? false }) ?? true {
          greatest = value
        }
      }
    case .numbers(let numbers):
      let state = sums[feed]
      count = state.counts[group]
      integers = state.integers[group]
      decimals = state.decimals[group]
      compensation = state.compensations[group]
      if case .ints = numbers {
        if state.leastInts[group] <= state.greatestInts[group] {
          least = .int(state.leastInts[group])
          greatest = .int(state.greatestInts[group])
        }
      } else if state.least[group] <= state.greatest[group] {
        least = .double(state.least[group])
        greatest = .double(state.greatest[group])
      }
    }
    return StatsAccumulator(
      function, count: count, integers: integers, decimals: decimals,
      compensation: compensation, least: function == .min ? least : nil,
      greatest: function == .max ? greatest : nil)
  }

  /// Counts, per group, the values present.
  private static func countPresent(
    _ n: Int, _ groupOf: UnsafeBufferPointer<Int>, _ present: UnsafeBufferPointer<Bool>,
    _ counts: inout [Int]
  ) {
    counts.withUnsafeMutableBufferPointer { counts in
      for index in 0..<n { counts[groupOf[index]] &+= present[index] ? 1 : 0 }
    }
  }

  private static func addInts(
    _ n: Int, _ groupOf: [Int], _ values: [Int64], _ present: [Bool], _ summed: Bool,
    _ extremes: Bool, _ sums: inout Sums
  ) {
    groupOf.withUnsafeBufferPointer { groupOf in
      values.withUnsafeBufferPointer { values in
        present.withUnsafeBufferPointer { present in
          countPresent(n, groupOf, present, &sums.counts)
          if summed {
            sums.integers.withUnsafeMutableBufferPointer { integers in
              // (A null's value is 0.)
              for index in 0..<n { integers[groupOf[index]] &+= Int128(values[index]) }
            }
          }
          guard extremes else { return }
          sums.leastInts.withUnsafeMutableBufferPointer { least in
            sums.greatestInts.withUnsafeMutableBufferPointer { greatest in
              for index in 0..<n where present[index] {
                let (group, value) = (groupOf[index], values[index])
                least[group] = Swift.min(least[group], value)
                greatest[group] = Swift.max(greatest[group], value)
              }
            }
          }
        }
      }
    }
  }

  private static func addDoubles(
    _ n: Int, _ groupOf: [Int], _ values: [Double], _ present: [Bool], _ summed: Bool,
    _ extremes: Bool, _ sums: inout Sums
  ) {
    groupOf.withUnsafeBufferPointer { groupOf in
      values.withUnsafeBufferPointer { values in
        present.withUnsafeBufferPointer { present in
          countPresent(n, groupOf, present, &sums.counts)
          if summed {
            sums.decimals.withUnsafeMutableBufferPointer { decimals in
              sums.compensations.withUnsafeMutableBufferPointer { compensations in
                for index in 0..<n where present[index] {
                  let group = groupOf[index]
                  StatsAccumulator.neumaier(&decimals[group], &compensations[group], values[index])
                }
              }
            }
          }
          guard extremes else { return }
          sums.least.withUnsafeMutableBufferPointer { least in
            sums.greatest.withUnsafeMutableBufferPointer { greatest in
              for index in 0..<n where present[index] && !values[index].isNaN {
                let (group, value) = (groupOf[index], values[index])
                if value < least[group] { least[group] = value }
                if value > greatest[group] { greatest[group] = value }
              }
            }
          }
        }
      }
    }
  }
}
