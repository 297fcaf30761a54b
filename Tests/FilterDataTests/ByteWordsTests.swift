import TestSupport
import Testing

@testable import FilterData

/// Each test on a word flags exactly the bytes a test of each byte would.
@Suite struct ByteWordsTests {
  @Test func wordTestsFlagExactlyTheBytesTheyTest() {
    var random = SplitMix64(seed: 23)
    let probes: [UInt8] = [
      0x00, 0x01, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x2C, 0x5C, 0x7D, 0x7F, 0x80, 0xA2, 0xFF,
    ]
    for _ in 0..<20_000 {
      let bytes = (0..<8).map { _ in
        random.chance(0.5) ? random.pick(probes) : UInt8(random.int(0...255))
      }
      let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
      func flags(_ test: (UInt8) -> Bool) -> UInt64 {
        bytes.indices.reduce(UInt64(0)) { test(bytes[$1]) ? $0 | (0x80 << UInt64(8 * $1)) : $0 }
      }
      for target in [UInt8(0x22), 0x2C, 0x5C, 0x7D, 0x00, 0x09, 0x0A] {
        #expect(ByteWords.equal(word, target) == flags { $0 == target }, "\(bytes) == \(target)")
      }
      #expect(ByteWords.zero(word) == flags { $0 == 0 }, "\(bytes) == 0")
      for limit in [UInt8(0x20), 0x21, 0x80] {
        #expect(ByteWords.below(word, limit) == flags { $0 < limit }, "\(bytes) < \(limit)")
      }
      for count in 0...8 {
        let kept = bytes.prefix(count) + Array(repeating: 0, count: 8 - count)
        let expected = kept.withUnsafeBytes {
          UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self))
        }
        #expect(ByteWords.prefix(word, count) == expected, "\(bytes) first \(count)")
      }
    }
  }
}
