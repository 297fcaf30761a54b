extension ColumnTable {
  /// For a top-level field whose column holds integers, decimals, or coded values that all
  /// compare with each other: the sort keys of given rows (a row outside the table is null).
  /// A coded value's key is its rank among the column's distinct values, equal values
  /// (`1` and `1.0`) ranking alike, so sorting by ranks is sorting by values.
  func sortKeys(_ field: FieldRef) -> (@Sendable ([Int]) -> SortKeyColumn?)? {
    guard field.isTopLevel, field.slot < columns.count else { return nil }
    switch columns[field.slot].storage {
    case .int(let values, let nulls):
      return { rows in
        let (keys, absent) = Self.keys(rows, values, nulls)
        return .ints(keys, nulls: absent)
      }
    case .double(let values, let nulls):
      return { rows in
        let (keys, absent) = Self.keys(rows, values, nulls)
        // flt does not order NaN.
        guard !keys.contains(where: \.isNaN) else { return nil }
        return .doubles(keys, nulls: absent)
      }
    case .coded(let codes, let dictionary):
      guard let ranks = Self.ranks(dictionary.values) else { return nil }
      return { rows in
        var keys: [Int64] = []
        var nulls: [Bool] = []
        keys.reserveCapacity(rows.count)
        nulls.reserveCapacity(rows.count)
        func rank<Code: FixedWidthInteger>(_ codes: UnsafeBufferPointer<Code>) {
          for row in rows {
            let code = row >= 0 && row < codes.count ? Int(codes[row]) : 0
            let rank = code < ranks.count ? ranks[code] : nil
            keys.append(rank ?? 0)
            nulls.append(rank == nil)
          }
        }
        codes.withBuffer(rank, rank, rank)
        return .ints(keys, nulls: nulls)
      }
    default:
      return nil
    }
  }

  /// The values of `rows` in a column of numbers, in one pass: 0 where the row has none (a
  /// null, or a row outside the column), and which have none.
  private static func keys<T: Numeric>(_ rows: [Int], _ values: [T], _ nulls: NullMask) -> (
    [T], [Bool]
  ) {
    var keys: [T] = []
    var absent: [Bool] = []
    keys.reserveCapacity(rows.count)
    absent.reserveCapacity(rows.count)
    values.withUnsafeBufferPointer { values in
      for row in rows {
        let inside = row >= 0 && row < values.count && !nulls.isNull(row)
        keys.append(inside ? values[row] : 0)
        absent.append(!inside)
      }
    }
    return (keys, absent)
  }

  /// Each distinct value's rank in flt's order (nil for null); nil when two values do not
  /// compare (different kinds, NaN).
  static func ranks(_ values: [Value]) -> [Int64?]? {
    let present = values.indices.filter { !values[$0].isNull }
    guard let first = present.first else { return values.map { _ in nil } }
    // Every value compares with the first: then all are of kinds that compare with each other.
    guard present.allSatisfy({ ValueOrder.compare(values[$0], values[first]) != nil }) else {
      return nil
    }
    let sorted = present.sorted { (ValueOrder.compare(values[$0], values[$1]) ?? 0) < 0 }
    var ranks = [Int64?](repeating: nil, count: values.count)
    var rank: Int64 = 0
    for (index, code) in sorted.enumerated() {
      if index > 0, ValueOrder.compare(values[sorted[index - 1]], values[code]) != 0 { rank += 1 }
      ranks[code] = rank
    }
    return ranks
  }
}

extension ColumnTable {
  /// For a top-level field held as integers, decimals or ranked codes (as ``sortKeys(_:)``
  /// orders it): given a row, a narrowing of a selection of rows to those that come before
  /// it in an order by the field alone (`descending`, nulls first or last), and with `ties`
  /// those that tie with it too. Nil when the field is held otherwise, holds a NaN (flt
  /// does not order it), or is coded with more than 4,096 distinct values; nil from the
  /// function when the given row has no value.
  ///
  /// A sorted query with a limit that has its first matches already asks only the rows that
  /// may still come before the last of them (DuckDB's "dynamic filter" of a top-k): a test of
  /// the key, a byte or a word a row, before the filter.
  func sortBound(_ field: FieldRef, descending: Bool, nullsFirst: Bool, ties: Bool)
    -> (@Sendable (Int) -> Narrowing<Int>?)?
  {
    guard field.isTopLevel, field.slot < columns.count else { return nil }
    switch columns[field.slot].storage {
    case .int(let values, let nulls):
      return numberBound(field, values, nulls, descending, nullsFirst, ties, as: { .int($0) })
    case .double(let values, let nulls):
      // (A big table's zones say whether the column has a NaN: it has none if it has zones.)
      let noNaN =
        count >= SortZones.leastRows && field.slot < zones.count
        ? zones[field.slot] != nil : !values.contains(where: \.isNaN)
      guard noNaN else { return nil }
      return numberBound(field, values, nulls, descending, nullsFirst, ties, as: { .double($0) })
    case .coded(let codes, let dictionary):
      // (Each bound maps every code: for a column of few distinct values only.)
      guard dictionary.values.count <= 4_097, let ranks = Self.ranks(dictionary.values) else {
        return nil
      }
      return { [self] bound in
        let code = Int(codes.code(at: bound))
        guard code < ranks.count, let limit = ranks[code] else { return nil }
        // Whether each code's rows may come before the bound's.
        let keeps = ranks.map { rank in
          rank.map { Self.before($0, limit, descending: descending, ties: ties) } ?? nullsFirst
        }
        let select: Selector<Int> = { rows, selection, _ in
          func narrow<Code: FixedWidthInteger>(_ codes: UnsafeBufferPointer<Code>) {
            Self.narrow(rows, &selection) { row in
              let code = row < codes.count ? Int(codes[row]) : 0
              return code < keeps.count ? keeps[code] : nullsFirst
            }
          }
          codes.withBuffer(narrow, narrow, narrow)
        }
        return Narrowing(
          select: select, rulesOut: rulingOut(field, .int(limit), descending, nullsFirst, ties))
      }
    default:
      return nil
    }
  }

  /// ``sortBound(_:descending:nullsFirst:ties:)`` for a column of numbers held flat.
  private func numberBound<T: Comparable & Sendable>(
    _ field: FieldRef, _ values: [T], _ nulls: NullMask, _ descending: Bool, _ nullsFirst: Bool,
    _ ties: Bool, as key: @escaping @Sendable (T) -> SortZones.Keys.Bound
  ) -> @Sendable (Int) -> Narrowing<Int>? {
    { [self] bound in
      guard bound >= 0, bound < values.count, !nulls.isNull(bound) else { return nil }
      let limit = values[bound]
      let select: Selector<Int> = { rows, selection, _ in
        values.withUnsafeBufferPointer { values in
          Self.narrow(rows, &selection) { row in
            guard row < values.count, !nulls.isNull(row) else { return nullsFirst }
            return Self.before(values[row], limit, descending: descending, ties: ties)
          }
        }
      }
      return Narrowing(
        select: select, rulesOut: rulingOut(field, key(limit), descending, nullsFirst, ties))
    }
  }

  /// Whether none of the table's own rows at a range of positions (positions that are rows)
  /// can come before `bound`, by the blocks' ``SortZones``; nil for a column without them.
  private func rulingOut(
    _ field: FieldRef, _ bound: SortZones.Keys.Bound, _ descending: Bool, _ nullsFirst: Bool,
    _ ties: Bool
  ) -> (([Int], Range<Int>) -> Bool)? {
    guard field.slot < zones.count, let zones = zones[field.slot] else { return nil }
    return { [self] rows, positions in
      !positions.isEmpty && isEveryRow(rows)
        && zones.rulesOut(
          rows: positions.lowerBound, positions.upperBound - 1, below: bound,
          descending: descending, nullsFirst: nullsFirst, ties: ties)
    }
  }

  /// Whether `value` comes before `bound` (or ties with it, with `ties`).
  @inline(__always) private static func before<T: Comparable>(
    _ value: T, _ bound: T, descending: Bool, ties: Bool
  ) -> Bool {
    if ties && value == bound { return true }
    return descending ? value > bound : value < bound
  }

  /// Keeps the positions of `selection` (into `rows`) whose row `keep` accepts; a position
  /// or row outside them is kept (the filter after this says what it is).
  @inline(__always) private static func narrow(
    _ rows: [Int], _ selection: inout [Int], _ keep: (Int) -> Bool
  ) {
    var kept = 0
    rows.withUnsafeBufferPointer { rows in
      selection.withUnsafeMutableBufferPointer { selection in
        for index in 0..<selection.count {
          let position = selection[index]
          let accept: Bool
          if position >= 0, position < rows.count, rows[position] >= 0 {
            accept = keep(rows[position])
          } else {
            accept = true
          }
          selection[kept] = position
          kept &+= accept ? 1 : 0
        }
      }
    }
    selection.removeLast(selection.count - kept)
  }
}
