extension ReferenceEvaluator {
  /// The rows of `stats` over `records`, computed the plainest way, for the engines to be
  /// checked against: each record's truth, keys and values by this evaluator, every value of
  /// a group kept, then each aggregate from the kept values (integers summed in 128 bits,
  /// decimals in order with Neumaier's compensation, in no particular row order). Faults: the filter's on every record,
  /// the keys' and values' on the records that match.
  public func stats(_ stats: BoundStats, on records: [[Value]]) -> (
    rows: [[Value]], faults: FaultCounts
  ) {
    var faults = FaultCounts()
    var groups: [[Value]: [[Value?]]] = [:]
    var order: [[Value]] = []
    if stats.groups.isEmpty {
      groups[[]] = []
      order.append([])
    }
    for record in records {
      if let filter = stats.filter {
        let (truth, met) = evaluate(filter.source, on: record)
        faults.merge(met)
        guard truth == .true else { continue }
      }
      var key: [Value] = []
      for group in stats.groups {
        let (value, met) = value(group.key.source, on: record)
        faults.merge(met)
        key.append(value)
      }
      var values: [Value?] = []
      for aggregate in stats.aggregates {
        guard let argument = aggregate.argument else {
          values.append(nil)
          continue
        }
        let (value, met) = value(argument.source, on: record)
        faults.merge(met)
        values.append(value)
      }
      var keys: [[Value]] = [[]]
      for value in key {
        var choices = [value]
        if case .list(let items) = value {
          choices = []
          for item in items where !choices.contains(item) { choices.append(item) }
        }
        keys = keys.flatMap { prefix in choices.map { prefix + [$0] } }
      }
      for key in keys {
        if groups[key] == nil { order.append(key) }
        groups[key, default: []].append(values)
      }
    }
    let rows = order.map { key in
      key
        + stats.aggregates.indices.map { column in
          let aggregate = stats.aggregates[column]
          let all = groups[key, default: []].map { $0[column] }
          return Self.aggregate(aggregate, all, &faults)
        }
    }
    return (StatsTally.arranged(rows, stats), faults)
  }

  /// One aggregate of a group's values (nil: a record, for `count()`).
  private static func aggregate(
    _ aggregate: BoundAggregate, _ all: [Value?], _ faults: inout FaultCounts
  ) -> Value {
    let values = all.compactMap { $0 }.filter { !$0.isNull }
    switch aggregate.function {
    case .count: return .int(Int64(aggregate.argument == nil ? all.count : values.count))
    case .distinct: return .int(Int64(Set(values).count))
    case .median, .quantile:
      // Sorted, then the value at position p × (n - 1), between its two neighbours.
      var numbers: [Double] = []
      for value in values {
        switch value {
        case .int(let n): numbers.append(Double(n))
        case .double(let d) where !d.isNaN: numbers.append(d)
        case .double: break
        case .decimal(let d): numbers.append(d.doubleValue)
        default: faults.record(.invalidConversion)
        }
      }
      guard !numbers.isEmpty else { return .null }
      numbers.sort()
      let position = (aggregate.fraction ?? 0.5) * Double(numbers.count - 1)
      let index = Int(position)
      let weight = position - Double(index)
      guard weight > 0, index + 1 < numbers.count, numbers[index] != numbers[index + 1] else {
        return .double(numbers[index])
      }
      return .double(numbers[index] * (1 - weight) + numbers[index + 1] * weight)
    case .min, .max:
      var best: Value? = nil
      for value in values {
        if case .double(let d) = value, d.isNaN { continue }
        guard let current = best else {
          best = value
          continue
        }
        if let order = ValueOrder.compare(value, current),
          aggregate.function == .min ? order < 0 : order > 0
        {
          best = value
        }
      }
      return best ?? .null
    case .sum, .mean:
      guard !values.isEmpty else { return .null }
      var integers: Int128 = 0
      var decimals = 0.0
      var compensation = 0.0
      var exact: ExactDecimal? = ExactDecimal(0)
      for value in values {
        switch value {
        case .int(let n): integers += Int128(n)
        case .bool(let b): integers += b ? 1 : 0
        case .duration(let span): integers += Int128(span.nanoseconds)
        // Compensated, as the engines add: a plain sum of 9.2e18, 2.5 and -9.2e18 depends on
        // the order (0 or 2.5).
        case .double(let d): StatsAccumulator.neumaier(&decimals, &compensation, d)
        case .decimal(let d):
          StatsAccumulator.neumaier(&decimals, &compensation, d.doubleValue)
          exact = exact?.adding(d)
        default: break
        }
      }
      let n = Int128(values.count)
      switch aggregate.type {
      case .int:
        return Int64(exactly: integers).map(Value.int) ?? .double(Double(integers))
      case .duration:
        let total: Int128
        if aggregate.function == .sum {
          total = integers
        } else {
          // Halves away from zero.
          let twice = integers * 2
          total = (twice + (integers < 0 ? -n : n)) / (2 * n)
        }
        guard let ns = Int64(exactly: total) else {
          faults.record(.integerOverflow)
          return .null
        }
        return .duration(TimeSpan(nanoseconds: ns))
      case .decimal where aggregate.function == .sum:
        guard let whole = ExactDecimal(significand: integers, scale: 0),
          let total = exact?.adding(whole)
        else {
          faults.record(.integerOverflow)
          return .null
        }
        return .decimal(total)
      case .double:
        let total = Double(integers) + (decimals + compensation)
        return .double(aggregate.function == .sum ? total : total / Double(values.count))
      default:
        return .null
      }
    }
  }
}
