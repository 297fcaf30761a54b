import FilterDSL
import TestSupport
import Testing

@testable import FilterData

/// The JSON scanner's string scan, eight bytes at a time, finds what a scan byte by byte
/// finds: the closing quote, escapes, control characters and bytes past ASCII, wherever in a
/// word they fall, and a string cut off by the end.
@Suite struct JSONScannerTests {
  /// What scanning the string that starts at `bytes[0]` (a quote) gives, one byte at a time:
  /// its contents' range and whether it has no escape; or where it fails ("truncated" when
  /// cut off, invalid UTF-8, else the offset of the control character).
  static func reference(_ bytes: [UInt8]) -> String {
    var cursor = 1
    var escaped = false
    while cursor < bytes.count {
      let byte = bytes[cursor]
      if byte == 0x22 {
        guard String(validating: bytes[1..<cursor], as: UTF8.self) != nil else {
          return "invalid UTF-8"
        }
        return "\(1..<cursor) \(!escaped)"
      }
      if byte == 0x5C {
        escaped = true
        cursor += 2
        continue
      }
      if byte < 0x20 { return "control at \(cursor)" }
      cursor += 1
    }
    return "truncated"
  }

  static func scan(_ bytes: [UInt8]) -> String {
    bytes.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(buffer, from: 0, to: buffer.count)
      do throws(DataProblem) {
        let (start, end, simple) = try scanner.scanString()
        return "\(start..<end) \(simple)"
      } catch {
        if error.code == .invalidUTF8 { return "invalid UTF-8" }
        return error.truncated ? "truncated" : "control at \(error.offset)"
      }
    }
  }

  @Test func wordsAtATimeFindWhatBytesAtATimeFind() {
    var random = SplitMix64(seed: 11)
    // Plain bytes, and each kind of byte the scan stops or notes at (bytes past ASCII,
    // valid UTF-8 or not).
    let pieces: [[UInt8]] = [
      Array("a".utf8), Array("bcdefgh".utf8), [0x5C, 0x22], [0x5C, 0x5C], [0x5C, 0x6E],
      Array("é".utf8), Array("€".utf8), [0x09], [0x1F], [0x20], [0x7F], Array("~}|".utf8),
      [0xFF], [0xC3],
    ]
    for _ in 0..<4_000 {
      var bytes: [UInt8] = [0x22]
      for _ in 0..<random.int(0...24) {
        let piece = random.int(0...9) < 7 ? pieces[random.int(0...1)] : random.pick(pieces)
        bytes += piece
      }
      if random.chance(0.9) { bytes.append(0x22) }
      bytes += Array("tail é\"".utf8.prefix(random.int(0...7)))
      let expected = Self.reference(bytes)
      let got = Self.scan(bytes)
      #expect(got == expected, "\(bytes)")
      if got != expected { return }
    }
  }
}

extension JSONScannerTests {
  @Test func aKeyFoundByItsPlaceIsThatKeyExactly() throws {
    // Keys are matched first against the key found at the same place in the record before:
    // a longer or shorter key, one written with escapes, one that merely starts the same,
    // and names that cannot be written plainly (a quote in them) find their own fields.
    let lines = [
      #"{"price": 1, "name": "a", "a\"b": 7}"#,
      #"{"prices": 2, "nam": "b", "a\"b": 8}"#,
      #"{"pr\u0069ce": 3, "name": "c", "a\u0022b": 9}"#,
      #"{"price": 4, "name\u0000": "d", "name": "e"}"#,
      #"{"name": "f", "price": 5}"#,
      #"{"pric": 6, "price": 7}"#,
    ]
    let path = try DataFiles.write(lines.joined(separator: "\n") + "\n", "keys.jsonl")
    let contents = try DataFiles.read(path)
    let names = contents.schema.fields.map(\.name)
    func column(_ name: String) -> [Value] {
      guard let slot = names.firstIndex(of: name) else { return [] }
      return contents.values.map { slot < $0.count ? $0[slot] : .null }
    }
    #expect(column("price") == [.int(1), .null, .int(3), .int(4), .int(5), .int(7)])
    #expect(column("prices") == [.null, .int(2), .null, .null, .null, .null])
    #expect(column("pric") == [.null, .null, .null, .null, .null, .int(6)])
    #expect(
      column("name") == [.string("a"), .null, .string("c"), .string("e"), .string("f"), .null])
    #expect(column("nam") == [.null, .string("b"), .null, .null, .null, .null])
    #expect(column("name\u{0}") == [.null, .null, .null, .string("d"), .null, .null])
    #expect(column("a\"b") == [.int(7), .int(8), .int(9), .null, .null, .null])
  }
}
