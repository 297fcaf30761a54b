/// One aggregate of one group, as values arrive: the count, exact sums, the least and greatest
/// value, the distinct values (only what its ``Aggregate`` needs).
///
/// Integers and durations are summed exactly in 128 bits (a sum of 64-bit integers cannot
/// leave them before 2^64 values); doubles with Neumaier's compensation, so that the order
/// the values come in changes the last digit at most; exact decimals exactly (a sum beyond 38
/// digits is a fault), and as doubles too, for their mean. Nulls are left out, as SQL leaves them
/// out; a NaN counts and makes a sum and a mean NaN, and is never the least or the greatest
/// (flt does not order NaN).
struct StatsAccumulator: Sendable {
  let function: Aggregate
  /// The values added (not null); for `count()`, the records.
  private(set) var count = 0
  /// Integers and durations (in nanoseconds), exactly.
  private var integers: Int128 = 0
  /// Doubles (and exact decimals as doubles), and what their rounding lost (Neumaier).
  private var decimals = 0.0
  private var compensation = 0.0
  /// The least value for `min`, the greatest for `max` (one field: a group of a `stats` by a
  /// million keys holds a million of these).
  private var extreme: Value?
  /// What few aggregates keep (nil until one does): a `stats` by a million keys holds a
  /// million accumulators, each a pointer for it.
  private var kept: Kept?

  /// The exact sum of the decimals added, the distinct values, a quantile's numbers: in a
  /// box each accumulator makes its own before it changes it.
  private final class Kept: @unchecked Sendable {
    // Unchecked: an accumulator changes its box only when it alone holds it (`unique`), as
    // an array changes its storage.
    /// Exact decimals, exactly; nil once their sum left 38 digits.
    var exact: ExactDecimal? = ExactDecimal(0)
    var seen: Set<Value> = []
    /// The numbers, for a quantile (NaN left out: flt does not order it).
    var numbers: [Double] = []
    /// The quantile's fraction (0.5 for the median).
    var fraction: Double

    init(fraction: Double) { self.fraction = fraction }

    func copy() -> Kept {
      let copy = Kept(fraction: fraction)
      (copy.exact, copy.seen, copy.numbers) = (exact, seen, numbers)
      return copy
    }
  }

  /// This accumulator's box, made, or copied when another accumulator holds it too.
  private mutating func unique() -> Kept {
    guard var box = kept else {
      let made = Kept(fraction: 0.5)
      kept = made
      return made
    }
    kept = nil
    if !isKnownUniquelyReferenced(&box) { box = box.copy() }
    kept = box
    return box
  }

  /// The exact sum of the decimals added (0 before one is).
  private var exact: ExactDecimal? { kept.map(\.exact) ?? ExactDecimal(0) }

  init(_ function: Aggregate, fraction: Double = 0.5) {
    self.function = function
    if function == .median || function == .quantile { kept = Kept(fraction: fraction) }
  }

  /// An accumulator holding these parts (``ColumnStats`` adds them up its own way).
  init(
    _ function: Aggregate, count: Int, integers: Int128, decimals: Double, compensation: Double,
    least: Value?, greatest: Value?
  ) {
    self.function = function
    self.count = count
    self.integers = integers
    self.decimals = decimals
    self.compensation = compensation
    extreme = function == .min ? least : function == .max ? greatest : nil
  }

  /// Adds `value`; a value the aggregate cannot take (text for a sum, after a field widened)
  /// is left out and counted as a fault.
  mutating func add(_ value: Value, _ faults: inout FaultCounts) {
    if case .null = value { return }
    switch function {
    case .count:
      count &+= 1
    case .distinct:
      count &+= 1
      unique().seen.insert(value)
    case .sum, .mean:
      switch value {
      case .int(let n): integers &+= Int128(n)
      case .bool(let b): integers &+= b ? 1 : 0
      case .duration(let span): integers &+= Int128(span.nanoseconds)
      case .double(let d): addDecimal(d)
      case .decimal(let d):
        addDecimal(d.doubleValue)
        let box = unique()
        box.exact = box.exact?.adding(d)
      default:
        faults.record(.invalidConversion)
        return
      }
      count &+= 1
    case .median, .quantile:
      switch value {
      case .int(let n): unique().numbers.append(Double(n))
      case .decimal(let d): unique().numbers.append(d.doubleValue)
      case .double(let d): if !d.isNaN { unique().numbers.append(d) }
      default:
        faults.record(.invalidConversion)
        return
      }
      count &+= 1
    case .min, .max:
      if case .double(let d) = value, d.isNaN { return }
      guard let current = extreme else {
        count &+= 1
        extreme = value
        return
      }
      guard let order = ValueOrder.compare(value, current) else {
        faults.record(.invalidConversion)
        return
      }
      count &+= 1
      if function == .min ? order < 0 : order > 0 { extreme = value }
    }
  }

  /// Counts one record, for `count()`.
  mutating func addRecord() { count &+= 1 }

  private mutating func addDecimal(_ d: Double) {
    Self.neumaier(&decimals, &compensation, d)
  }

  /// Adds `d` to `sum`, what its rounding loses to `compensation` (Neumaier's summation).
  @inline(__always) static func neumaier(
    _ sum: inout Double, _ compensation: inout Double, _ d: Double
  ) {
    let total = sum + d
    if !total.isFinite {
      // (Compensation means nothing once the sum is infinite or NaN.)
      sum = total
      compensation = 0
      return
    }
    if abs(sum) >= abs(d) {
      compensation += (sum - total) + d
    } else {
      compensation += (d - total) + sum
    }
    sum = total
  }

  /// Adds what `other` holds (the same aggregate over other records).
  mutating func merge(_ other: StatsAccumulator, _ faults: inout FaultCounts) {
    count &+= other.count
    integers &+= other.integers
    if let theirs = other.kept {
      let box = unique()
      box.exact = theirs.exact.flatMap { box.exact?.adding($0) }
      box.seen.formUnion(theirs.seen)
      box.numbers += theirs.numbers
    }
    if other.decimals != 0 || other.compensation != 0 {
      addDecimal(other.decimals)
      addDecimal(other.compensation)
    }
    if let value = other.extreme {
      // (The counts are added above.)
      let before = count
      add(value, &faults)
      count = before
    }
  }

  /// The aggregate's value, as a value of `type` (``Aggregate/resultType(of:)``); `beyond`
  /// says an integer sum left 64 bits, and is given as the nearest decimal.
  func result(as type: ValueType, _ faults: inout FaultCounts) -> (value: Value, beyond: Bool) {
    switch function {
    case .count: return (.int(Int64(count)), false)
    case .distinct: return (.int(Int64(kept?.seen.count ?? 0)), false)
    case .median, .quantile:
      let numbers = kept?.numbers ?? []
      return (
        Self.quantile(numbers, kept?.fraction ?? 0.5).map(Value.double) ?? .null, false
      )
    case .min, .max: return (extreme ?? .null, false)
    case .sum, .mean:
      guard count > 0 else { return (.null, false) }
      let n = Int128(count)
      switch type {
      case .int:
        if let exact = Int64(exactly: integers) { return (.int(exact), false) }
        return (.double(Double(integers)), true)
      case .duration:
        let total = function == .sum ? integers : Self.rounded(integers, n)
        guard let ns = Int64(exactly: total) else {
          faults.record(.integerOverflow)
          return (.null, false)
        }
        return (.duration(TimeSpan(nanoseconds: ns)), false)
      case .decimal where function == .sum:
        // Integers (in a list of integers and decimals) and decimals, exactly.
        guard let whole = ExactDecimal(significand: integers, scale: 0),
          let total = exact?.adding(whole)
        else {
          faults.record(.integerOverflow)
          return (.null, false)
        }
        return (.decimal(total), false)
      case .double, .decimal:
        let decimal = decimals + compensation
        if function == .sum { return (.double(Double(integers) + decimal), false) }
        // The integers' quotient and remainder apart: exact however large their sum.
        let (quotient, remainder) = integers.quotientAndRemainder(dividingBy: n)
        return (
          .double(Double(quotient) + (Double(remainder) + decimal) / Double(count)), false
        )
      default:
        return (.null, false)
      }
    }
  }

  /// The value a fraction `p` of the way through `numbers` in order, interpolated linearly
  /// between the two nearest (position `p × (n - 1)` from 0); nil for none.
  static func quantile(_ numbers: [Double], _ p: Double) -> Double? {
    guard !numbers.isEmpty else { return nil }
    let sorted = numbers.sorted()
    let position = p * Double(sorted.count - 1)
    let below = Int(position.rounded(.down))
    let above = Swift.min(below + 1, sorted.count - 1)
    let (low, high) = (sorted[below], sorted[above])
    let t = position - Double(below)
    // As DuckDB interpolates, low + (high - low) × t; weighted where the difference of two
    // large numbers of opposite signs overflows. Equal neighbours give the value itself.
    if t == 0 || low == high { return low }
    let span = high - low
    return span.isFinite ? low + span * t : low * (1 - t) + high * t
  }

  /// `a / b` to the nearest integer, halves away from zero.
  private static func rounded(_ a: Int128, _ b: Int128) -> Int128 {
    let (q, r) = a.quotientAndRemainder(dividingBy: b)
    let twice = r.magnitude * 2
    guard twice >= b.magnitude else { return q }
    return a < 0 ? q - 1 : q + 1
  }
}
