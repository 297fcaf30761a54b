import FilterDSL
import FilterSQL

extension SQLConnection {
  /// Counts facets (see `FacetCounter`) of the records of `table`. When SQL answers the
  /// filter and the counted fields exactly, each field is counted in the database (`GROUP
  /// BY`, one statement per field, as the counts are disjunctive), and no row travels;
  /// otherwise the database returns the rows matching the part of the filter every count
  /// respects, and the counter counts them. Either way the counts are those flt would give in
  /// memory.
  ///
  /// `counter` must be made for `.dynamic(table.schema)` and bound to `values`.
  public func count(
    _ counter: FacetCounter<[Value]>, on table: SQLTable, parameters: [String: ValueType] = [:],
    values: [String: Value] = [:], now: Instant? = nil
  ) throws(DatabaseError) -> FacetCounts {
    if let counts = try countInDatabase(
      counter, on: table, parameters: parameters, values: values, now: now)
    {
      return counts
    }
    // The rows the part of the filter every count respects may match (the counter tests each
    // one); only the fields counted and those the filters read travel.
    let narrowing = TableSource(table, in: self)
    let filters = ([counter.sharedFilter] + counter.counted.map(\.own)).compactMap { $0 }
    narrowing.reading = Set(
      (counter.counted.map(\.field) + filters.flatMap(\.fields)).map(\.slot))
    _ = narrowing.pushDown(
      BoundQuery(filter: counter.sharedFilter), parameters: values,
      now: now ?? Instant(seconds: 0))
    var records: [[Value]] = []
    do {
      try narrowing.forEachRow { row in
        records.append(row)
        return true
      }
    } catch let error as DatabaseError {
      throw error
    } catch {
      throw DatabaseError("\(error)")
    }
    return counter.count(records)
  }

  /// The counts by `GROUP BY`, or nil when SQL cannot give them exactly (a part of the filter
  /// stays in flt, or a field is a list, whose elements count once per record).
  private func countInDatabase(
    _ counter: FacetCounter<[Value]>, on table: SQLTable, parameters: [String: ValueType],
    values: [String: Value], now: Instant?
  ) throws(DatabaseError) -> FacetCounts? {
    let now = now ?? Instant(seconds: 0)
    guard
      let (total, statements) = DatabaseFacets.statements(
        counter, on: table, dialect: dialect, values: values, now: now)
    else { return nil }
    var facets: [FacetCounts.Facet] = []
    for (statement, (field, _)) in zip(statements, counter.counted) {
      var tally = ValueCounts()
      var failure: DatabaseError?
      try forEachRow(statement) { row in
        guard row.count == 2, let value = dialect.decode(row[0], as: field.type),
          case .int(let count) = dialect.decode(row[1], as: .int)
        else {
          failure = DatabaseError("the database gave a count flt cannot read: \(row)")
          return false
        }
        tally.add(value, times: Int(count))
        return true
      }
      if let failure { throw failure }
      facets.append(
        FacetCounts.Facet(
          field: field.path, counts: tally.ranked, records: tally.total))
    }
    let matches: Int
    if let derived = Self.matches(facets, counter, table, parameters, values, now) {
      matches = derived
    } else {
      matches = try count(total)
    }
    return FacetCounts(facets: facets, matches: matches, faults: FaultCounts())
  }

  /// The records matching the whole filter, from the counts, without another pass over the
  /// table: with no field's own condition, every facet counted exactly them; else they are
  /// the records of one top-level field's counts whose value meets its own condition (which
  /// reads that field alone). Nil when no top-level field has one to evaluate.
  private static func matches(
    _ facets: [FacetCounts.Facet], _ counter: FacetCounter<[Value]>, _ table: SQLTable,
    _ parameters: [String: ValueType], _ values: [String: Value], _ now: Instant?
  ) -> Int? {
    guard let first = facets.first else { return nil }
    guard counter.counted.contains(where: { $0.own != nil }) else { return first.records }
    guard
      let index = counter.counted.firstIndex(where: { $0.own != nil && $0.field.isTopLevel }),
      let own = counter.counted[index].own,
      let filter = CompiledQuery(
        BoundQuery(filter: own), for: .dynamic(table.schema), parameters: parameters
      ).binding(values, now: now).filter
    else { return nil }
    let slot = counter.counted[index].field.slot
    var record = [Value](repeating: .null, count: table.schema.fields.count)
    var matches = 0
    for count in facets[index].counts {
      record[slot] = count.value
      if filter.evaluate(record) == .true { matches += count.count }
    }
    return matches
  }
}

/// The statements facets are counted by in a database.
enum DatabaseFacets {
  /// The statements that count `counter`'s facets in the database: the records matching the
  /// whole filter (`count(*)`), and a `GROUP BY` per field; nil when SQL cannot give them
  /// exactly (a part of the filter stays in flt, or a field is a list, whose elements count
  /// once per record).
  static func statements(
    _ counter: FacetCounter<[Value]>, on table: SQLTable, dialect: SQLDialect,
    values: [String: Value], now: Instant
  ) -> (total: SQLStatement, fields: [SQLStatement])? {
    let translator = SQLTranslator(table: table, dialect: dialect)
    let shared = counter.sharedFilter.map { [$0] } ?? []
    let owns = counter.counted.compactMap(\.own)
    guard
      let total = translator.countStatement(where: shared + owns, parameters: values, now: now),
      !counter.counted.contains(where: { $0.field.type.isList })
    else { return nil }
    var statements: [SQLStatement] = []
    for (index, (field, _)) in counter.counted.enumerated() {
      let others = counter.counted.enumerated().compactMap {
        $0.offset == index ? nil : $0.element.own
      }
      guard
        let statement = translator.groupStatement(
          counting: BoundExpr(.field(field), type: field.type), where: shared + others,
          parameters: values, now: now)
      else { return nil }
      statements.append(statement)
    }
    return (total, statements)
  }
}
