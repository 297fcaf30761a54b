import FilterDSL

/// Whether a row group may hold a record a filter keeps, from its columns' statistics (least
/// and greatest value, null count): a row group none of whose records can make the filter true
/// is not read. Only what the statistics prove is used, under three-valued logic: a
/// comparison is never true for null (nor for NaN, which writers leave out of the bounds), so a
/// row group whose non-null values all fall outside a comparison's range cannot match it.
/// Numbers, dates and times only: text statistics are ordered by bytes, which is not flt's
/// order for every text.
struct ParquetStatistics {
  /// What is known of a top-level field's values in a row group.
  enum Field {
    /// Its column's statistics, at this place among a row group's chunks.
    case chunk(ParquetColumn, Int)
    /// One value in every row (a hive-style folder's).
    case constant(Value)
    /// Nothing (a nested field: its leaves' statistics are not used).
    case unknown
  }

  /// By top-level field.
  let columns: [Field]
  /// The parameters' values, by name.
  let parameters: [String: Value]

  /// False when no record of `group` can make `filter` true; true when one may.
  func mayMatch(_ filter: BoundExpr, in group: ParquetMetadata.RowGroup) -> Bool {
    switch filter.kind {
    case .logical(.and, let operands): return operands.allSatisfy { mayMatch($0, in: group) }
    case .logical(.or, let operands): return operands.contains { mayMatch($0, in: group) }
    case .constant(let value): return value != .bool(false) && value != .null
    case .predicate(let subject, let condition):
      guard case .field(let field) = subject.kind, field.isTopLevel, field.slot < columns.count
      else { return true }
      switch columns[field.slot] {
      case .chunk(let column, let chunk) where chunk < group.columns.count:
        guard let statistics = group.columns[chunk].statistics else { return true }
        return mayMatch(condition, column, statistics, rows: group.rowCount)
      case .constant(let value):
        // (Text under `[c]` or `[d]` is compared folded: not by these bounds.)
        if case .string = value, Self.options(condition) != [] { return true }
        return mayMatch(
          condition, nulls: value.isNull ? group.rowCount : 0,
          bounds: value.isNull ? nil : (value, value), rows: group.rowCount)
      default: return true
      }
    default: return true
    }
  }

  /// The rows of a row group of `rows` rows that `filter` may match, by the pages of the
  /// top-level fields `pages` gives an index for (by slot): where nothing rules rows out, all
  /// of them. The same reasoning as for row groups, page by page; `and` keeps the rows both
  /// sides may match, `or` those either may.
  func rows(_ filter: BoundExpr, rows: Int, pages: (Int) -> ParquetPageIndex?) -> [Range<Int>] {
    let all = rows > 0 ? [0..<rows] : []
    switch filter.kind {
    case .logical(.and, let operands):
      return operands.reduce(all) {
        RowRanges.intersection($0, self.rows($1, rows: rows, pages: pages))
      }
    case .logical(.or, let operands):
      return operands.reduce([]) { RowRanges.union($0, self.rows($1, rows: rows, pages: pages)) }
    case .constant(let value):
      return value == .bool(false) || value == .null ? [] : all
    case .predicate(let subject, let condition):
      guard case .field(let field) = subject.kind, field.isTopLevel, field.slot < columns.count,
        case .chunk(let column, _) = columns[field.slot], let index = pages(field.slot)
      else { return all }
      return RowRanges.merged(
        index.pages.filter { page in
          guard let statistics = page.statistics else { return true }
          return mayMatch(condition, column, statistics, rows: Int64(page.rows.count))
        }.map(\.rows))
    default: return all
    }
  }

  /// Whether `condition` may hold for a value of `column` among `rows` rows whose statistics
  /// are `statistics` (a chunk's, or a page's).
  func mayMatch(
    _ condition: BoundCondition, _ column: ParquetColumn, _ statistics: ParquetMetadata.Statistics,
    rows: Int64
  ) -> Bool {
    // (A null count outside 0...rows is corrupt: unknown.)
    let nulls = statistics.nullCount.flatMap { (0...Swift.max(0, rows)).contains($0) ? $0 : nil }
    return mayMatch(condition, nulls: nulls, bounds: bounds(statistics, column), rows: rows)
  }

  /// The text options of a comparison, `in` or `between`.
  private static func options(_ condition: BoundCondition) -> StringOptions {
    switch condition.kind {
    case .compare(_, _, let options), .member(_, let options, _), .between(_, _, let options, _):
      options
    default: []
    }
  }

  /// Whether `condition` may hold for a value of a row group of `rows` rows, `nulls` of them
  /// null (when known), the others within `bounds` (when known).
  private func mayMatch(
    _ condition: BoundCondition, nulls: Int64?, bounds: (Value, Value)?, rows: Int64
  ) -> Bool {
    if case .isNull(let negated) = condition.kind {
      guard let nulls else { return true }
      return negated ? nulls < rows : nulls > 0
    }
    // Every value null: no comparison is true.
    if nulls == rows { return false }
    guard let (low, high) = bounds else { return true }
    /// Whether some value in `low...high` may be on `op`'s side of `k`.
    func may(_ op: ComparisonOperator, _ k: Value) -> Bool {
      guard let fromLow = ValueOrder.compare(low, k), let fromHigh = ValueOrder.compare(high, k)
      else { return true }
      switch op {
      case .equal: return fromLow <= 0 && fromHigh >= 0
      case .notEqual: return !(fromLow == 0 && fromHigh == 0)
      case .less: return fromLow < 0
      case .lessOrEqual: return fromLow <= 0
      case .greater: return fromHigh > 0
      case .greaterOrEqual: return fromHigh >= 0
      }
    }
    switch condition.kind {
    case .compare(let op, let operand, _):
      guard let k = value(operand) else { return true }
      return may(op, k)
    case .between(let lower, let upper, _, negated: false):
      guard let lower = value(lower), let upper = value(upper) else { return true }
      return may(.greaterOrEqual, lower) && may(.lessOrEqual, upper)
    case .member(let list, _, negated: false):
      guard case .list(let items)? = value(list) else { return true }
      return items.contains { may(.equal, $0) }
    default:
      return true
    }
  }

  /// The constant or parameter `operand` is, or nil for anything else (or null).
  private func value(_ operand: BoundExpr) -> Value? {
    let value: Value?
    switch operand.kind {
    case .parameter(let parameter): value = parameters[parameter.name]
    default: value = operand.constantValue
    }
    return value == .null ? nil : value
  }

  /// The chunk's least and greatest values as flt values, where they can be trusted.
  private func bounds(_ statistics: ParquetMetadata.Statistics, _ column: ParquetColumn)
    -> (Value, Value)?
  {
    guard let min = statistics.min, let max = statistics.max else { return nil }
    // (Not INTERVAL's: the format leaves their order undefined.)
    switch column.conversion {
    case .int, .uint32, .uint64, .double, .float, .decimal, .exactDecimal, .date, .timestamp,
      .timeOfDay:
      break
    default: return nil
    }
    // The older fields order unsigned integers and decimals in bytes as signed: not theirs.
    if statistics.isLegacy, column.conversion != .int, column.conversion != .double,
      column.conversion != .float, column.conversion != .date
    {
      return nil
    }
    func decode(_ bytes: [UInt8]) -> Value? {
      var payload = bytes
      // A byte array's statistic has no length before it; PLAIN writes one.
      if column.physical == .byteArray {
        let count = UInt32(bytes.count).littleEndian
        payload = withUnsafeBytes(of: count) { Array($0) } + bytes
      }
      return payload.withUnsafeBytes { raw -> Value? in
        var plain = PlainValues(raw, column: column)
        switch column.storage {
        case .ints: return (try? plain.int()).map(Value.int)
        case .doubles:
          guard let double = try? plain.double(), !double.isNaN else { return nil }
          return .double(double)
        case .values: return try? plain.value()
        }
      }
    }
    // Bounds out of order are corrupt (pyarrow and DuckDB then read the rows): not trusted.
    guard let low = decode(min), let high = decode(max),
      let order = ValueOrder.compare(low, high), order <= 0
    else { return nil }
    return (low, high)
  }
}
