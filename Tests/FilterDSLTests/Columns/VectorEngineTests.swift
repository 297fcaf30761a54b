import TestSupport
import Testing

@testable import FilterDSL

/// The column engine against the reference evaluator: random well-typed filters over random
/// records held by column, every filter shape (and, or, not, quantifiers, text, arithmetic),
/// nulls everywhere. Selections, truths and faults must all agree. Seeded; a failure prints
/// its seed, filter and table.
@Suite struct VectorEngineTests {
  typealias Generator = TypedFilterGenerator

  /// A random filter of `depth`, if it checks against the differential schema.
  static func wellTyped(_ generator: inout Generator, depth: Int) -> Expr? {
    let filter = generator.bool(depth)
    let checked = Checker.check(
      filter, schema: TypedFilterGenerator.schema, parameters: TypedFilterGenerator.parameters)
    return checked.diagnostics.hasErrors ? nil : filter
  }

  /// `filter` compiled for `type`, with the differential tests' parameters and clock.
  static func compile<Root>(_ filter: Expr, for type: RecordType<Root>) throws -> CompiledFilter<
    Root
  > {
    try CompiledFilter(
      filter, source: SourceText(filter.description), for: type,
      parameters: TypedFilterGenerator.parameters
    ).binding(TypedFilterGenerator.context.parameters, now: TypedFilterGenerator.context.now)
  }

  /// A table of `records` in one of three forms, by `form`: values with few distinct values
  /// coded; nothing coded; every column sparse.
  static func table(_ schema: Schema, _ records: [[Value]], form: Int) -> ColumnTable {
    switch form % 3 {
    case 0: ColumnTable(schema: schema, rows: records, codedLimit: 4096)
    case 1: ColumnTable(schema: schema, rows: records, codedLimit: 0)
    default: ColumnTable(schema: schema, rows: records, codedLimit: 4096, sparseShare: 2)
    }
  }

  @Test(arguments: 0..<30)
  func columnsAgreeWithReference(batch: Int) throws {
    let schema = TypedFilterGenerator.schema
    let reference = ReferenceEvaluator(schema: schema, context: TypedFilterGenerator.context)
    for i in 0..<60 {
      let seed = UInt64(50_000 + batch * 1000 + i)
      var generator = Generator(seed: seed)
      guard let filter = Self.wellTyped(&generator, depth: 3) else { continue }
      let records = (0..<generator.rng.int(0...80)).map { _ in generator.record() }
      // Values with few distinct values coded, and not, and every column sparse, in turn.
      let table = Self.table(schema, records, form: i)
      if i % 3 == 2, !records.isEmpty {
        #expect(table.columns.allSatisfy { $0.layout.hasPrefix("sparse") })
      }
      let compiled = try Self.compile(filter, for: table.recordType)

      var expectedFaults = FaultCounts()
      var expected: [Int] = []
      for (row, record) in records.enumerated() {
        let (truth, faults) = reference.evaluate(filter, on: record)
        expectedFaults.merge(faults)
        if truth == .true { expected.append(row) }
      }
      let (matches, faults) = compiled.filter(table.rows)
      #expect(
        matches == expected && faults == expectedFaults,
        "seed \(seed): \(filter)\nrows \(matches) (\(faults)), expected \(expected) (\(expectedFaults))\nplan \(compiled.plan)"
      )
      if matches != expected || faults != expectedFaults { return }
      // Counting without collecting: the same number and faults.
      let counted = compiled.count(table.rows)
      #expect(counted.count == expected.count && counted.faults == expectedFaults, "seed \(seed)")

      // Rows in any order, some twice (not the table's own array of every row, which the
      // kernels read without looking the rows up): each is tested as it comes.
      if !records.isEmpty {
        let some = (0..<generator.rng.int(1...40)).map { _ in
          generator.rng.int(0...(records.count - 1))
        }
        var (someExpected, someFaults) = ([Int](), FaultCounts())
        for row in some {
          let (truth, faults) = reference.evaluate(filter, on: records[row])
          someFaults.merge(faults)
          if truth == .true { someExpected.append(row) }
        }
        let (someMatches, faultsOfSome) = compiled.filter(some)
        #expect(
          someMatches == someExpected && faultsOfSome == someFaults,
          "seed \(seed), rows \(some): \(filter)")
      }

      // Row by row, through the same record type, the row engine agrees too.
      for row in 0..<min(records.count, 10) {
        var rowFaults = FaultCounts()
        let truth = compiled.evaluate(row, faults: &rowFaults)
        let (reference, referenceFaults) = reference.evaluate(filter, on: records[row])
        #expect(truth == reference && rowFaults == referenceFaults, "seed \(seed) row \(row)")
      }

      // Any list of row numbers: repeated, out of order, outside the table (a record of
      // nulls), as facet counting and embedders pass them.
      let nulls = [Value](repeating: .null, count: schema.fields.count)
      let picked = (0..<20).map { _ in generator.rng.int(-2...(records.count + 2)) }
      let expectedPicked = picked.filter { row in
        let record = row >= 0 && row < records.count ? records[row] : nulls
        return reference.evaluate(filter, on: record).truth == .true
      }
      #expect(compiled.filter(picked).matches == expectedPicked, "seed \(seed): picked \(picked)")
    }
  }

  @Test(arguments: 0..<10)
  func facetsOverColumnsAgreeWithFacetsOverRows(batch: Int) throws {
    let schema = TypedFilterGenerator.schema
    for i in 0..<30 {
      let seed = UInt64(90_000 + batch * 1000 + i)
      var generator = Generator(seed: seed)
      guard let filter = Self.wellTyped(&generator, depth: 2) else { continue }
      let records = (0..<generator.rng.int(0...60)).map { _ in generator.record() }
      let fields = (0..<generator.rng.int(1...3)).map { _ in
        FieldPath(generator.rng.pick(["i", "j", "s", "b", "tags", "d", "t", "rec.y", "nums"]))
      }
      let table = Self.table(schema, records, form: i)
      let source = SourceText(filter.description)
      let parameters = TypedFilterGenerator.context.parameters
      let now = TypedFilterGenerator.context.now
      let overColumns = try FacetCounter(
        fields, filter: filter, source: source, for: table.recordType,
        parameters: TypedFilterGenerator.parameters
      ).binding(parameters, now: now).count(table.rows)
      let overRows = try FacetCounter(
        fields, filter: filter, source: source, for: RecordType.dynamic(schema),
        parameters: TypedFilterGenerator.parameters
      ).binding(parameters, now: now).count(records)
      let (columns, rows) = (summary(overColumns), summary(overRows))
      #expect(columns == rows, "seed \(seed): facets \(fields) where \(filter)")
      if columns != rows { return }
    }
  }

  /// A facet result as text, whatever the record type.
  func summary(_ result: FacetCounts) -> [String] {
    result.facets.map { facet in
      "\(facet.field.dotted) \(facet.records): "
        + facet.counts.map { "\($0.value)=\($0.count)" }.joined(separator: ", ")
    } + ["\(result.matches) matches, \(result.faults)"]
  }

  @Test(arguments: 0..<10)
  func sortedQueriesOverColumnsAgreeWithSortedRows(batch: Int) throws {
    // Keys read from their columns (plain fields) and computed row by row (expressions),
    // every direction and null placement, with and without a limit: the same order as the
    // row engine over the same records.
    let schema = TypedFilterGenerator.schema
    let sortable = ["i", "j", "d", "s", "b", "t", "dt", "du", "-i", "i + j", "lower(s)"]
    for i in 0..<40 {
      let seed = UInt64(90_000 + batch * 1000 + i)
      var generator = Generator(seed: seed)
      let records = (0..<generator.rng.int(0...120)).map { _ in generator.record() }
      let table = Self.table(schema, records, form: i)
      let keys = (0..<generator.rng.int(1...3)).map { _ in
        generator.rng.pick(sortable) + generator.rng.pick(["", " desc", " asc"])
          + generator.rng.pick(["", " nulls first", " nulls last"])
      }
      let page = generator.rng.pick(["", " limit 3", " limit 40", " limit 5 offset 2"])
      // (With a filter, a sort with a limit prunes each part's matches as it filters.)
      let filter = generator.rng.pick(["", "i != 3 ", "s != \"q\" ", "not b "])
      let text = filter + "order by " + keys.joined(separator: ", ") + page
      let overColumns = try CompiledQuery(text, for: table.recordType).run(table.rows)
      let overRows = try CompiledQuery(text, for: .dynamic(schema)).run(records)
      #expect(
        overColumns.records.map { records[$0] } == overRows.records
          && overColumns.faults == overRows.faults,
        "seed \(seed): \(text)")
    }
  }

  @Test func sortedQueriesWithALimitOverBigTablesAgreeWithSortedRows() throws {
    // Past 65,536 rows, each core's part of the matches is pruned to those that may come
    // first, then what they keep together: the same page as sorting every match.
    let schema = TypedFilterGenerator.schema
    var generator = Generator(seed: 515_151)
    let records = (0..<70_000).map { _ in generator.record() }
    let table = ColumnTable(schema: schema, rows: records)
    let queries = [
      "i != 3 order by j desc limit 7", "not b order by d, i desc nulls first limit 50 offset 3",
      "s != \"q\" order by s limit 1", "i > 0 order by t desc, dt limit 200",
      "j != 1 order by du nulls first, i limit 10",
    ]
    for text in queries {
      let overColumns = try CompiledQuery(text, for: table.recordType).run(table.rows)
      let overRows = try CompiledQuery(text, for: .dynamic(schema)).run(records)
      #expect(overColumns.records.map { records[$0] } == overRows.records, "\(text)")
      #expect(!overRows.records.isEmpty, "\(text)")
    }
  }

  @Test func sortedQueriesBoundedByTheirFirstKeyAgreeWithSortedRows() throws {
    // Past a round of chunks (262,144 rows), a sorted query with a limit tests the rows
    // after the matches it keeps against the last of them, by its first key, before the
    // filter: flat integers, decimals and ranked codes; nulls first and last; ties; a second
    // key; a filter that may fault (not narrowed: its faults must all be counted).
    let count = 300_000
    var random = SplitMix64(seed: 77)
    var wide: [Int64] = [], wideNulls: [Bool] = [], doubles: [Double] = [], codes: [UInt32] = []
    var tags: [Int64] = []
    for _ in 0..<count {
      wide.append(Int64(random.int(-5_000...5_000)))
      wideNulls.append(random.chance(0.1))
      doubles.append(Double(random.int(0...50)) / 4)
      codes.append(UInt32(random.int(0...6)))
      tags.append(Int64(random.int(0...9)))
    }
    let sizes: [Value] = [.null, .int(64), .int(128), .int(256), .int(512), .int(1024), .int(2)]
    let schema = Schema([
      .init("w", .int, optional: true), .init("d", .double), .init("size", .int, optional: true),
      .init("t", .int), .init("n", .int), .init("q", .double),
    ])
    let sized = try #require(Column.coded(codes, values: sizes))
    let rising: [Int64] = (0..<Int64(count)).map { $0 / 3 }
    let withNaN: [Double] = (0..<count).map { $0 % 1_000 == 999 ? .nan : Double($0 % 977) }
    let table = try #require(
      ColumnTable(
        schema: schema,
        columns: [
          .ints(wide, nulls: wideNulls), .doubles(doubles), sized, .ints(tags),
          .ints(rising), .doubles(withNaN),
        ]))
    let records: [[Value]] = (0..<count).map { row in
      [
        wideNulls[row] ? .null : .int(wide[row]), .double(doubles[row]), sizes[Int(codes[row])],
        .int(tags[row]), .int(rising[row]), .double(withNaN[row]),
      ]
    }
    let queries = [
      "t != 3 order by w desc limit 5", "t != 3 order by w limit 5",
      "t < 8 order by w desc nulls first limit 30", "t < 8 order by w nulls last limit 3",
      "t != 0 order by d desc limit 4", "t != 0 order by d limit 100 offset 7",
      "t == 1 order by size desc limit 6", "t == 1 order by size nulls first limit 6",
      "t > 2 order by size, w desc limit 9", "t > 2 order by d desc, t limit 12",
      "100 / (t - 4) > 10 order by w desc limit 5", "t != 9 order by size desc limit 1000",
      // Rising keys: every block after the first rounds is ruled out by its zone (or none).
      "t != 3 order by n limit 5", "t != 3 order by n desc limit 5",
      "t != 3 order by n, w limit 8", "t > 7 order by n nulls first limit 20 offset 2",
      // A column with NaN (which flt does not order) is not bounded.
      "t != 3 order by q desc limit 5", "t != 3 order by q limit 5",
    ]
    for text in queries {
      let overColumns = try CompiledQuery(text, for: table.recordType).run(table.rows)
      let overRows = try CompiledQuery(text, for: .dynamic(schema)).run(records)
      #expect(overColumns.records.map { records[$0] } == overRows.records, "\(text)")
      #expect(overColumns.faults == overRows.faults, "\(text)")
      #expect(!overRows.records.isEmpty, "\(text)")
    }
  }

  @Test func bigTablesAreFilteredInChunksOnEveryCoreWithTheSameResult() throws {
    // Past 65,536 rows the selection runs in chunks on several threads; matches (in order)
    // and faults must be those of the row engine over the same records.
    let schema = TypedFilterGenerator.schema
    var generator = Generator(seed: 424_242)
    let records = (0..<70_000).map { _ in generator.record() }
    let table = ColumnTable(schema: schema, rows: records)
    var compared = 0
    for seed in 0..<24 {
      var filters = Generator(seed: UInt64(seed))
      guard let filter = Self.wellTyped(&filters, depth: 2) else { continue }
      // The row engine over the same rows, read one by one from the records.
      let byRow = RecordType<Int>(
        schema.fields.enumerated().map { slot, field in
          FieldAccessor(field: field, reader: .value { records[$0][slot] })
        })
      let (rows, faults) = try Self.compile(filter, for: table.recordType).filter(table.rows)
      let expected = try Self.compile(filter, for: byRow).filter(table.rows)
      #expect(rows == expected.matches && faults == expected.faults, "seed \(seed): \(filter)")
      compared += 1
    }
    #expect(compared > 15)
  }

  @Test func notANumberIsUnknownInEveryLoop() throws {
    // NaN compares unknown: neither kept by a test nor by its negation.
    let table = try #require(
      ColumnTable(
        schema: Schema([.init("d", .double)]), columns: [.doubles([0.5, .nan, 2.0])]))
    for (text, rows) in [
      ("d != 1.0", [0, 2]), ("d < 1.0", [0]), ("not (d < 1.0)", [2]), ("not (d != 0.5)", [0]),
      ("d >= 0.5 or d == 2.0", [0, 2]), ("not (d > 5.0 or d < 0.0)", [0, 2]),
    ] {
      #expect(
        try CompiledFilter(text, for: table.recordType).filter(table.rows).matches == rows,
        "\(text)")
    }
  }

  @Test func parametersAreReadWhenTheFilterRuns() throws {
    let schema = Schema([.init("n", .int, optional: true), .init("c", .string, optional: true)])
    let table = ColumnTable(
      schema: schema,
      rows: [[.int(1), .string("a")], [.int(5), .string("b")], [.null, .string("a")], [.int(9)]])
    let filter = try CompiledFilter(
      "n >= $low or c == $name", for: table.recordType,
      parameters: ["low": .int, "name": .string])
    #expect(
      filter.binding(["low": .int(5), "name": .string("a")]).filter(table.rows).matches == [
        0, 1, 2, 3,
      ])
    #expect(filter.binding(["low": .int(6)]).filter(table.rows).matches == [3])
    #expect(filter.binding(["name": .string("b")]).filter(table.rows).matches == [1])
    #expect(filter.binding([:]).filter(table.rows).matches == [])
  }

  @Test func aTestOnACodedColumnFaultsOncePerRow() throws {
    // int(c) fails for "x": a fault for each of the three rows holding it, as row by row.
    let schema = Schema([.init("c", .string)])
    let table = ColumnTable(
      schema: schema, rows: [[.string("x")], [.string("1")], [.string("x")], [.string("x")]])
    let filter = try CompiledFilter("int(c) > 0", for: table.recordType)
    let (matches, faults) = filter.filter(table.rows)
    #expect(matches == [1])
    #expect(faults[.invalidConversion] == 3)
  }

  @Test func notOfUnknownStaysUnknown() throws {
    let schema = Schema([.init("n", .int, optional: true), .init("c", .string, optional: true)])
    let table = ColumnTable(
      schema: schema, rows: [[.int(1), .string("a")], [.null, .null], [.int(3), .string("b")]])
    for (text, rows) in [
      ("not (n > 2)", [0]), ("not (c == \"a\")", [2]), ("not (n > 2 or c == \"a\")", []),
      ("not (n > 2 and c == \"b\")", [0]), ("not not (n < 2)", [0]), ("n is null", [1]),
      ("c is not null and not (n == 3)", [0]),
    ] {
      let filter = try CompiledFilter(text, for: table.recordType)
      #expect(filter.filter(table.rows).matches == rows, "\(text)")
    }
  }

  /// Arithmetic compared with a constant runs as whole-batch operations: the same matches and
  /// the same faults (overflow, division by zero, not a number) as the rows one at a time, on
  /// flat and coded columns, with nulls, and inside `and`, `or` and `not`.
  @Test func arithmeticOverColumnsAgreesWithTheRowEngine() throws {
    let schema = Schema([
      .init("i", .int, optional: true), .init("j", .int, optional: true),
      .init("d", .double, optional: true),
    ])
    var rng = SplitMix64(seed: 7)
    let ints: [Int64] = [0, 1, -1, 2, 7, 1000, .max, .min]
    let records: [[Value]] = (0..<300).map { _ in
      [
        rng.chance(0.1) ? .null : .int(rng.pick(ints)),
        rng.chance(0.1) ? .null : .int(rng.pick(ints)),
        rng.chance(0.1) ? .null : .double(rng.pick([0.0, -1.5, 2.25, 1e308])),
      ]
    }
    let rowType = RecordType<[Value]>.dynamic(schema)
    let filters = [
      "i * 2 > 3", "i + j >= 0", "i - j < 0", "i * j == 0", "i / j > 0", "i % j != 0",
      "-i < 0", "-(i * j) <= 1", "i * 2 + j > 2500", "i * 1.5 > 3", "d * 2 > 1.5",
      "d / i < 1.0", "d + j * 2 >= 0", "i * 2 > $pi", "not (i + j > 1)",
      "i * j > 1 or j / i < 0", "i + 1 > 0 and d * d > 1.0", "i * j > 2.5",
    ]
    for form in 0..<2 {
      let table = Self.table(schema, records, form: form)
      let compiler = VectorCompiler(table: table)
      for text in filters {
        let filter = try CompiledFilter(text, for: table.recordType, parameters: ["pi": .int])
          .binding(["pi": .int(4)])
        let rows = try CompiledFilter(text, for: rowType, parameters: ["pi": .int])
          .binding(["pi": .int(4)])
        let (matches, faults) = filter.filter(table.rows)
        let (expected, expectedFaults) = rows.filter(records)
        #expect(matches.count == expected.count, "\(text) (form \(form))")
        #expect(faults == expectedFaults, "\(text) (form \(form))")
        #expect(
          matches.map { records[$0] } == expected, "\(text) (form \(form))")
      }
      // The comparisons of arithmetic take the kernel (not the row engine per row).
      let bound = try #require(
        FilterEnvironment(table.recordType).check(SourceText("i * 2 + j > 2500")).tree?.filter)
      #expect(compiler.arithmeticKernel(bound) != nil)
      let decimal = try #require(
        FilterEnvironment(table.recordType).check(SourceText("d + j * 2 >= 0")).tree?.filter)
      #expect(compiler.arithmeticKernel(decimal) != nil)
    }
  }

  /// Facets of coded fields count in one pass over the codes, each field's own condition
  /// evaluated once per distinct value: the counts of the row counter, with own conditions,
  /// shared ones, parameters, lists, nulls; and the general path (per record) when an own
  /// condition faults.
  /// (70,000 candidates are counted in chunks on several threads.)
  @Test(arguments: [400, 70_000])
  func facetsOfCodedFieldsInOnePassAgreeWithRows(size: Int) throws {
    let schema = Schema([
      .init("color", .string, optional: true), .init("disk", .int, optional: true),
      .init("tags", .list(.string), optional: true), .init("price", .int),
    ])
    var rng = SplitMix64(seed: 11)
    let records: [[Value]] = (0..<size).map { _ in
      [
        rng.chance(0.1) ? .null : .string(rng.pick(["Gold", "Blue", "Red", "7", "x"])),
        rng.chance(0.1) ? .null : .int(rng.pick([64, 128, 256, 512])),
        rng.chance(0.1)
          ? .null
          : .list((0..<rng.int(0...3)).map { _ in .string(rng.pick(["5G", "NFC", "eSIM"])) }),
        .int(Int64(rng.int(100...2000))),
      ]
    }
    let table = ColumnTable(schema: schema, rows: records, codedLimit: 4096)
    let fields = [FieldPath("color"), FieldPath("disk"), FieldPath("tags")]
    for text in [
      "true", "color in (Gold, Blue) and disk >= 256",
      "color == Gold and disk == 128 and price < 900",
      #"tags contains "5G" and color != Red and disk in (64, 512) and price > $low"#,
      "(color == Gold or color == Red) and not (disk == 64)", "disk > $low / 4",
      "int(color) > 0 and disk >= 128",
    ] {
      let source = SourceText(text)
      let filter = try Parser.parseFilter(source).get()
      let counter = try FacetCounter(
        fields, filter: filter, source: source, for: table.recordType, parameters: ["low": .int]
      ).binding(["low": .int(1000)])
      #expect(counter.codedColumns != nil)
      let overColumns = counter.count(table.rows)
      // In segments of 1,000 (and one of what is left): the same counts.
      var inSegments = counter
      inSegments.segment = 1_000
      #expect(summary(inSegments.count(table.rows)) == summary(overColumns), "\(text)")
      let overRows = try FacetCounter(
        fields, filter: filter, source: source, for: RecordType.dynamic(schema),
        parameters: ["low": .int]
      ).binding(["low": .int(1000)]).count(records)
      #expect(summary(overColumns) == summary(overRows), "\(text)")
    }
  }
}
