// libFuzzer harness for the semantics: any bytes as a filter over a fixed schema; whatever
// checks must compile and evaluate on fixed records without trapping, and both engines must
// agree with the reference evaluator: the row engine (record by record and in batches) and
// the column engine (the records as a ColumnTable, integers coded and flat), faults included;
// and SQLite, through the SQL translation (FuzzEvaluateSQL.swift). Input that is not a filter
// but reads as `stats` (`sum(i) by s where ...`) is computed by both engines (and by the
// column engine's fast form where it applies) and must give the reference's rows and faults.
// Build and run with `Fuzz/run evaluate [SECONDS]`.

let schema = Schema([
  .init("i", .int, optional: true), .init("d", .double, optional: true),
  .init("s", .string, optional: true, knownValues: ["a", "b"]), .init("b", .bool, optional: true),
  .init("t", .date, optional: true), .init("dt", .dateTime, optional: true),
  .init("du", .duration, optional: true), .init("tags", .list(.string), optional: true),
  .init("rec", .record(Schema([.init("x", .int)])), optional: true),
  .init("tm", .time, optional: true), .init("mx", .any, optional: true),
])

let records: [[Value]] = [
  [
    .int(1), .double(2.5), .string("a"), .bool(true), .date(CalendarDate(daysSinceEpoch: 19_000)),
    .dateTime(Instant(seconds: 1_600_000_000)), .duration(TimeSpan(nanoseconds: 3_600_000_000_000)),
    .list([.string("a"), .null]), .record([.int(3)]),
    .time(TimeOfDay(nanosecondsSinceMidnight: 79_200_000_000_000) ?? TimeOfDay(wrapping: 0)),
    .list([]),
  ],
  [
    .int(Int64.max), .double(-0.0), .string("é"), .bool(false), .null, .null,
    .duration(TimeSpan(nanoseconds: Int64.min)), .list([]), .null,
    .time(TimeOfDay(nanosecondsSinceMidnight: 86_400_000_000_000) ?? TimeOfDay(wrapping: 0)),
    .object(ObjectValue(keys: ["a", "b"], values: [.int(1), .list([.string("x")])])),
  ],
  [
    .int(Int64.min), .double(1e308), .string(""), .null,
    .date(CalendarDate(daysSinceEpoch: 2_932_896)),
    .dateTime(Instant(seconds: 253_402_300_799)), .null, .null, .record([.int(-1)]),
    .time(TimeOfDay(wrapping: 1)), .string(""),
  ],
  [.null, .null, .null, .null, .null, .null, .null, .null, .null, .null, .int(3)],
]

let parameters: [String: ValueType] = ["p": .int, "q": .string]
let context = EvaluationContext(
  now: Instant(seconds: 1_700_000_000), parameters: ["p": .int(-1), "q": .string("b")])

public func fuzzEvaluate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  if Parser.parseFilter(SourceText(text)).value == nil,
    let stats = Parser.parseStats(SourceText(text)).value
  {
    checkStats(stats, text)
    return 0
  }
  guard let filter = Parser.parseFilter(SourceText(text)).value,
    !Checker.check(filter, schema: schema, parameters: parameters).hasErrors,
    let compiled = try? CompiledFilter(
      filter, source: SourceText(text), for: RecordType.dynamic(schema), parameters: parameters)
  else { return 0 }
  let bound = compiled.binding(context.parameters, now: context.now)
  let reference = ReferenceEvaluator(schema: schema, context: context)
  var expected: [[Value]] = []
  for record in records {
    var faults = FaultCounts()
    let fast = bound.evaluate(record, faults: &faults)
    let (truth, referenceFaults) = reference.evaluate(filter, on: record)
    if fast != truth || faults != referenceFaults {
      fatalError("engines disagree on \(filter) for \(record): \(fast) vs \(truth)")
    }
    if truth == .true { expected.append(record) }
  }
  if bound.filter(records).matches != expected { fatalError("batch disagrees on \(filter)") }
  // A table's rows have every field, null or not (`exists` asks that in SQL).
  let asTable = records.indices.filter { row in
    reference.evaluate(
      filter, on: records[row], has: { FieldPresence.columns(schema, records[row], has: $0) }
    ).truth == .true
  }
  checkSQL(compiled.bound, filter, expected: Set(asTable.map(Int64.init)))

  // The column engine, over the same records, and over row numbers repeated, out of order and
  // outside the table (which read as records of nulls).
  var expectedFaults = FaultCounts()
  for record in records { expectedFaults.merge(reference.evaluate(filter, on: record).faults) }
  let nulls = [Value](repeating: .null, count: schema.fields.count)
  let picked = [3, -1, 0, 7, 2, 2, 1]
  let expectedPicked = picked.filter { row in
    let record = row >= 0 && row < records.count ? records[row] : nulls
    return reference.evaluate(filter, on: record).truth == .true
  }
  for (codedLimit, sparseShare) in [(4096, 1.0 / 16), (0, 1.0 / 16), (4096, 2.0)] {
    let table = ColumnTable(
      schema: schema, rows: records, codedLimit: codedLimit, sparseShare: sparseShare)
    guard
      let columns = try? CompiledFilter(
        filter, source: SourceText(text), for: table.recordType, parameters: parameters
      ).binding(context.parameters, now: context.now)
    else { fatalError("the column engine does not compile \(filter)") }
    let (rows, faults) = columns.filter(table.rows)
    if rows.map({ records[$0] }) != expected || faults != expectedFaults {
      fatalError("the column engine disagrees on \(filter): \(rows), \(faults)")
    }
    if columns.filter(picked).matches != expectedPicked {
      fatalError("the column engine disagrees on \(filter) over \(picked)")
    }
  }
  checkLimits(filter, text, size, expected: expected, faults: expectedFaults)
  return 0
}

/// `stats` over the records: the row engine and the column engine (records repeated, so that
/// tables of several sizes are covered) give the reference evaluator's rows and faults.
func checkStats(_ stats: StatsQuery, _ text: String) {
  guard
    let bound = Checker.check(stats, schema: schema, parameters: parameters).tree
  else { return }
  for copies in [1, 40] {
    let rows = Array(repeatElement(records, count: copies).joined())
    let expected = ReferenceEvaluator(schema: schema, context: context).stats(bound, on: rows)
    let table = ColumnTable(schema: schema, rows: rows)
    let results = [
      StatsCounter(bound, for: RecordType.dynamic(schema), parameters: parameters)
        .binding(context.parameters, now: context.now).run(rows),
      StatsCounter(bound, for: table.recordType, parameters: parameters)
        .binding(context.parameters, now: context.now).run(table.rows),
    ]
    for result in results
    where !sameRows(result.rows, expected.rows) || result.faults != expected.faults {
      fatalError(
        "stats disagree on \(stats): \(result.rows) \(result.faults), reference \(expected.rows) \(expected.faults)"
      )
    }
  }
}

/// The same rows in any order, decimals within a relative 1e-9 (sums added in other orders).
func sameRows(_ a: [[Value]], _ b: [[Value]]) -> Bool {
  guard a.count == b.count else { return false }
  var left = a
  for row in b {
    guard
      let index = left.firstIndex(where: { other in
        other.count == row.count
          && zip(other, row).allSatisfy { x, y in
            if case .double(let p) = x, case .double(let q) = y {
              return p == q || (p.isNaN && q.isNaN) || abs(p - q) <= 1e-9 * max(abs(p), abs(q))
            }
            return x == y
          }
      })
    else { return false }
    left.remove(at: index)
  }
  return true
}

/// Under evaluation limits (small ones, picked from the input's size), every engine gives
/// the unlimited answer or stops with no records and says which limit.
func checkLimits(
  _ filter: Expr, _ text: String, _ size: Int, expected: [[Value]],
  faults expectedFaults: FaultCounts
) {
  let limits = EvaluationLimits(
    maxCostPerRecord: (size % 7) * 40, maxCostPerQuery: (size % 11) * 60, assumedTextBytes: 4,
    assumedListCount: 2)
  let table = ColumnTable(schema: schema, rows: records)
  let rows = FilterEnvironment(
    RecordType.dynamic(schema), parameters: parameters, evaluationLimits: limits)
  let columns = FilterEnvironment(
    table.recordType, parameters: parameters, evaluationLimits: limits)
  guard let byRow = try? rows.compileFilter(filter, source: SourceText(text)),
    let byColumn = try? columns.compileFilter(filter, source: SourceText(text))
  else { return }  // refused by the estimate (FLT294)
  let (matches, faults) = byRow.binding(context.parameters, now: context.now).filter(records)
  if faults.overLimit == nil ? matches != expected || faults != expectedFaults : !matches.isEmpty {
    fatalError("the row engine under \(limits) disagrees on \(filter): \(matches), \(faults)")
  }
  let (picked, columnFaults) = byColumn.binding(context.parameters, now: context.now)
    .filter(table.rows)
  let found = picked.map { records[$0] }
  if columnFaults.overLimit == nil
    ? found != expected || columnFaults != expectedFaults : !found.isEmpty
  {
    fatalError(
      "the column engine under \(limits) disagrees on \(filter): \(found), \(columnFaults)")
  }
}
