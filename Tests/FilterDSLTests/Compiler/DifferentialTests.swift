import TestSupport
import Testing

@testable import FilterDSL

/// Random well-typed filters over random records: the compiled engine must agree with the
/// reference evaluator on every record, truth and faults alike. Seeded; a failure prints its
/// seed, filter and record.
@Suite struct DifferentialTests {

  @Test(arguments: 0..<20)
  func compiledAgreesWithReference(batch: Int) throws {
    let type = RecordType.dynamic(TypedFilterGenerator.schema)
    let reference = ReferenceEvaluator(
      schema: TypedFilterGenerator.schema, context: TypedFilterGenerator.context)
    var skipped = 0
    for i in 0..<100 {
      let seed = UInt64(batch * 1000 + i)
      var generator = TypedFilterGenerator(seed: seed)
      let filter = generator.bool(3)
      let diagnostics = Checker.check(
        filter, schema: TypedFilterGenerator.schema, parameters: TypedFilterGenerator.parameters
      ).diagnostics
      if diagnostics.hasErrors {
        skipped += 1
        continue
      }
      let compiled = try CompiledFilter(
        filter, source: SourceText(filter.description), for: type,
        parameters: TypedFilterGenerator.parameters
      )
      .binding(TypedFilterGenerator.context.parameters, now: TypedFilterGenerator.context.now)
      // The batch form (where the filter has one) keeps exactly the records that are true,
      // in order; one filter in ten over several batches of 1,024 (gathered batch by batch).
      let batchRecords = (0..<(i % 10 == 0 ? 2_500 : 40)).map { _ in generator.record() }
      let expected = batchRecords.filter { reference.evaluate(filter, on: $0).truth == .true }
      #expect(compiled.filter(batchRecords).matches == expected, "seed \(seed): batch \(filter)")
      for _ in 0..<30 {
        let record = generator.record()
        var faults = FaultCounts()
        let fast = compiled.evaluate(record, faults: &faults)
        let (truth, expectedFaults) = reference.evaluate(filter, on: record)
        #expect(
          fast == truth && faults == expectedFaults,
          "seed \(seed): \(filter)\nrecord \(record)\ncompiled \(fast) \(faults), reference \(truth) \(expectedFaults)\nplan \(compiled.plan)"
        )
        if fast != truth || faults != expectedFaults { return }
      }
    }
    #expect(skipped < 10, "the generator made \(skipped) ill-typed filters out of 100")
  }
}
