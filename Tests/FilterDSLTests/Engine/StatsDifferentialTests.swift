import TestSupport
import Testing

@testable import FilterDSL

/// Random `stats` over random records: the row engine and the column engine must give the
/// reference evaluator's rows (decimals within a relative 1e-9: sums are added in another
/// order) and faults. Seeded; a failure prints its seed and stats.
@Suite struct StatsDifferentialTests {

  @Test(arguments: 0..<10)
  func enginesAgreeWithReference(batch: Int) throws {
    let schema = TypedFilterGenerator.schema
    let reference = ReferenceEvaluator(schema: schema, context: TypedFilterGenerator.context)
    var skipped = 0
    for i in 0..<40 {
      let seed = UInt64(batch * 1000 + i)
      var generator = StatsGenerator(seed: seed)
      let stats = generator.stats()
      let checked = Checker.check(
        stats, schema: schema, parameters: TypedFilterGenerator.parameters)
      guard let bound = checked.tree else {
        skipped += 1
        continue
      }
      let records = (0..<generator.values.rng.int(0...60)).map { _ in generator.values.record() }
      let expected = reference.stats(bound, on: records)
      let context = TypedFilterGenerator.context
      let rows = StatsCounter(
        bound, for: .dynamic(schema), parameters: TypedFilterGenerator.parameters
      ).binding(context.parameters, now: context.now).run(records)
      let table = ColumnTable(schema: schema, rows: records)
      let columns = StatsCounter(
        bound, for: table.recordType, parameters: TypedFilterGenerator.parameters
      ).binding(context.parameters, now: context.now).run(table.rows)
      for (engine, result) in [("rows", rows), ("columns", columns)] {
        let agrees =
          StatsGenerator.same(result.rows, expected.rows) && result.faults == expected.faults
        #expect(
          agrees,
          "seed \(seed) \(engine): stats \(stats)\n\(result.rows) \(result.faults)\nreference \(expected.rows) \(expected.faults)"
        )
        if !agrees { return }
      }
    }
    #expect(skipped < 8, "the generator made \(skipped) ill-typed stats out of 40")
  }
}
