import FilterDSL
import Testing

/// Budgets for untrusted filters: an estimate refuses a costly filter before it runs, and a
/// run that goes over a limit stops with no answer rather than a partial one.
@Suite struct EvaluationLimitsTests {
  static let schema = Schema([
    .init("text", .string, optional: true), .init("tags", .list(.string), optional: true),
    .init("n", .int, optional: true),
  ])
  static let rows = RecordType.dynamic(schema)

  static func record(_ text: String, tags: [String] = [], n: Int64 = 1) -> [Value] {
    [.string(text), .list(tags.map(Value.string)), .int(n)]
  }

  static func environment(_ limits: EvaluationLimits) -> FilterEnvironment<[Value]> {
    FilterEnvironment(rows, evaluationLimits: limits)
  }

  /// 200 KB of text, and a filter of 15 `matches` that took 28 s on one such record.
  static let longText = String(repeating: "abcdefghij", count: 20_000)
  static let fifteenMatches = (0..<15).map { "text matches \"(a|b|c|d|e)*x\($0)\"" }
    .joined(separator: " or ")

  @Test func aCostlyFilterIsRefusedBeforeItRuns() throws {
    let env = Self.environment(.untrusted)
    let text = "n > 1 and text matches \"(a|b|c|d|e|f|g|h){400}\""
    let error = #expect(throws: FilterError.self) { try env.compileFilter(text) }
    let diagnostic = try #require(error?.diagnostics.first)
    #expect(diagnostic.code == .tooCostly)
    // At the costliest part: the `matches` operator.
    let operatorStart = try #require(text.utf8.firstRange(of: "matches".utf8)).lowerBound
    #expect(
      diagnostic.range.start == text.utf8.distance(from: text.utf8.startIndex, to: operatorStart))
    #expect(diagnostic.message.contains("over the limit of 1000000"))
    // The same filter without limits compiles; so do ordinary filters under them.
    _ = try Self.environment(.default).compileFilter(text)
    _ = try env.compileFilter("text contains \"abc\" and n in (1, 2, 3) or any tags == x")
  }

  @Test func aRecordOverItsLimitStopsTheRunWithNoMatches() throws {
    let limits = EvaluationLimits(maxCostPerRecord: 100_000)
    let filter = try Self.environment(limits).compileFilter("text contains \"j\"")
    let small = Self.record("hij")
    #expect(filter.filter([small, small]).matches.count == 2)
    let (matches, faults) = filter.filter([small, Self.record(Self.longText), small])
    #expect(matches.isEmpty)
    #expect(faults.overLimit == .perRecord(100_000))
    #expect(!faults.isEmpty)
    // One record at a time: unknown, and the limit said.
    var counts = FaultCounts()
    #expect(filter.evaluate(Self.record(Self.longText), faults: &counts) == .unknown)
    #expect(counts.overLimit == .perRecord(100_000))
  }

  @Test func aRunOverItsLimitStopsWithNoAnswer() throws {
    let limits = EvaluationLimits(maxCostPerQuery: 500_000)
    let env = Self.environment(limits)
    let records = Array(repeating: Self.record(String(repeating: "x", count: 1_000)), count: 1_000)
    let filter = try env.compileFilter("text like \"*y*\" or n == 1")
    let (matches, faults) = filter.filter(records)
    #expect(matches.isEmpty && faults.overLimit == .perQuery(500_000))
    // A query, in batches across the whole run; sorted and not.
    for text in ["text like \"*y*\" or n == 1", "text like \"*y*\" or n == 1 order by text"] {
      let run = try env.compileQuery(text).run(records)
      #expect(run.records.isEmpty && run.faults.overLimit == .perQuery(500_000), "\(text)")
      let streamed = try env.compileQuery(text).run(records[...])
      #expect(streamed.records.isEmpty && streamed.faults.overLimit != nil, "\(text)")
    }
    // Fewer records fit.
    let few = filter.filter(Array(records.prefix(100)))
    #expect(few.matches.count == 100 && few.faults.overLimit == nil)
    #expect(few.faults.cost >= 100_000 && few.faults.cost <= 500_000)
  }

  @Test func facetCountsOverTheLimitHaveNoCounts() throws {
    let limits = EvaluationLimits(maxCostPerQuery: 10_000)
    let records = Array(repeating: Self.record(String(repeating: "x", count: 1_000)), count: 100)
    let counter = try Self.environment(limits).facets(
      [FieldPath("n")],
      filter: Parser.parseFilter(SourceText("text contains \"y\" or n == 1")).get(),
      source: SourceText("text contains \"y\" or n == 1"))
    let result = counter.count(records)
    #expect(result.facets.isEmpty && result.matches == 0)
    #expect(result.faults.overLimit == .perQuery(10_000))
  }

  @Test func fifteenMatchesOnALongTextStopAtOnce() throws {
    // Untrusted limits: the filter compiles (its estimate is within), and one 200 KB record
    // is stopped at the first `matches` instead of taking half a minute.
    let filter = try Self.environment(.untrusted).compileFilter(Self.fifteenMatches)
    let (matches, faults) = filter.filter([Self.record(Self.longText)])
    #expect(matches.isEmpty && faults.overLimit == .perRecord(1_000_000))
    // The refused work was not done: the cost is what was spent before.
    #expect(faults.cost == 0)
  }

  @Test func quantifiersAndListsCountTheirElements() throws {
    let limits = EvaluationLimits(maxCostPerRecord: 10_000)
    let env = Self.environment(limits)
    let long = Self.record("", tags: (0..<50_000).map { "t\($0)" })
    let short = Self.record("", tags: ["a", "x"])
    for text in ["any tags == x", "tags contains x", "all tags != \"\"", "any lower(tags) == x"] {
      let filter = try env.compileFilter(text)
      #expect(filter.filter([short]).faults.overLimit == nil, "\(text)")
      #expect(filter.filter([long]).faults.overLimit == .perRecord(10_000), "\(text)")
    }
  }

  @Test func theColumnEngineStopsToo() throws {
    let limits = EvaluationLimits(maxCostPerRecord: 100_000, maxCostPerQuery: 1_000_000)
    let rows = (0..<5_000).map { i in
      Self.record(i == 4_000 ? Self.longText : "text \(i)", n: Int64(i))
    }
    let table = ColumnTable(schema: Self.schema, rows: rows)
    let env = FilterEnvironment(table.recordType, evaluationLimits: limits)
    let filter = try env.compileFilter("text contains \"9\" and n >= 0")
    let over = filter.filter(table.rows)
    #expect(over.matches.isEmpty && over.faults.overLimit == .perRecord(100_000))
    // Without the long text, within both limits: the same answer as without limits.
    let within = filter.filter(Array(table.rows.prefix(4_000)))
    let unlimited = try FilterEnvironment(table.recordType).compileFilter(
      "text contains \"9\" and n >= 0"
    ).filter(Array(table.rows.prefix(4_000)))
    #expect(within.faults.overLimit == nil && within.matches == unlimited.matches)
  }

  @Test func estimatesSaturateInsteadOfTrapping() throws {
    // Assumed sizes so large that every product overflows: the estimate saturates at Int.max
    // (over any finite limit) instead of trapping or wrapping around to a small number.
    let limits = EvaluationLimits(
      maxCostPerRecord: .max - 1, assumedTextBytes: .max, assumedListCount: .max)
    let error = #expect(throws: FilterError.self) {
      try Self.environment(limits).compileFilter(
        "text matches \"(a|b)*\" and any tags like \"*a*\"")
    }
    #expect(error?.diagnostics.first?.message.contains("about \(Int.max) units") == true)
    #expect(EvaluationLimits(maxCostPerRecord: -5).maxCostPerRecord == 0)
  }
}
