import TestSupport
import Testing

@testable import FilterDSL

/// Columns take the form their values need, and read back exactly what was appended.
@Suite struct ColumnBuilderTests {
  func table(_ type: ValueType, _ values: [Value]) -> ColumnTable {
    var builder = ColumnBuilder()
    for value in values { builder.append([value]) }
    return builder.finish(Schema([.init("f", type, optional: true)]))
  }

  func values(_ table: ColumnTable) -> [Value] {
    (0..<table.count).map { table.value(row: $0, slot: 0) }
  }

  @Test func integersStayIntegersWithTheirNulls() {
    let input: [Value] = [.null, .int(3), .null, .int(Int64.min), .int(Int64.max)]
    let built = table(.int, input)
    #expect(built.columns[0].layout == "coded, 3 distinct")
    #expect(values(built) == input)
    // Past 4,096 distinct values, flat.
    let many: [Value] = (0..<5000).map { $0 % 7 == 0 ? .null : .int(Int64($0)) }
    let flat = table(.int, many)
    #expect(flat.columns[0].layout == "int")
    #expect(values(flat) == many)
  }

  @Test func aDecimalWidensIntegersThatAreExact() {
    let built = table(.double, [.int(1), .null, .double(2.5)])
    #expect(built.columns[0].layout == "double")
    #expect(values(built) == [.double(1), .null, .double(2.5)])
    // 2^53 + 1 is not exact as a decimal: the column keeps the values as they are.
    let inexact = table(.double, [.int(9_007_199_254_740_993), .double(2.5)])
    #expect(inexact.columns[0].layout == "values")
    #expect(values(inexact) == [.int(9_007_199_254_740_993), .double(2.5)])
  }

  @Test func aDecimalFieldOfIntegersReadsAsDecimals() {
    let built = table(.double, [.int(1), .int(2)])
    #expect(built.columns[0].layout == "double")
    #expect(values(built) == [.double(1), .double(2)])
  }

  @Test func textIsCodedOncePerDistinctValue() {
    let built = table(.string, [.string("a"), .null, .string("b"), .string("a")])
    #expect(built.columns[0].layout == "coded, 2 distinct")
    #expect(values(built) == [.string("a"), .null, .string("b"), .string("a")])
    let bools = table(.bool, [.bool(true), .bool(false), .null])
    #expect(bools.columns[0].layout == "coded, 2 distinct")
  }

  @Test func mixedValuesAreKeptAsValues() {
    let input: [Value] = [.int(1), .string("x"), .bool(true), .list([.int(1)]), .null]
    let built = table(.string, input)
    #expect(built.columns[0].layout == "values")
    #expect(values(built) == input)
    let textThenBool = table(.string, [.string("x"), .bool(true)])
    #expect(values(textThenBool) == [.string("x"), .bool(true)])
  }

  @Test func aFieldTypeTheValuesDoNotHaveKeepsThemAsValues() {
    // Integers in a text field (as before a schema grew): read exactly as they are.
    let built = table(.string, [.int(1), .int(2)])
    #expect(built.columns[0].layout == "values")
    #expect(values(built) == [.int(1), .int(2)])
  }

  @Test func rowsCanBeReplacedAndColumnsAddedLate() {
    var builder = ColumnBuilder()
    builder.append([.int(1)])
    builder.append([.int(2), .string("b")])
    builder.replace(row: 0, with: [.double(1.5), .string("a")])
    builder.replace(row: 7, with: [.int(0)])  // not a row: ignored
    let built = builder.finish(
      Schema([.init("n", .double), .init("c", .string, optional: true), .init("z", .int)]))
    #expect(built.count == 2)
    #expect(built.row(0) == [.double(1.5), .string("a"), .null])
    #expect(built.row(1) == [.double(2), .string("b"), .null])
    #expect(built.row(2) == [.null, .null, .null])
    #expect(built.value(row: 0, slot: 9) == .null)
  }

  @Test func aReplacedRowIsNoLongerTheFirstOfItsOldValue() throws {
    // Tests on coded columns are evaluated on the first row of each value: after row 0 is
    // replaced, "a" has no row, and "b" is found on row 0.
    var builder = ColumnBuilder()
    builder.append([.string("a")])
    builder.append([.string("b")])
    builder.replace(row: 0, with: [.string("b")])
    builder.replace(row: 1, with: [.int(3)])
    builder.replace(row: 1, with: [.string("c")])
    let built = builder.finish(Schema([.init("c", .string)]))
    #expect(built.columns[0].layout.hasPrefix("coded"))
    for (filter, rows) in [("c == \"a\"", [Int]()), ("c == \"b\"", [0]), ("c in (b, c)", [0, 1])] {
      #expect(try CompiledFilter(filter, for: built.recordType).filter(built.rows).matches == rows)
    }
  }

  @Test func columnsWithFewValuesKeepOnlyThoseRows() {
    // Each record brings a new key: 2,000 columns, each with a value in one row.
    var builder = ColumnBuilder()
    for row in 0..<2000 {
      builder.append(Array(repeating: .null, count: row) + [.int(Int64(row))])
    }
    let schema = Schema((0..<2000).map { .init("k\($0)", .int, optional: true) })
    let built = builder.finish(schema)
    #expect(built.count == 2000)
    // The first columns had a value in most of the rows so far: dense until the end.
    #expect(built.columns[0].layout.hasPrefix("coded"))
    #expect(built.columns[1999].layout == "sparse, 1 with a value")
    #expect(built.columns[1999].bytes < 100)
    #expect(built.columns.reduce(0) { $0 + $1.bytes } < 2000 * 100)
    for row in [0, 1, 17, 1000, 1999] {
      #expect(built.value(row: row, slot: row) == .int(Int64(row)))
      #expect(built.value(row: row, slot: (row + 1) % 2000) == .null)
    }
    #expect(built.value(row: 2000, slot: 1999) == .null)
    #expect(built.value(row: -1, slot: 1999) == .null)
  }

  @Test func sparseRowsCanBeReplaced() {
    var builder = ColumnBuilder(codedLimit: 4096, sparseShare: 2)
    for n in 0..<6 { builder.append(n % 2 == 0 ? [.string("s\(n)")] : []) }
    builder.replace(row: 2, with: [])  // removes a value
    builder.replace(row: 3, with: [.string("new")])  // adds one between two others
    builder.replace(row: 4, with: [.string("four")])  // replaces one
    let built = builder.finish(Schema([.init("s", .string, optional: true)]))
    #expect(built.columns[0].layout == "sparse, 3 with a value")
    #expect(
      (0..<6).map { built.value(row: $0, slot: 0) } == [
        .string("s0"), .null, .null, .string("new"), .string("four"), .null,
      ])
    // A column dense enough at the end is not sparse, whatever it was while it grew.
    var late = ColumnBuilder()
    for n in 0..<64 { late.append(n < 60 ? [] : [.int(1)]) }
    #expect(late.finish(Schema([.init("n", .int)])).columns[0].layout == "coded, 1 distinct")
  }

  @Test func sizesCountBuffersAndText() {
    let built = table(.int, (0..<5000).map { .int(Int64($0)) })
    #expect(built.columns[0].bytes == 40_000)
    let long = String(repeating: "x", count: 100)
    let text = table(.string, Array(repeating: .string(long), count: 10))
    #expect(text.columns[0].bytes > 100 && text.columns[0].bytes < 400)
  }

  @Test func roomMadeAheadChangesNoValue() {
    // Expected too few rows, too many, and a column that widens (coded integers to flat, to
    // decimals, to values) past the room made: the same table as with no room made.
    let columns: [(ValueType, [Value])] = [
      (.int, (0..<6000).map { $0 % 5 == 0 ? .null : .int(Int64($0)) }),
      (.double, (0..<3000).map { $0 == 2000 ? .double(0.5) : .int(Int64($0 % 7)) }),
      (.string, (0..<3000).map { $0 == 2999 ? .int(1) : .string("s\($0 % 9)") }),
    ]
    for (type, input) in columns {
      for expected in [0, 10, 2500, 100_000] {
        var builder = ColumnBuilder()
        builder.reserve(rows: expected)
        for value in input { builder.append([value]) }
        let built = builder.finish(Schema([.init("f", type, optional: true)]))
        #expect(values(built) == values(table(type, input)), "\(type), \(expected) rows")
        #expect(built.columns[0].layout == table(type, input).columns[0].layout)
      }
    }
    // The room is made: a column of 10 integers has room for 1,000.
    var builder = ColumnBuilder()
    builder.reserve(rows: 1_000)
    for n in 0..<10 { builder.append([.double(Double(n))]) }
    let storage = builder.finish(Schema([.init("f", .double)])).columns[0].storage
    guard case .double(let doubles, _) = storage else {
      Issue.record("not decimals")
      return
    }
    #expect(doubles.capacity >= 1_000)
  }
}

/// Rows given as cells (`RowCells`, what readers fill): only the cells set are visited when a
/// row is appended or emptied, and the table is the one its rows appended as values make.
@Suite struct RowCellsTests {
  @Test func cellsAppendTheRowsTheirValuesWould() {
    var generator = SplitMix64(seed: 11)
    var byCells = ColumnBuilder()
    var byValues = ColumnBuilder()
    var cells = RowCells()
    let empty = UnsafeRawBufferPointer(start: nil, count: 0)
    for row in 0..<400 {
      var values: [Value] = []
      // Wide and sparse: each row sets a few slots out of hundreds, some twice (a repeated
      // key keeps its last value), some to null.
      for _ in 0..<Int.random(in: 0...4, using: &generator) {
        let slot = Int.random(in: 0...(row % 50 == 0 ? 600 : 40), using: &generator)
        let value: Value =
          Bool.random(using: &generator)
          ? .int(Int64.random(in: -3...3, using: &generator))
          : Bool.random(using: &generator)
            ? .string(["a", "b", "c"][Int.random(in: 0...2, using: &generator)]) : .null
        cells.set(slot, value, spelled: 0..<0)
        if values.count <= slot { values += repeatElement(.null, count: slot + 1 - values.count) }
        values[slot] = value
      }
      if row % 7 == 3 {
        // A record read and dropped: its cells leave nothing behind.
        cells.removeAll()
        continue
      }
      byCells.append(&cells, spelledIn: empty)
      byValues.append(values)
      #expect(cells.touched.isEmpty)
    }
    let width = 601
    let schema = Schema((0..<width).map { Schema.Field("f\($0)", .string, optional: true) })
    let a = byCells.finish(schema)
    let b = byValues.finish(schema)
    #expect(a.count == b.count)
    #expect((0..<a.count).allSatisfy { a.row($0) == b.row($0) })
  }
}

extension RowCellsTests {
  @Test func codesPutStraightInAColumnAppendTheRowsTheirValuesWould() {
    // Values are spelled in a text; once a coded column has seen a spelling, later rows put
    // its code straight in the column. Keys given twice (a code then a value or null, a value
    // then a code, two codes) keep the last; a dropped row takes its codes back.
    var generator = SplitMix64(seed: 17)
    let words = ["\"a\"", "\"bb\"", "\"ccc\"", "7", "\"dddd\""]
    let text = Array(words.joined().utf8)
    var starts: [Int] = []
    var offset = 0
    for word in words {
      starts.append(offset)
      offset += word.utf8.count
    }
    func value(_ word: Int) -> Value {
      words[word] == "7" ? .string("7") : .string(String(words[word].dropFirst().dropLast()))
    }
    var byCells = ColumnBuilder()
    var byValues = ColumnBuilder()
    var cells = RowCells()
    var putCodes = 0
    text.withUnsafeBytes { text in
      for row in 0..<2_000 {
        var values: [Value] = []
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
          // Some rows wide (a slot past 64, in a column sparse or not), their few slots set
          // again and again.
          let slot =
            row % 50 == 0
            ? [80, 81][Int.random(in: 0...1, using: &generator)]
            : row % 10 == 0
              ? [3, 80][Int.random(in: 0...1, using: &generator)]
              : Int.random(in: 0...5, using: &generator)
          let word = Int.random(in: 0...(words.count - 1), using: &generator)
          let spelled = starts[word]..<(starts[word] + words[word].utf8.count)
          if values.count <= slot { values += repeatElement(.null, count: slot + 1 - values.count) }
          if Int.random(in: 0...6, using: &generator) == 0 {
            // Null (after a code or not): as a reader sets it.
            values[slot] = .null
            byCells.dropCode(slot: slot)
            cells.set(slot, .null, spelled: 0..<0)
            continue
          }
          values[slot] = value(word)
          if byCells.put(
            spelled: .bytes(UnsafeRawBufferPointer(rebasing: text[spelled])), slot: slot,
            emptying: &cells) != nil
          {
            putCodes += 1
          } else {
            cells.set(slot, value(word), spelled: spelled)
          }
        }
        if row % 9 == 4 {
          // A record read and dropped: its cells and its codes leave nothing behind.
          cells.removeAll()
          byCells.dropRow()
          continue
        }
        byCells.append(&cells, spelledIn: text)
        byValues.append(values)
      }
    }
    #expect(putCodes > 1_000)
    let schema = Schema((0..<82).map { Schema.Field("f\($0)", .string, optional: true) })
    let a = byCells.finish(schema)
    let b = byValues.finish(schema)
    #expect(a.count == b.count)
    #expect((0..<a.count).allSatisfy { a.row($0) == b.row($0) })
  }
}

extension RowCellsTests {
  @Test func aKeyGivenAgainAfterANullKeepsItsLastValueInASparseColumn() {
    // A cell set, emptied by a null and set again is listed twice: its value is put twice
    // in the row, and the second replaces the first, in a sparse column as in a dense one.
    var builder = ColumnBuilder()
    var cells = RowCells()
    let empty = UnsafeRawBufferPointer(start: nil, count: 0)
    for row in 0..<100 {
      let slot = row == 50 ? 1 : 0
      cells.set(slot, .string("a"), spelled: 0..<0)
      cells.set(slot, .null, spelled: 0..<0)
      cells.set(slot, .string("b"), spelled: 0..<0)
      builder.append(&cells, spelledIn: empty)
    }
    let table = builder.finish(
      Schema([
        Schema.Field("dense", .string, optional: true),
        Schema.Field("sparse", .string, optional: true),
      ]))
    #expect(table.count == 100)
    #expect(table.row(50) == [.null, .string("b")])
    #expect(table.row(51) == [.string("b"), .null])
    guard case .sparse(let sparse) = table.columns[1].storage else {
      Issue.record("not sparse")
      return
    }
    #expect(sparse.rows == [50])
    #expect(sparse.values == [.string("b")])
  }
}
