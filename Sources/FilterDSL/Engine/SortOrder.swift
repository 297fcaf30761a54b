/// The comparison behind ``CompiledQuery/sorted(_:_:)``, kept out of generic code so that it
/// is compiled once, for concrete types.
enum SortOrder {
  /// The indices of `count` records in sorted order, given their keys row by row in
  /// `values`; ties keep input order. With `first`, only the first that many.
  static func order(
    _ values: [Value], keys: [(descending: Bool, nullsFirst: Bool)], count: Int, first: Int? = nil
  ) -> [Int] {
    let width = keys.count
    guard width > 0, values.count == count * width else {
      return Array(0..<Swift.min(count, Swift.max(first ?? count, 0)))
    }
    // Whether record a goes before record b: a total order (ties go by input order).
    func before(_ a: Int, _ b: Int) -> Bool {
      for (i, key) in keys.enumerated() {
        let x = values[a * width + i]
        let y = values[b * width + i]
        // Nulls go where the key says, whatever its direction.
        switch (x.isNull, y.isNull) {
        case (true, true): continue
        case (true, false): return key.nullsFirst
        case (false, true): return !key.nullsFirst
        default:
          let order = ValueOrder.compare(x, y) ?? 0
          if order != 0 { return key.descending ? order > 0 : order < 0 }
        }
      }
      return a < b
    }
    return arranged(count, first: first, by: before)
  }

  /// The indices of `count` records in sorted order, given typed sort keys (see
  /// ``SortKeyColumn``); ties keep input order. With `first`, only the first that many.
  static func order(
    _ columns: [SortKeyColumn], keys: [(descending: Bool, nullsFirst: Bool)], count: Int,
    first: Int? = nil
  ) -> [Int] {
    guard columns.count == keys.count,
      columns.allSatisfy({ $0.count == count })
    else { return Array(0..<Swift.min(count, Swift.max(first ?? count, 0))) }
    // One integer key (the usual `order by price`): compared on its buffers, without
    // matching the column's case on every comparison.
    if columns.count == 1, case .ints(let values, let nulls) = columns[0] {
      let key = keys[0]
      return values.withUnsafeBufferPointer { values in
        nulls.withUnsafeBufferPointer { nulls in
          arranged(count, first: first) { a, b in
            switch nullOrder(nulls[a], nulls[b], key.nullsFirst) {
            case nil:
              let (x, y) = (values[a], values[b])
              return x != y ? (key.descending ? x > y : x < y) : a < b
            case 0?: return a < b
            case let placed?: return placed < 0
            }
          }
        }
      }
    }
    func before(_ a: Int, _ b: Int) -> Bool {
      for (column, key) in zip(columns, keys) {
        let order: Int
        switch column {
        case .ints(let values, let nulls):
          if let placed = nullOrder(nulls[a], nulls[b], key.nullsFirst) {
            if placed == 0 { continue }
            return placed < 0
          }
          order = values[a] < values[b] ? -1 : values[a] == values[b] ? 0 : 1
        case .doubles(let values, let nulls):
          if let placed = nullOrder(nulls[a], nulls[b], key.nullsFirst) {
            if placed == 0 { continue }
            return placed < 0
          }
          order = values[a] < values[b] ? -1 : values[a] == values[b] ? 0 : 1
        }
        if order != 0 { return key.descending ? order > 0 : order < 0 }
      }
      return a < b
    }
    return arranged(count, first: first, by: before)
  }

  /// Where nulls go, whatever the key's direction: nil when neither is null, 0 when both
  /// are, -1 when a goes first.
  @inline(__always)
  private static func nullOrder(_ a: Bool, _ b: Bool, _ nullsFirst: Bool) -> Int? {
    switch (a, b) {
    case (false, false): nil
    case (true, true): 0
    case (true, false): nullsFirst ? -1 : 1
    case (false, true): nullsFirst ? 1 : -1
    }
  }

  /// `0..<count` sorted by `before`, or its first `first` (a bounded heap when they are few).
  /// (Inlined, with the heap's loop, so that `before` is inlined in it: a query's top 5 of
  /// a million rows made a call per comparison.)
  @inline(__always)
  private static func arranged(_ count: Int, first: Int?, by before: (Int, Int) -> Bool) -> [Int] {
    if let first, first < count / 4 {
      return TopK.first(Swift.max(first, 0), of: count, by: before)
    }
    var order = Array(0..<count)
    order.sort(by: before)
    return first.map { Array(order.prefix(Swift.max($0, 0))) } ?? order
  }
}

/// A sort key's values for some records, typed so that comparing them orders the records as
/// flt orders the values: integers (or, for a coded column, each value's rank among the
/// column's distinct values), or decimals; with which are null.
enum SortKeyColumn: Sendable {
  case ints([Int64], nulls: [Bool])
  case doubles([Double], nulls: [Bool])

  /// How many records (-1 when the two arrays disagree).
  var count: Int {
    switch self {
    case .ints(let values, let nulls): values.count == nulls.count ? values.count : -1
    case .doubles(let values, let nulls): values.count == nulls.count ? values.count : -1
    }
  }
}

/// The first `k` of `count` items in a total order, in order: one pass keeping the best `k`
/// seen in a heap whose top is the worst of them; O(count log k).
enum TopK {
  @inline(__always)
  static func first(_ k: Int, of count: Int, by before: (Int, Int) -> Bool) -> [Int] {
    guard k > 0 else { return [] }
    var heap: [Int] = []
    heap.reserveCapacity(k)
    for item in 0..<count {
      if heap.count < k {
        heap.append(item)
        siftUp(&heap, heap.count - 1, before)
      } else if before(item, heap[0]) {
        heap[0] = item
        siftDown(&heap, 0, before)
      }
    }
    heap.sort(by: before)
    return heap
  }

  /// Heap order: a parent never goes before its children (the top goes last of all).
  private static func siftUp(_ heap: inout [Int], _ index: Int, _ before: (Int, Int) -> Bool) {
    var child = index
    while child > 0 {
      let parent = (child - 1) / 2
      guard before(heap[parent], heap[child]) else { return }
      heap.swapAt(parent, child)
      child = parent
    }
  }

  private static func siftDown(_ heap: inout [Int], _ index: Int, _ before: (Int, Int) -> Bool) {
    var parent = index
    while true {
      var last = parent
      let left = 2 * parent + 1
      if left < heap.count, before(heap[last], heap[left]) { last = left }
      if left + 1 < heap.count, before(heap[last], heap[left + 1]) { last = left + 1 }
      guard last != parent else { return }
      heap.swapAt(parent, last)
      parent = last
    }
  }
}
