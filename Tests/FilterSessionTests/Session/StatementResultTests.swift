import FilterDSL
import FilterData
import Testing

@testable import FilterSession

/// Statements yield values; printing them is the printer's job (the tests of printed text are
/// in ``SessionTests``).
@Suite struct StatementResultTests {
  let harness = SessionHarness()

  func evaluate(_ text: String) throws -> [StatementResult] {
    try harness.session.evaluate(SourceText(text, name: "values.flt"))
  }

  @Test func eachStatementYieldsItsValue() throws {
    let results = try evaluate(
      """
      load "phones.json"
      let budget = 800
      let big = diskSpace >= 512
      count big and price < $budget
      explain big order by price desc limit 2
      big and color == Gold order by price desc limit 2
      facets color where big
      set format csv
      """)
    try #require(results.count == 8)
    guard case .loaded(let dataset) = results[0] else { throw Unexpected(results[0]) }
    let loaded = try #require(dataset.records)
    #expect(dataset.name == "phones" && loaded.count > 100)
    guard case .defined("budget", let budget) = results[1], budget.isParameter,
      case .defined("big", let big) = results[2], !big.isParameter
    else { throw Unexpected(results[1]) }
    #expect(budget.value == Expr(.literal(.int(800))))
    guard case .count(let count, let faults) = results[3] else { throw Unexpected(results[3]) }
    let expected = loaded.table.rows.map(loaded.record).filter {
      guard case .int(let disk) = value("diskSpace", $0, dataset),
        case .int(let price) = value("price", $0, dataset)
      else { return false }
      return disk >= 512 && price < 800
    }.count
    #expect(count == expected && faults.isEmpty)
    guard case .plan(let plan) = results[4] else { throw Unexpected(results[4]) }
    #expect(plan.description == "Limit(2, Sort(price desc, Ge(diskSpace, 512)))")
    guard case .records(let records, let from, _) = results[5] else {
      throw Unexpected(results[5])
    }
    #expect(from === dataset && records.count == 2)
    let prices = records.all.compactMap { record -> Int64? in
      if case .int(let price) = value("price", record, dataset) { price } else { nil }
    }
    #expect(prices.count == 2 && prices[0] >= prices[1])
    guard case .facets(let facets) = results[6] else { throw Unexpected(results[6]) }
    #expect(facets.facets.map(\.field.dotted) == ["color"])
    #expect(facets.facets[0].counts.reduce(0) { $0 + $1.count } == facets.matches)
    guard case .none = results[7] else { throw Unexpected(results[7]) }
    // Evaluating prints nothing; the setting still took.
    #expect(harness.output.text.isEmpty)
    #expect(harness.session.settings.format == .csv)
  }

  @Test func faultsAreCountedInTheValue() throws {
    let results = try evaluate("load \"phones.json\"\ncount price / 0 > 1")
    let records = try #require(results.first.flatMap(loadedCount))
    #expect(results.last?.faults[.divisionByZero] == records)
  }

  func value(_ name: String, _ record: DataRecord, _ dataset: Dataset) -> Value {
    guard let (slot, _) = dataset.schema.field(named: name), slot < record.values.count else {
      return .null
    }
    return record.values[slot]
  }

  func loadedCount(_ result: StatementResult) -> Int? {
    if case .loaded(let dataset) = result { dataset.records?.count } else { nil }
  }

  @Test func checkingYieldsNothingToShow() throws {
    harness.session.checkOnly = true
    let results = try evaluate("load \"phones.json\"\ncount price > 1\nexplain price > 1")
    guard case .loaded = results[0], case .none = results[1], case .none = results[2] else {
      throw Unexpected(results[1])
    }
  }

  /// `let` makes a parameter the engine binds, as an embedder does: plans show `$name`, and
  /// `limit $n` works; a range is written into the statements that use it.
  @Test func parametersAreBoundToTheCompiledQuery() throws {
    let results = try evaluate(
      """
      load "phones.json"
      let budget = 700 + 100
      let n = 2
      let sizes = 128...256
      explain price <= $budget and diskSpace in $sizes order by price limit $n
      price <= $budget order by price desc limit $n
      """)
    guard case .plan(let plan) = results[4] else { throw Unexpected(results[4]) }
    #expect(
      plan.description
        == "Limit($n, Sort(price, And(Le(price, $budget), In(diskSpace, 128...256))))")
    guard case .records(let records, let dataset, _) = results[5] else {
      throw Unexpected(results[5])
    }
    let prices = records.all.map { value("price", $0, dataset) }
    #expect(prices.count == 2)
    #expect(prices.allSatisfy { if case .int(let p) = $0 { p <= 800 } else { false } })
  }

  struct Unexpected: Error, CustomStringConvertible {
    let description: String
    init(_ result: StatementResult) { description = "unexpected \(result)" }
  }
}
