import TestSupport
import Testing

@testable import FilterDSL

/// Rows built in parts (on other threads, say) and joined to a builder make the table that
/// appending every row to it makes: the same values, forms and first rows.
@Suite struct ColumnBuilderPartsTests {
  /// Random rows whose columns take every form: coded integers and text, integers past the
  /// coded limit, decimals after integers, a mix of kinds, lists, a sparse column, nulls,
  /// and a column first seen late.
  func rows(_ count: Int, _ random: inout SplitMix64) -> [[Value]] {
    (0..<count).map { row in
      var values: [Value] = [
        Int.random(in: 0..<6, using: &random) == 0
          ? .null : .int(Int64(Int.random(in: 0..<40, using: &random))),
        .string(
          ["Snow", "Green", "Cream", "é", "e\u{301}"][Int.random(in: 0..<5, using: &random)]),
        row > count / 2
          ? .int(Int64(Int.random(in: 0..<1 << 40, using: &random))) : .int(Int64(row % 50)),
        Int.random(in: 0..<9, using: &random) == 0
          ? .double(Double(row) / 4) : .int(Int64(row % 11)),
        Int.random(in: 0..<3, using: &random) == 0 ? .string("t\(row % 5)") : .int(Int64(row % 4)),
        .list([.string("5G"), .int(Int64(row % 3))]),
        row % 97 == 0 ? .int(Int64(row)) : .null,
      ]
      if row > count / 3 { values.append(row % 5 == 0 ? .null : .bool(row % 2 == 0)) }
      return values
    }
  }

  func schema(_ width: Int) -> Schema {
    let types: [ValueType] = [.int, .string, .int, .double, .string, .list(.string), .int, .bool]
    return Schema((0..<width).map { Schema.Field("f\($0)", types[$0], optional: true) })
  }

  /// Each column's values, layout and, where coded, first rows.
  func describe(_ table: ColumnTable) -> [String] {
    table.columns.enumerated().map { slot, column in
      let values = (0..<table.count).map { table.value(row: $0, slot: slot) }
      var first: [Int] = []
      if case .coded(_, let dictionary) = column.storage { first = dictionary.firstRows }
      return "\(column.layout) \(first) \(values)"
    }
  }

  @Test(arguments: [1, 2, 3, 4]) func partsJoinedMakeTheTableAppendingMakes(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let input = rows(9_000, &random)
    var whole = ColumnBuilder(codedLimit: 64)
    for row in input { whole.append(row) }
    let expected = describe(whole.finish(schema(8)))

    // Two parts, reused from chunk to chunk as a reader's are; some chunks are read, thrown
    // away and read again.
    var joined = ColumnBuilder(codedLimit: 64)
    var parts = [ColumnBuilder(codedLimit: 64), ColumnBuilder(codedLimit: 64)]
    var start = 0
    var chunk = 0
    while start < input.count {
      let end = Swift.min(input.count, start + 1 + Int.random(in: 0..<1_500, using: &random))
      let part = chunk % 2
      if Int.random(in: 0..<4, using: &random) == 0 {
        for row in input[start..<end] { parts[part].append(row) }
        parts[part].removeRows()
        #expect(parts[part].count == 0)
      }
      for row in input[start..<end] { parts[part].append(row) }
      joined.append(rowsOf: &parts[part])
      #expect(parts[part].count == 0)
      (start, chunk) = (end, chunk + 1)
    }
    #expect(joined.count == input.count)
    let columns = describe(joined.finish(schema(8)))
    #expect(columns.count == expected.count)
    for (slot, (column, wanted)) in zip(columns, expected).enumerated() {
      // (Compared apart, so that a failure names the column without printing every value.)
      let same = column == wanted
      #expect(same, "column \(slot): \(column.prefix(80)) against \(wanted.prefix(80))")
    }
  }

  @Test func aPartJoinsACopyOfTheBuilderItJoinedBefore() {
    // The part learned codes of `joined` that `copy` (made before) does not have.
    var part = ColumnBuilder()
    var joined = ColumnBuilder()
    joined.append([.string("a")])
    let copy = joined
    part.append([.string("b")])
    part.append([.string("c")])
    joined.append(rowsOf: &part)
    var other = copy
    part.append([.string("c")])
    part.append([.string("b")])
    part.append([.string("d")])
    other.append(rowsOf: &part)
    let table = other.finish(Schema([.init("f", .string)]))
    #expect(describe(table) == [#"coded, 4 distinct [-1, 0, 1, 2, 3] ["a", "c", "b", "d"]"#])
  }

  @Test func partsOfOtherFormsJoinValueByValue() {
    // Flat integers joining coded ones, decimals joining integers, text joining decimals,
    // and a part that is all nulls.
    let chunks: [[Value]] = [
      [.int(1), .int(2)],
      (0..<100).map { .int(Int64($0)) },
      [.double(0.5), .null],
      [.null, .null],
      [.string("x")],
    ]
    var whole = ColumnBuilder(codedLimit: 16)
    var joined = ColumnBuilder(codedLimit: 16)
    for chunk in chunks {
      var part = ColumnBuilder(codedLimit: 16)
      for value in chunk {
        whole.append([value])
        part.append([value])
      }
      joined.append(rowsOf: &part)
    }
    let schema = Schema([.init("f", .string, optional: true)])
    #expect(describe(joined.finish(schema)) == describe(whole.finish(schema)))
  }
}
