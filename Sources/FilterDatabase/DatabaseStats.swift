import FilterDSL
import FilterSQL

extension SQLConnection {
  /// `stats` over the records of `table`, computed by the database where SQL gives them
  /// exactly (see `SQLTranslator.statsStatement`): one `GROUP BY` statement, a row per group,
  /// no record travelling; flt finishes each aggregate from its parts (an integer sum from two
  /// halves, a mean from the exact sum) and merges groups whose keys it takes as equal. Nil
  /// when SQL cannot: the caller then aggregates the matching rows itself.
  public func stats(
    _ stats: BoundStats, on table: SQLTable, values: [String: Value] = [:], now: Instant? = nil
  ) throws(DatabaseError) -> StatsResult? {
    let translator = SQLTranslator(table: table, dialect: dialect)
    guard let (statement, parts) = translator.statsStatement(stats, parameters: values, now: now)
    else { return nil }
    var tally = StatsTally(stats)
    var failure: DatabaseError?
    let width = stats.groups.count
    // Every column a part reads is checked against the row's length before it is read.
    let last = parts.flatMap(\.columns).reduce(width, max)
    try forEachRow(statement) { row in
      guard row.count > last else {
        failure = DatabaseError("the database gave a row of stats flt cannot read: \(row)")
        return false
      }
      var key: [Value] = []
      for (index, group) in stats.groups.enumerated() {
        guard let value = dialect.decode(row[index], as: group.key.type) else {
          failure = DatabaseError("the database gave a key flt cannot read: \(row[index])")
          return false
        }
        key.append(value)
      }
      func integer(_ column: Int) -> Int64? {
        guard column < row.count else { return nil }
        switch dialect.decode(row[column], as: .int) {
        case .int(let n): return n
        case .null: return 0  // (SQL's sum of no value)
        default: return nil
        }
      }
      guard let records = integer(width) else {
        failure = DatabaseError("the database gave a count flt cannot read: \(row[width])")
        return false
      }
      var made: [(count: Int, integers: Int128, extreme: Value?)] = []
      for part in parts {
        switch part {
        case .records:
          made.append((Int(records), 0, nil))
        case .count(let column):
          guard let count = integer(column) else { break }
          made.append((Int(count), 0, nil))
        case .integerSum(let count, let high, let low):
          guard let count = integer(count), let high = integer(high), let low = integer(low)
          else { break }
          made.append((Int(count), Int128(high) << 32 + Int128(low), nil))
        case .extremum(let count, let column):
          guard let count = integer(count), let value = dialect.decode(row[column], as: .int)
          else { break }
          made.append((Int(count), 0, value.isNull ? nil : value))
        }
      }
      guard made.count == parts.count else {
        failure = DatabaseError("the database gave stats flt cannot read: \(row)")
        return false
      }
      tally.merge(key: key, records: Int(records), parts: made)
      return true
    }
    if let failure { throw failure }
    return tally.result()
  }
}
