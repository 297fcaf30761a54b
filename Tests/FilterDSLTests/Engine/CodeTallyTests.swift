import TestSupport
import Testing

@testable import FilterDSL

/// The one pass that counts facets over codes counts what the definition says: a record
/// counts for a field's value when it passes every own condition but perhaps that field's.
@Suite struct CodeTallyTests {
  @Test(arguments: [1, 3, 7, 64, 70])
  func countsWhatTheDefinitionSays(fields: Int) {
    var random = SplitMix64(seed: UInt64(fields))
    let sizes = (0..<fields).map { _ in random.int(1...6) }
    // Each own condition passes some codes; codes past a field's values (none should come)
    // fail.
    let pass = 1 - 1 / Double(fields + 2)
    let truths = sizes.map { size in (0..<size).map { _ in random.chance(pass) } }
    let records = 3_000
    let codes = sizes.map { size in
      (0..<records).map { _ in UInt32(random.chance(0.001) ? size + 3 : random.int(0...(size - 1)))
      }
    }
    var tally = CodeTally(fields: sizes)
    tally.add(codes, truths)
    var expected = CodeTally(fields: sizes)
    for record in 0..<records {
      let fails = (0..<fields).map { field in
        let code = Int(codes[field][record])
        return code >= sizes[field] || !truths[field][code]
      }
      if !fails.contains(true) { expected.passing += 1 }
      for field in 0..<fields where !fails.enumerated().contains(where: { $0 != field && $1 }) {
        if fails[field] { expected.failingOnly[field] += 1 }
        let code = Int(codes[field][record])
        if code < sizes[field] { expected.counts[field][code] += 1 }
      }
    }
    #expect(tally.passing == expected.passing)
    #expect(tally.failingOnly == expected.failingOnly)
    #expect(tally.counts == expected.counts)
    // (Some records pass and some fail only one field: the test compares something.)
    #expect(expected.passing > 0)
    #expect(expected.failingOnly.reduce(0, +) > 0)
  }
}
