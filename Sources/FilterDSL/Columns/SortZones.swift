import Dispatch

/// For a column that orders without its values (integers, decimals, ranked codes): the least
/// and greatest key of each block of ``rows`` rows, and whether the block has a null. A
/// sorted query with a limit rules out whole blocks by them once it has its first matches
/// (see `ColumnTable.sortBound`), as DuckDB's zone maps rule out row groups: at 100,000,000
/// rows, the top 5 by price then reads a few blocks, not a byte of every row.
struct SortZones: Sendable {
  /// The rows of a block: a batch of the filter (see `CompiledFilter.forEachBatch`).
  static let rows = 1024
  /// The tables that get zones: those a filter splits between the cores (smaller ones are
  /// read whole in one round anyway).
  static let leastRows = 65_536

  enum Keys: Sendable {
    case ints(low: [Int64], high: [Int64])
    case doubles(low: [Double], high: [Double])
  }

  /// Each block's least and greatest key (for a block of nulls only, the least is above the
  /// greatest).
  let keys: Keys
  /// Whether each block has a row without a key.
  let nulls: [Bool]

  /// The zones of `column`, when it orders without its values; nil otherwise (values of
  /// kinds that do not compare, a column with NaN, a coded column of more than 4,096
  /// distinct values, whose ranks cost a sort of them).
  init?(_ column: Column) {
    switch column.storage {
    case .int(let values, let mask):
      (keys, nulls) = Self.zones(values, mask)
    case .double(let values, let mask):
      guard !values.contains(where: \.isNaN) else { return nil }
      (keys, nulls) = Self.zones(values, mask)
    case .coded(let codes, let dictionary):
      guard dictionary.values.count <= 4_097, let ranks = ColumnTable.ranks(dictionary.values)
      else { return nil }
      // (Each code's rank, and whether it is null, in flat arrays; a loop per code width. A
      // code without a value reads as null, as `Column.value(at:)` reads it.)
      let rank = ranks.map { $0 ?? 0 }
      let null = ranks.map { $0 == nil }
      func zones<Code: FixedWidthInteger>(_ codes: UnsafeBufferPointer<Code>) -> (Keys, [Bool]) {
        rank.withUnsafeBufferPointer { rank in
          null.withUnsafeBufferPointer { null in
            Self.zones(codes.count) { row in
              let code = Int(codes[row])
              return code < rank.count ? rank[code] : 0
            } hasNull: { _ in
              true
            } isNull: { row in
              let code = Int(codes[row])
              return code >= null.count || null[code]
            }
          }
        }
      }
      (keys, nulls) = codes.withBuffer(zones, zones, zones)
    default:
      return nil
    }
  }

  /// The zones of a column of numbers whose nulls `mask` marks.
  private static func zones<T: Comparable & SortZoneKey>(_ values: [T], _ mask: NullMask) -> (
    Keys, [Bool]
  ) {
    values.withUnsafeBufferPointer { values in
      mask.words.withUnsafeBufferPointer { words in
        zones(values.count) {
          values[$0]
        } hasNull: { rows in
          // (A block starts at a multiple of 64: its words, whole.)
          let first = rows.lowerBound >> 6
          let last = Swift.min(words.count, (rows.upperBound + 63) >> 6)
          return first < last && words[first..<last].contains { $0 != 0 }
        } isNull: { row in
          let word = row >> 6
          return word < words.count && words[word] & (1 << UInt64(row & 63)) != 0
        }
      }
    }
  }

  /// The zones of each of `columns`, the columns shared out between two cores.
  static func of(_ columns: [Column]) -> [SortZones?] {
    var zones = [SortZones?](repeating: nil, count: columns.count)
    zones.withUnsafeMutableBufferPointer { zones in
      let slots = ZoneSlots(zones: zones)
      DispatchQueue.concurrentPerform(iterations: 2) { half in
        for slot in stride(from: half, to: columns.count, by: 2) {
          slots.set(slot, SortZones(columns[slot]))
        }
      }
    }
    return zones
  }

  /// Each block's least and greatest key (`key(row)` of its rows that are not null), and
  /// whether it has a null. `hasNull(rows)` says whether a block may hold one: a block that
  /// cannot is read by a loop that asks nothing else of its rows.
  @inline(__always)
  private static func zones<T: Comparable & SortZoneKey>(
    _ count: Int, _ key: (Int) -> T, hasNull: (Range<Int>) -> Bool, isNull: (Int) -> Bool
  ) -> (Keys, [Bool]) {
    let blocks = (count + rows - 1) / rows
    var low = [T](repeating: T.greatest, count: blocks)
    var high = [T](repeating: T.least, count: blocks)
    var nulls = [Bool](repeating: false, count: blocks)
    for block in 0..<blocks {
      let range = (block * rows)..<Swift.min(count, (block + 1) * rows)
      var (least, greatest, null) = (T.greatest, T.least, false)
      if hasNull(range) {
        for row in range {
          if isNull(row) {
            null = true
          } else {
            let value = key(row)
            if value < least { least = value }
            if value > greatest { greatest = value }
          }
        }
      } else {
        for row in range {
          let value = key(row)
          if value < least { least = value }
          if value > greatest { greatest = value }
        }
      }
      (low[block], high[block], nulls[block]) = (least, greatest, null)
    }
    return (T.keys(low, high), nulls)
  }

  /// Whether no row of the blocks from `first` to `last` (row numbers) can come before
  /// `bound` in an order by the column (see `ColumnTable.sortBound`).
  func rulesOut(
    rows first: Int, _ last: Int, below bound: Keys.Bound, descending: Bool, nullsFirst: Bool,
    ties: Bool
  ) -> Bool {
    guard first >= 0, first <= last else { return false }
    for block in (first / Self.rows)...(last / Self.rows) {
      guard block < nulls.count else { return false }
      if nulls[block] && nullsFirst { return false }
      let beats: Bool
      switch (keys, bound) {
      case (.ints(let low, let high), .int(let limit)):
        beats = Self.mayBeat(low[block], high[block], limit, descending, ties)
      case (.doubles(let low, let high), .double(let limit)):
        beats = Self.mayBeat(low[block], high[block], limit, descending, ties)
      default:
        return false
      }
      if beats { return false }
    }
    return true
  }

  /// Whether a block whose keys lie in `low...high` may hold one that comes before `limit`.
  private static func mayBeat<T: Comparable>(
    _ low: T, _ high: T, _ limit: T, _ descending: Bool, _ ties: Bool
  ) -> Bool {
    guard low <= high else { return false }  // (nulls only)
    if descending { return ties ? high >= limit : high > limit }
    return ties ? low <= limit : low < limit
  }
}

extension SortZones.Keys {
  /// A key to compare blocks with.
  enum Bound: Sendable {
    case int(Int64)
    case double(Double)
  }
}

/// The two kinds of sort key a zone holds.
protocol SortZoneKey: Comparable {
  static var least: Self { get }
  static var greatest: Self { get }
  static func keys(_ low: [Self], _ high: [Self]) -> SortZones.Keys
}

extension Int64: SortZoneKey {
  static var least: Int64 { .min }
  static var greatest: Int64 { .max }
  static func keys(_ low: [Int64], _ high: [Int64]) -> SortZones.Keys {
    .ints(low: low, high: high)
  }
}

extension Double: SortZoneKey {
  static var least: Double { -.infinity }
  static var greatest: Double { .infinity }
  static func keys(_ low: [Double], _ high: [Double]) -> SortZones.Keys {
    .doubles(low: low, high: high)
  }
}

/// The zones being made, one slot per column, each written by one thread.
private struct ZoneSlots: @unchecked Sendable {
  let zones: UnsafeMutableBufferPointer<SortZones?>

  func set(_ slot: Int, _ value: SortZones?) {
    if slot >= 0, slot < zones.count { zones[slot] = value }
  }
}
