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

  @Test func aLongKeyFoundByItsPlaceIsThatKeyExactly() throws {
    // Keys of 8 bytes and more are compared a word at a time: a key that differs from the
    // one before only in its last byte, in its ninth, in the byte past a word, or that is
    // one byte longer or shorter, finds its own field.
    let keys = [
      "screenSize", "screenSizf", "screenSiz", "screenSizes", "abcdefgh", "abcdefgi",
      "abcdefghXjklmnopq", "abcdefghYjklmnopq", "abcdefghXjklmnopr", "abcdefghXjklmnop",
    ]
    var lines: [String] = []
    var expected: [String: [Value]] = [:]
    for (row, key) in (keys + keys.reversed() + keys).enumerated() {
      lines.append(#"{"\#(key)": \#(row), "other": 1}"#)
      for name in keys {
        expected[name, default: []].append(name == key ? .int(Int64(row)) : .null)
      }
    }
    let path = try DataFiles.write(lines.joined(separator: "\n") + "\n", "long-keys.jsonl")
    let contents = try DataFiles.read(path)
    let names = contents.schema.fields.map(\.name)
    for key in keys {
      let slot = try #require(names.firstIndex(of: key))
      #expect(contents.values.map { slot < $0.count ? $0[slot] : .null } == expected[key], "\(key)")
    }
  }
}

/// A short value's spelling, found a word at a time, is the spelling a full scan finds: a
/// coded column's memo that holds it then stands for the value a full read would give.
extension JSONScannerTests {
  /// Where a full scan of the value at `bytes[0]` (with `skipValue`) ends, or nil if it fails.
  static func scannedEnd(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(buffer, from: 0, to: buffer.count)
      return (try? scanner.skipValue(depth: 1)) != nil ? scanner.index : nil
    }
  }

  @Test func aShortSpellingIsTheValueAFullScanFinds() {
    var random = SplitMix64(seed: 29)
    let values: [String] = [
      #""Space Black""#, #""""#, #""a""#, #""é""#, #""2022-09-26""#, #""fourteen bytes""#,
      #""fifteen bytes!""#, #""a\"b""#, #""a\nb""#, "1", "-1", "1024", "6.7", "-0.5e10",
      "12345678901234", "123456789012345", "1234567890123456", "true", "false", "null",
      "{}", "[]", #"{"a":1}"#, "[1,2]", "1x", "--1", "tru", "01", #""a"#, "1.", "\"\u{1}\"",
    ]
    let followers = [",", "}", "]", " ", "\n", "\t", "\r", "x", "\"", ":", ""]
    for _ in 0..<20_000 {
      var text = Array(random.pick(values).utf8)
      if random.chance(0.3) {
        // A random byte changed, for values spelled almost as those above.
        let at = random.int(0...(text.count - 1))
        text[at] =
          random.chance(0.5) ? UInt8(random.int(0...255)) : random.pick(Array(#"",}] \"#.utf8))
      }
      let bytes =
        text + Array(random.pick(followers).utf8)
        + Array(repeating: 0x20, count: random.int(0...20))
      let found: (ShortSpelling, Int)? = bytes.withUnsafeBufferPointer { buffer in
        JSONScanner(buffer, from: 0, to: buffer.count).shortSpelling().map { ($0.spelling, $0.end) }
      }
      guard let (spelling, end) = found else {
        // Nothing found: the value is long, a container, or within 16 bytes of the end.
        continue
      }
      let spelled = Array(bytes[0..<end])
      #expect(spelled.withUnsafeBytes { ShortSpelling($0) } == spelling, "\(bytes)")
      // If the spelling alone is a whole value, it is the value a full scan finds here: a memo,
      // which holds only whole values' spellings, gives no code for anything else.
      if Self.scannedEnd(spelled + [0x20]) == spelled.count {
        #expect(Self.scannedEnd(bytes) == end, "\(String(decoding: bytes, as: UTF8.self))")
      }
    }
    // Each short value, followed by what may follow a value, is found whole (a string of
    // at most 16 bytes with its quotes; anything else of at most 15, its end within 16).
    for value in values where value.utf8.count <= (value.hasPrefix("\"") ? 16 : 15) {
      for follower in [",", "}", "]", " ", "\n"] {
        let bytes = Array((value + follower + String(repeating: " ", count: 16)).utf8)
        guard Self.scannedEnd(bytes) == value.utf8.count, !value.hasPrefix("{"),
          !value.hasPrefix("["),
          !value.contains("\\")
        else { continue }
        let end = bytes.withUnsafeBufferPointer {
          JSONScanner($0, from: 0, to: $0.count).shortSpelling()?.end
        }
        #expect(end == value.utf8.count, "\(value)\(follower)")
      }
    }
  }
}

extension JSONScannerTests {
  /// A random JSON value, objects and lists nested up to `depth`, strings with escaped quotes
  /// and brackets in them.
  static func randomValue(_ random: inout SplitMix64, depth: Int) -> String {
    switch random.int(0...(depth > 0 ? 6 : 3)) {
    case 0: return #""a]b}""#
    case 1: return #""x\"]\\""#
    case 2: return String(random.int(-50...50))
    case 3: return random.pick(["true", "null", #""""#, #""{[""#])
    case 4, 5:
      let items = (0..<random.int(0...3)).map { _ in randomValue(&random, depth: depth - 1) }
      return "[" + items.joined(separator: random.chance(0.5) ? "," : ", ") + "]"
    default:
      let members = (0..<random.int(0...3)).map { index in
        #""k\#(index)": "# + randomValue(&random, depth: depth - 1)
      }
      return "{" + members.joined(separator: ",") + "}"
    }
  }

  /// A string of 0 to 40 bytes with quotes and backslashes escaped, brackets, commas, and
  /// sometimes a bare line end: words of eight bytes with any of them at any place.
  static func longString(_ random: inout SplitMix64) -> String {
    let pieces = [#"""#, #"\"#, "[", "]", "{", "}", ",", ":", "a", "bcdefgh", " ", "é", "\n"]
    var text = ""
    while text.utf8.count < random.int(0...40) { text += random.pick(pieces) }
    if random.chance(0.02) { text += "\n" }
    return "\"" + text + "\""
  }

  @Test func anObjectOrListFoundByItsBracketsIsTheValueAFullScanFinds() {
    var random = SplitMix64(seed: 31)
    for round in 0..<8_000 {
      var text = Array(Self.randomValue(&random, depth: 4).utf8)
      if round >= 5_000 {
        // Long strings among brackets, from one to the most bytes a spelling may have.
        let items = (0..<random.int(1...6)).map { _ in
          random.chance(0.7) ? Self.longString(&random) : Self.randomValue(&random, depth: 2)
        }
        var value =
          random.chance(0.5)
          ? "[" + items.joined(separator: ",") + "]"
          : "{"
            + items.enumerated().map { #""k\#($0.offset)": \#($0.element)"# }.joined(
              separator: ", ")
            + "}"
        if random.chance(0.05) {
          value = "[" + String(repeating: #""aaaaaaa","#, count: 520) + "1]"
        }
        text = Array(value.utf8)
      }
      guard text.first == 0x5B || text.first == 0x7B else { continue }
      if random.chance(0.3) {
        // A byte changed: brackets that do not match, a string not closed, a line end.
        text[random.int(0...(text.count - 1))] = random.pick(Array(#"]}[{"\,:x"#.utf8) + [0x0A])
      }
      let bytes = text + Array(random.pick([",", "}", "]", " ", "", "\n"]).utf8)
      let found = bytes.withUnsafeBufferPointer {
        JSONScanner($0, from: 0, to: $0.count).containerEnd()
      }
      let scanned = Self.scannedEnd(bytes)
      if let scanned, bytes[0] == 0x5B || bytes[0] == 0x7B, !bytes[0..<scanned].contains(0x0A) {
        // A valid value on one line: found where a full scan ends (if it is not too long).
        #expect(
          found == (scanned <= JSONScanner.containerSpellingLimit ? scanned : nil),
          "\(bytes) \(String(decoding: bytes, as: UTF8.self))")
      }
      guard let found else { continue }
      let spelled = Array(bytes[0..<found])
      #expect(!spelled.contains(0x0A))
      // What is found is a whole value only where a full scan finds that value.
      if Self.scannedEnd(spelled + [0x20]) == spelled.count {
        #expect(scanned == found, "\(String(decoding: bytes, as: UTF8.self))")
      }
    }
  }
}
