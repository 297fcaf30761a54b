import TestSupport
import Testing

@testable import FilterDSL

/// A coded column's codes take one byte a row up to 255 distinct values, two up to 65,535,
/// four past that, widening as codes are appended or set, and read back as written at every
/// width and through every reader.
@Suite struct CodesTests {
  func all(_ codes: Codes) -> [UInt32] { (0..<codes.count).map { codes[$0] } }

  /// The codes as a generic loop over the buffer reads them.
  func read(_ codes: Codes) -> [UInt32] {
    func read<Code: FixedWidthInteger>(_ buffer: UnsafeBufferPointer<Code>) -> [UInt32] {
      buffer.map { UInt32($0) }
    }
    return codes.withBuffer(read, read, read)
  }

  @Test func appendsWidenAtEachLimit() {
    var codes = Codes()
    var written: [UInt32] = []
    for (code, width) in [(0, 1), (255, 1), (7, 1), (256, 2), (65_535, 2), (65_536, 4), (3, 4)] {
      codes.append(UInt32(code))
      written.append(UInt32(code))
      #expect(codes.width == width, "after \(code)")
      #expect(all(codes) == written)
      #expect(read(codes) == written)
    }
    #expect(codes.last == 3)
    #expect(codes.code(at: -1) == 0 && codes.code(at: written.count) == 0)
  }

  @Test func setWidensToo() {
    var codes = Codes([1, 2, 3])
    #expect(codes.width == 1)
    codes.set(1, 70_000)
    #expect(codes.width == 4)
    #expect(all(codes) == [1, 70_000, 3])
    var shorts = Codes([1, 300])
    #expect(shorts.width == 2)
    shorts.set(0, 9)
    #expect(all(shorts) == [9, 300] && shorts.width == 2)
  }

  @Test func removingKeepsTheWidth() {
    var codes = Codes([5, 400, 6, 7])
    #expect(all(codes) == [5, 400, 6, 7])
    codes.removeAll()
    #expect(codes.isEmpty && codes.width == 2 && codes.last == nil)
    codes.append(1)
    #expect(all(codes) == [1])
  }

  @Test func codesMappedFromAnotherColumnWidenOnceAndKeepTheirOrder() {
    // Another column's codes, at each width, mapped to codes of each width, up to a limit;
    // and codes removed from the end.
    for (source, map) in [
      ([0, 1, 2, 1], [0, 5, 6]), ([2, 0, 1], [0, 300, 7]), ([1, 2, 2], [0, 9, 70_000]),
      ([0, 299, 1], [0] + Array(1...299).map { UInt32($0) * 3 }),
    ] as [([UInt32], [UInt32])] {
      for limit in [0, 2, source.count, source.count + 5] {
        var codes = Codes([4, 1])
        codes.append(Codes(source), upTo: limit, mappedBy: map)
        let expected = [4, 1] + source.prefix(limit).map { map[Int($0)] }
        #expect(all(codes) == expected, "\(source) by \(map) to \(limit)")
        #expect(read(codes) == expected)
        // (Wide enough for any code the map gives: in a column, every code it gives is one of
        // the column's rows already, or one it is given now.)
        let largest = limit > 0 ? Swift.max(4, map.max() ?? 0) : 4
        #expect(codes.width == (largest > 65_535 ? 4 : largest > 255 ? 2 : 1))
        codes.removeLast(2)
        #expect(all(codes) == Array(expected.dropLast(2)))
      }
    }
  }

  @Test func aColumnOfFewValuesTakesAByteARow() {
    var builder = ColumnBuilder()
    let colors = ["Red", "Blue", "Gold"]
    for row in 0..<3_000 { builder.append([.string(colors[row % 3])]) }
    let narrow = builder.finish(Schema([.init("color", .string, optional: true)]))
    #expect(narrow.columns[0].layout == "coded, 3 distinct")
    #expect(narrow.columns[0].bytes < 3_000 + 1_000)
    // 300 distinct: two bytes a row, and every row reads back.
    var wide = ColumnBuilder()
    for row in 0..<3_000 { wide.append([.string("model \(row % 300)")]) }
    let table = wide.finish(Schema([.init("model", .string, optional: true)]))
    #expect(table.columns[0].bytes >= 6_000 && table.columns[0].bytes < 6_000 + 20_000)
    #expect(
      (0..<3_000).allSatisfy { table.value(row: $0, slot: 0) == .string("model \($0 % 300)") })
  }
}

/// A big table's sort zones: each block's least and greatest key and whether it has a null,
/// ruling out only blocks that cannot hold a row before the bound.
@Suite struct SortZonesTests {
  @Test func blocksAreRuledOutOnlyWhenNoRowCanComeFirst() throws {
    let rows = SortZones.rows
    // Block 0: 0..<1024; block 1: 5000..., with a null; block 2: nulls only.
    var values = (0..<Int64(rows)).map { $0 } + (0..<Int64(rows)).map { 5_000 + $0 }
    var nulls = [Bool](repeating: false, count: 2 * rows)
    nulls[rows + 7] = true
    values += [Int64](repeating: 0, count: rows)
    nulls += [Bool](repeating: true, count: rows)
    let zones = try #require(SortZones(.ints(values, nulls: nulls)))
    func out(_ block: Int, _ limit: Int64, descending: Bool, nullsFirst: Bool, ties: Bool) -> Bool {
      zones.rulesOut(
        rows: block * rows, block * rows + rows - 1, below: .int(limit), descending: descending,
        nullsFirst: nullsFirst, ties: ties)
    }
    // Descending: block 0 (at most 1023) cannot beat 1023, can tie it.
    #expect(out(0, 1_023, descending: true, nullsFirst: false, ties: false))
    #expect(!out(0, 1_023, descending: true, nullsFirst: false, ties: true))
    #expect(!out(0, 1_022, descending: true, nullsFirst: false, ties: false))
    // Ascending: block 1 (at least 5000) cannot come before 5000, a null there can if first.
    #expect(out(1, 5_000, descending: false, nullsFirst: false, ties: false))
    #expect(!out(1, 5_000, descending: false, nullsFirst: true, ties: false))
    // Nulls only: out unless nulls come first.
    #expect(out(2, 0, descending: false, nullsFirst: false, ties: true))
    #expect(!out(2, 0, descending: false, nullsFirst: true, ties: false))
    // A range over two blocks is out only if both are; outside the zones, never.
    #expect(
      !zones.rulesOut(
        rows: 0, 2 * rows - 1, below: .int(1_023), descending: true,
        nullsFirst: false, ties: false))
    #expect(
      !zones.rulesOut(
        rows: 3 * rows, 3 * rows, below: .int(0), descending: true,
        nullsFirst: false, ties: false))
    // No zones for NaN, or values of kinds that do not compare; ranked text has them.
    #expect(SortZones(.doubles([1, .nan])) == nil)
    #expect(SortZones(.values([.string("a"), .int(1)])) == nil)
    #expect(SortZones(.values([.string("b"), .string("a")])) != nil)
  }

  /// A coded column's zones hold its values' ranks: each block's least and greatest, and
  /// whether it has a row whose value is null (a null among the values, in some blocks).
  @Test func codedZonesAreEachBlocksLeastGreatestRanksAndNulls() throws {
    var random = SplitMix64(seed: 13)
    let rows = SortZones.rows
    // Ranks: "a" 0, "b" 1, ... (sorted by text); value 3 is null.
    let values: [Value] = [.string("d"), .string("b"), .string("a"), .null, .string("c")]
    let rank: [Int64?] = [3, 1, 0, nil, 2]
    for round in 0..<4 {
      let count = random.int(1...(4 * rows + 50))
      let codes = (0..<count).map { row -> UInt32 in
        // (Nulls in some blocks only; one value alone in others.)
        if round == 1 && row / rows == 1 { return 2 }
        let code = UInt32(random.int(0...4))
        return code == 3 && (row / rows) % 2 == 0 ? 0 : code
      }
      let column = try #require(Column.coded(codes, values: values))
      let zones = try #require(SortZones(column))
      guard case .ints(let low, let high) = zones.keys else {
        Issue.record("coded zones are ranks")
        return
      }
      for block in 0..<((count + rows - 1) / rows) {
        let ranks = codes[(block * rows)..<Swift.min(count, (block + 1) * rows)].map {
          rank[Int($0)]
        }
        let present = ranks.compactMap { $0 }
        #expect(zones.nulls[block] == ranks.contains(nil), "block \(block), round \(round)")
        #expect(
          present.isEmpty
            ? low[block] > high[block] : low[block] == present.min() && high[block] == present.max()
        )
      }
    }
  }

  /// Each block's least and greatest value and its nulls, as the rows say one by one, for
  /// columns of integers and decimals with nulls in some blocks, none in others (a mask that
  /// ends before the last blocks), and all in a few.
  @Test func zonesAreEachBlocksLeastGreatestAndNulls() throws {
    var random = SplitMix64(seed: 12)
    let rows = SortZones.rows
    for round in 0..<6 {
      let count = random.int(1...(5 * rows + 100))
      let nullShare = [0.0, 0.001, 0.3, 1.0][round % 4]
      // (Nulls only in the first blocks sometimes: the mask's words end before the rows do.)
      let nullsEnd = round % 3 == 0 ? Swift.min(count, rows + 5) : count
      let nulls = (0..<count).map { $0 < nullsEnd && random.chance(nullShare) }
      let ints = (0..<count).map { _ in Int64(random.int(-1_000...1_000)) }
      for column in [
        Column.ints(ints, nulls: nulls), .doubles(ints.map { Double($0) / 4 }, nulls: nulls),
      ] {
        let zones = try #require(SortZones(column))
        for block in 0..<((count + rows - 1) / rows) {
          let values = (block * rows..<Swift.min(count, (block + 1) * rows)).map {
            column.value(at: $0)
          }
          let numbers = values.compactMap { value -> Double? in
            switch value {
            case .int(let i): Double(i)
            case .double(let d): d
            default: nil
            }
          }
          #expect(zones.nulls[block] == values.contains(.null), "block \(block), round \(round)")
          switch zones.keys {
          case .ints(let low, let high):
            #expect(
              numbers.isEmpty
                ? low[block] > high[block]
                : Double(low[block]) == numbers.min() && Double(high[block]) == numbers.max())
          case .doubles(let low, let high):
            #expect(
              numbers.isEmpty
                ? low[block] > high[block]
                : low[block] == numbers.min() && high[block] == numbers.max())
          }
        }
      }
    }
  }
}
