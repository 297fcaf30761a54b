import Testing

@testable import FilterDSL

/// Every engine compares through one kernel (`ComparisonKernel`): the typed row engine's tests
/// and selectors, the column engine's loops and the generic path give the reference
/// evaluator's truth for every operator, on the values where the rules are easy to get wrong
/// (NaN on either side, -0.0 and 0.0, null, integers beside decimals), under `not` too.
@Suite struct ComparisonKernelTests {
  struct Reading: Sendable {
    var i: Int?
    var d: Double?
    var s: String?
  }

  static let schema = Schema([
    .init("i", .int, optional: true), .init("d", .double, optional: true),
    .init("s", .string, optional: true),
  ])
  static let typed = RecordType<Reading>([
    .int("i", optional: true) { $0.i }, .double("d", optional: true) { $0.d },
    .string("s", optional: true) { $0.s },
  ])
  static let readings: [Reading] = [
    Reading(i: 1, d: 0.5, s: "a"), Reading(i: -3, d: .nan, s: "é"),
    Reading(i: 0, d: -0.0, s: "e\u{301}"), Reading(i: nil, d: 0.0, s: nil),
    Reading(i: Int.max, d: nil, s: ""), Reading(i: Int.min, d: -.infinity, s: "B"),
  ]

  static func values(_ reading: Reading) -> [Value] {
    [
      reading.i.map { .int(Int64($0)) } ?? .null, reading.d.map(Value.double) ?? .null,
      reading.s.map(Value.string) ?? .null,
    ]
  }

  @Test(arguments: ComparisonOperator.allCases)
  func everyEngineGivesTheReferenceTruth(op: ComparisonOperator) throws {
    let rows = Self.readings.map(Self.values)
    let table = ColumnTable(schema: Self.schema, rows: rows)
    let parameters: [String: ValueType] = ["k": .double]
    for (text, values) in [
      ("i \(op.rawValue) 0", [:]), ("i \(op.rawValue) 0.5", [:]), ("d \(op.rawValue) 0.0", [:]),
      ("d \(op.rawValue) -0.0", [:]), ("d \(op.rawValue) 1", [:]),
      ("d \(op.rawValue) $k", ["k": Value.double(.nan)]),
      ("d \(op.rawValue) $k", ["k": .double(0.5)]),
      ("i \(op.rawValue) $k", ["k": .double(.nan)]), (#"s \#(op.rawValue) "é""#, [:]),
      (#"s \#(op.rawValue) "b""#, [:]), (#"s \#(op.rawValue)[c] "B""#, [:]),
    ] as [(String, [String: Value])] {
      for filterText in [text, "not (\(text))"] {
        let filter = try Parser.parseFilter(filterText).get()
        let context = EvaluationContext(parameters: values)
        let expected = rows.indices.filter {
          ReferenceEvaluator(schema: Self.schema, context: context).evaluate(filter, on: rows[$0])
            .truth == .true
        }
        let onTyped = try CompiledFilter(filterText, for: Self.typed, parameters: parameters)
          .binding(values)
        let onColumns = try CompiledFilter(
          filterText, for: table.recordType, parameters: parameters
        )
        .binding(values)
        let onValues = try CompiledFilter(
          filterText, for: .dynamic(Self.schema), parameters: parameters
        ).binding(values)
        let typedOne = Self.readings.indices.filter { onTyped.matches(Self.readings[$0]) }
        let typedBatch = onTyped.filter(Self.readings).matches.map { match in
          Self.readings.firstIndex { $0.i == match.i && $0.s == match.s } ?? -1
        }
        #expect(typedOne == expected, "\(filterText) \(values): typed, record by record")
        #expect(typedBatch == expected, "\(filterText) \(values): typed, as a batch")
        #expect(onColumns.filter(table.rows).matches == expected, "\(filterText): by column")
        #expect(
          rows.indices.filter { onValues.matches(rows[$0]) } == expected,
          "\(filterText) \(values): over values")
      }
    }
  }
}
