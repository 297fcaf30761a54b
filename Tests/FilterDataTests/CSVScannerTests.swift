import TestSupport
import Testing

@testable import FilterData

/// The CSV scanner's unquoted cells, passed eight bytes at a time, are the cells a byte-by-byte
/// split finds, and it fails where that split meets a stray quote (not in TSV, where a quote
/// inside a cell is text) or invalid UTF-8.
@Suite struct CSVScannerTests {
  /// Splits `bytes` (rows of unquoted cells, each row ended by a line end) byte by byte: the
  /// cells of each row, or the offset of the first problem (a quote in CSV, the first byte
  /// of a row's invalid UTF-8).
  static func reference(_ bytes: [UInt8], separator: UInt8) -> (rows: [[Range<Int>]], problem: Int?)
  {
    var rows: [[Range<Int>]] = []
    var (row, start, index) = ([Range<Int>](), 0, 0)
    var rowStart = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x22 && separator != 0x09 { return (rows, index) }
      if byte == separator || byte == 0x0A {
        row.append(start..<index)
        start = index + 1
        if byte == 0x0A {
          if let bad = UTF8Validation.firstInvalid(
            bytes.withUnsafeBufferPointer { $0 }, rowStart, index)
          {
            return (rows, bad)
          }
          rows.append(row)
          row = []
          rowStart = index + 1
        }
      }
      index += 1
    }
    return (rows, nil)
  }

  @Test(arguments: [UInt8(0x2C), 0x09])
  func unquotedCellsAreWhatAByteSplitFinds(separator: UInt8) throws {
    var random = SplitMix64(seed: UInt64(separator))
    // Letters, UTF-8 of two and three bytes, and now and then a quote or a broken sequence.
    let pieces: [[UInt8]] = [
      Array("a".utf8), Array("Space Black".utf8), Array("é".utf8), Array("€".utf8),
      Array("12345678".utf8), [0x20], [0x22], [0xC3], [0xFF],
    ]
    for _ in 0..<300 {
      var bytes: [UInt8] = []
      for _ in 0..<random.int(1...6) {
        for cell in 0..<random.int(1...5) {
          if cell > 0 { bytes.append(separator) }
          let cellStart = bytes.count
          for _ in 0..<random.int(0...4) {
            let piece = random.pick(pieces)
            // (Quotes and broken sequences rarely, so that most files read whole; a quote
            // never first, where it would open a quoted cell.)
            if piece == [0x22] || piece == [0xC3] || piece == [0xFF], !random.chance(0.05) {
              continue
            }
            if piece == [0x22] && bytes.count == cellStart { continue }
            bytes += piece
          }
        }
        bytes.append(0x0A)
      }
      let expected = Self.reference(bytes, separator: separator)
      var rows: [[Range<Int>]] = []
      var problem: Int? = nil
      bytes.withUnsafeBufferPointer { buffer in
        var scanner = CSVScanner(
          buffer, from: 0, to: buffer.count, atEnd: true, separator: separator)
        var cells: [CSVCell] = []
        do throws(DataProblem) {
          while let _ = try scanner.record(into: &cells) {
            rows.append(cells.map { $0.start..<$0.end })
          }
        } catch {
          problem = error.offset
        }
      }
      // (The scanner skips blank lines; the reference keeps them as one empty cell.)
      let kept = expected.rows.filter { $0 != [$0.first ?? 0..<0] || !($0.first?.isEmpty ?? true) }
      #expect(problem == expected.problem, "\(bytes)")
      if problem == nil { #expect(rows == kept, "\(bytes)") }
    }
  }
}
