import Foundation
import TestSupport
import Testing

@testable import FilterData

/// The pieces under the Parquet reader, each against the format's own rules: snappy against
/// what pyarrow's snappy writes, the RLE / bit-packed hybrid against the specification's
/// examples, Thrift's compact protocol against hand-written bytes, and all of them against
/// hostile bytes (an error, never a trap).
@Suite struct ParquetEncodingTests {
  static let snappy = DataFiles.root.appendingPathComponent("Tests/Fixtures/snappy").path

  static func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  static func decompress(_ bytes: [UInt8], expected: Int? = nil) throws(Snappy.Failure) -> [UInt8] {
    let result: Result<[UInt8], Snappy.Failure> = bytes.withUnsafeBytes { raw in
      Result { () throws(Snappy.Failure) in try Snappy.decompress(raw, expected: expected) }
    }
    return try result.get()
  }

  @Test(arguments: ["empty", "short", "text", "runs", "bytes"])
  func snappyReadsWhatPyarrowWrote(name: String) throws {
    let raw = try Self.bytes("\(Self.snappy)/\(name).raw")
    let compressed = try Self.bytes("\(Self.snappy)/\(name).snappy")
    #expect(try Self.decompress(compressed) == raw)
    #expect(try Self.decompress(compressed, expected: raw.count) == raw)
    #expect(throws: Snappy.Failure.self) {
      try Self.decompress(compressed, expected: raw.count + 1)
    }
    // Cut anywhere, or a byte changed: an error or other bytes, never a trap.
    for length in stride(from: 0, to: compressed.count, by: Swift.max(1, compressed.count / 40)) {
      #expect(throws: Snappy.Failure.self) { try Self.decompress(Array(compressed.prefix(length))) }
    }
    for offset in stride(from: 0, to: compressed.count, by: Swift.max(1, compressed.count / 60)) {
      var bytes = compressed
      bytes[offset] ^= 0x5A
      _ = try? Self.decompress(bytes)
    }
  }

  @Test func snappyRefusesCopiesOutsideTheOutput() throws {
    // Length 4, then a copy of 4 from 1 byte back with nothing written yet.
    #expect(throws: Snappy.Failure.self) { try Self.decompress([4, 0b0000_0001, 1]) }
    // A literal longer than the data.
    #expect(throws: Snappy.Failure.self) { try Self.decompress([10, 9 << 2, 1, 2]) }
    // A length far beyond what the data could hold.
    #expect(throws: Snappy.Failure.self) { try Self.decompress([0xFF, 0xFF, 0xFF, 0x7F, 0]) }
    // "abab" as a literal "ab" and a copy of 2 from 2 back.
    #expect(
      try Self.decompress([4, 1 << 2, 97, 98, 0b0000_0010 | (1 << 2), 2, 0]) == Array("abab".utf8))
  }

  static func hybrid(_ bytes: [UInt8], width: Int, count: Int) throws(ParquetError) -> [UInt32] {
    let result: Result<[UInt32], ParquetError> = bytes.withUnsafeBytes { raw in
      Result { () throws(ParquetError) in try RLEHybrid.decode(raw, bitWidth: width, count: count) }
    }
    return try result.get()
  }

  @Test func theHybridReadsTheSpecificationsExamples() throws {
    // Bit-packed, width 3: 0 to 7 are 10001000 11000110 11111010 (the format's example).
    #expect(try Self.hybrid([0x03, 0x88, 0xC6, 0xFA], width: 3, count: 8) == Array(0...7))
    // A run of five 7s, then a group: 1 0 1 0 1 0 1 0 at width 1.
    #expect(try Self.hybrid([0x0A, 0x07, 0x03, 0x55], width: 3, count: 5) == [7, 7, 7, 7, 7])
    #expect(
      try Self.hybrid([0x0A, 0x07, 0x03, 0x55], width: 1, count: 13).suffix(8) == [
        1, 0, 1, 0, 1, 0, 1, 0,
      ])
    // Width 0: every value is 0, a run with no value bytes.
    #expect(try Self.hybrid([0x08], width: 0, count: 4) == [0, 0, 0, 0])
    // A run longer than asked for gives what is asked for.
    #expect(
      try Self.hybrid([0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0x01], width: 1, count: 3) == [1, 1, 1])
    // Width 32.
    #expect(try Self.hybrid([0x02, 0xFF, 0xFF, 0xFF, 0xFF], width: 32, count: 1) == [UInt32.max])
    #expect(throws: ParquetError.self) { try Self.hybrid([0x03, 0x88], width: 3, count: 8) }
    #expect(throws: ParquetError.self) { try Self.hybrid([], width: 1, count: 1) }
    #expect(throws: ParquetError.self) { try Self.hybrid([0x02, 1], width: 33, count: 1) }
  }

  /// Values encoded as the writer encodes them (runs and bit-packed groups), read back in
  /// parts of random sizes: the same values as read at once, whatever the width.
  @Test(arguments: [0, 1, 3, 8, 17, 32])
  func theHybridReadsInParts(width: Int) throws {
    var rng = SplitMix64(seed: UInt64(width))
    let largest: UInt64 = width == 32 ? UInt64(UInt32.max) : (1 << UInt64(width)) - 1
    var values: [UInt32] = []
    while values.count < 5000 {
      let value = UInt32(truncatingIfNeeded: UInt64.random(in: 0...largest, using: &rng))
      values += repeatElement(value, count: rng.chance(0.3) ? rng.int(1...300) : 1)
    }
    let bytes = RLEHybrid.encode(values, bitWidth: width)
    #expect(try Self.hybrid(bytes, width: width, count: values.count) == values)
    var parts: [UInt32] = []
    let result: Result<Void, ParquetError> = bytes.withUnsafeBytes { raw in
      Result { () throws(ParquetError) in
        var reader = try RLEHybridReader(raw, bitWidth: width)
        while parts.count < values.count {
          try reader.read(Swift.min(rng.int(0...700), values.count - parts.count), into: &parts)
        }
      }
    }
    try result.get()
    #expect(parts == values)
  }

  static func thrift<T>(
    _ bytes: [UInt8], _ body: (inout ThriftReader) throws(ThriftReader.ThriftError) -> T
  ) throws(ThriftReader.ThriftError) -> T {
    let result: Result<T, ThriftReader.ThriftError> = bytes.withUnsafeBytes { raw in
      var reader = ThriftReader(raw)
      return Result { () throws(ThriftReader.ThriftError) in try body(&reader) }
    }
    return try result.get()
  }

  @Test func thriftReadsTheCompactProtocol() throws {
    // A struct: field 1 i32 = -3 (zigzag 5), field 4 binary "ab", field 5 true, then a long
    // jump to field 20 (a whole id) i64 = 300; then the stop.
    let bytes: [UInt8] = [0x15, 0x05, 0x38, 0x02, 97, 98, 0x11, 0x06, 0x28, 0xD8, 0x04, 0x00]
    var seen: [String] = []
    try Self.thrift(bytes) { (reader) throws(ThriftReader.ThriftError) in
      try reader.structure { (r, id, type) throws(ThriftReader.ThriftError) in
        switch id {
        case 1: seen.append("1=\(try r.int32())")
        case 4: seen.append("4=\(try r.string())")
        case 5: seen.append("5=\(type == .boolTrue)")
        case 20: seen.append("20=\(try r.int())")
        default: seen.append("?\(id)")
        }
      }
    }
    #expect(seen == ["1=-3", "4=ab", "5=true", "20=300"])
  }

  @Test func thriftRefusesHostileBytes() {
    // Structs nested past the limit, through a skipped field each.
    let deep = [UInt8](repeating: 0x1C, count: 10_000)
    #expect(throws: ThriftReader.ThriftError.self) {
      try Self.thrift(deep) { (r) throws(ThriftReader.ThriftError) in try r.skip(.structure) }
    }
    // A list that claims more elements than there are bytes.
    #expect(throws: ThriftReader.ThriftError.self) {
      try Self.thrift([0xF5, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]) {
        (r) throws(ThriftReader.ThriftError) in
        try r.list { (r, _) throws(ThriftReader.ThriftError) in try r.int() }
      }
    }
    // A string longer than the bytes; a varint that never ends.
    #expect(throws: ThriftReader.ThriftError.self) {
      try Self.thrift([0x7F, 1, 2]) { (r) throws(ThriftReader.ThriftError) in try r.string() }
    }
    #expect(throws: ThriftReader.ThriftError.self) {
      try Self.thrift([UInt8](repeating: 0xFF, count: 20)) { (r) throws(ThriftReader.ThriftError) in
        try r.varint()
      }
    }
  }
}
