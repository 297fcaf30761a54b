import Testing

@testable import FilterDSL

/// Tables from an embedder's own arrays: shared, checked, and filtered like any other.
@Suite struct ColumnTableTests {
  let schema = Schema([
    .init("price", .int, optional: true), .init("screen", .double),
    .init("color", .string), .init("tags", .list(.string)),
  ])

  func phones(prices: [Int64] = [999, 799, 1299, 0]) -> ColumnTable? {
    guard
      let colors = Column.coded(
        [0, 1, 0, 2], values: [.string("Starlight"), .string("Midnight"), .null])
    else { return nil }
    return ColumnTable(
      schema: schema,
      columns: [
        .ints(prices, nulls: [false, false, false, true]), .doubles([6.1, 6.7, 6.1, 5.4]),
        colors,
        .values([
          .list([.string("5G")]), .list([]), .list([.string("5G"), .string("eSIM")]), .null,
        ]),
      ])
  }

  @Test func anEmbeddersArraysAreFilteredInPlace() throws {
    let table = try #require(phones())
    #expect(
      table.row(0) == [.int(999), .double(6.1), .string("Starlight"), .list([.string("5G")])])
    #expect(table.row(3) == [.null, .double(5.4), .null, .null])
    for (text, rows) in [
      ("price < 1000", [0, 1]), ("color == Starlight and any tags == \"5G\"", [0, 2]),
      ("price is null or screen > 6.5", [1, 3]), ("not (color == Midnight)", [0, 2]),
      ("color is null", [3]),
    ] {
      #expect(try CompiledFilter(text, for: table.recordType).filter(table.rows).matches == rows)
    }
    let facets = try FacetCounter(
      [FieldPath("color")], filter: nil, source: SourceText(""), for: table.recordType
    ).count(table.rows)
    #expect(facets.facets[0].counts.map(\.count) == [2, 1, 1])
  }

  /// A table's row numbers are 0 to its count, small or big (a big one is written on both
  /// cores, in halves).
  @Test func rowNumbersAreEveryRowInOrder() {
    for count in [0, 1, 7, 65_535, 65_536, 100_001] {
      #expect(ColumnTable.rowNumbers(count).elementsEqual(0..<count), "\(count)")
    }
  }

  @Test func whatDoesNotFitIsRefused() {
    // A code past the values, columns of different lengths, too few columns, a type the
    // field does not have.
    #expect(Column.coded([0, 3], values: [.string("a")]) == nil)
    #expect(phones(prices: [1, 2]) == nil)
    #expect(ColumnTable(schema: schema, columns: [.ints([1])]) == nil)
    let wrong = Schema([.init("n", .string)])
    #expect(ColumnTable(schema: wrong, columns: [.ints([1])]) == nil)
    #expect(ColumnTable(schema: wrong, columns: [.values([.int(1)])]) == nil)
    // Integers fit a decimal field.
    #expect(ColumnTable(schema: Schema([.init("d", .double)]), columns: [.ints([1])]) != nil)
    // Nulls alone fit any field, however they are held (as numbers with every row null).
    let dates = Schema([.init("day", .date, optional: true)])
    #expect(ColumnTable(schema: dates, columns: [.values([.null, .null])]) != nil)
    #expect(ColumnTable(schema: dates, columns: [.ints([0, 0], nulls: [true, true])]) != nil)
    #expect(ColumnTable(schema: dates, columns: [.doubles([0], nulls: [true])]) != nil)
    #expect(ColumnTable(schema: dates, columns: [.ints([0, 0], nulls: [true, false])]) == nil)
  }
}
