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

/// The column engine's two forms over numbers: columns of many distinct values (gathered) and
/// of few (counted by code), against the row engine, on tables large enough to hold both (and
/// for the last seed, to be added up on two threads).
@Suite struct ColumnStatsTests {
  static let schema = Schema([
    .init("color", .string, optional: true), .init("wide", .int, optional: true),
    .init("narrow", .int, optional: true), .init("real", .double, optional: true),
    .init("few", .double, optional: true),
  ])

  @Test(arguments: 0..<3)
  func columnsAgreeWithRows(seed: Int) throws {
    var rng = SplitMix64(seed: UInt64(seed))
    let colors = ["a", "b", "c", "Space Black"]
    let records: [[Value]] = (0..<(seed == 2 ? 70_000 : 9000)).map { _ in
      func maybe(_ value: Value) -> Value { rng.chance(0.1) ? .null : value }
      return [
        maybe(.string(rng.pick(colors))),
        maybe(.int(Int64.random(in: Int64.min...Int64.max, using: &rng))),
        maybe(.int(Int64(rng.int(-5...5)))),
        maybe(.double(rng.chance(0.01) ? .nan : Double.random(in: -1e6...1e6, using: &rng))),
        maybe(.double(rng.pick([0.5, -0.0, 2.25, 1e300, .infinity]))),
      ]
    }
    let table = ColumnTable(schema: Self.schema, rows: records)
    for text in [
      "count(), sum(wide), mean(wide), min(wide), max(wide), count(wide) by color",
      "sum(narrow), mean(narrow), min(narrow), max(narrow), count(narrow) by color, narrow",
      "sum(real), mean(real), min(real), max(real), count(real) by color",
      "count(), sum(wide), max(real), min(few) by color where narrow > 0 or wide < 0",
      "max(wide), min(real), mean(narrow) where color == b",
      "sum(few), mean(few), min(few), max(few), count(few), count() by narrow",
      "wide, real, few",
    ] {
      let environment = FilterEnvironment(table.recordType)
      let columns = try environment.compileStats(text).run(table.rows)
      let rows = try FilterEnvironment(RecordType.dynamic(Self.schema)).compileStats(text)
        .run(records)
      #expect(
        StatsGenerator.same(columns.rows, rows.rows) && columns.schema == rows.schema,
        "\(text)\ncolumns \(columns.rows)\nrows \(rows.rows)")
    }
  }
}
