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

  @Test func removingKeepsTheWidthAndSlicesKeepTheirRows() {
    var codes = Codes([5, 400, 6, 7])
    #expect(all(codes.slice(1..<3)) == [400, 6])
    codes.removeAll()
    #expect(codes.isEmpty && codes.width == 2 && codes.last == nil)
    codes.append(1)
    #expect(all(codes) == [1])
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
