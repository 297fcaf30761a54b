import TestSupport
import Testing

@testable import FilterDSL

/// The index of short spellings finds the number of each spelling held, through every growth,
/// and nothing else: not a spelling that differs in a byte or only in its length.
@Suite struct ShortSpellingIndexTests {
  func words(_ bytes: [UInt8]) -> ShortSpelling { bytes.withUnsafeBytes { ShortSpelling($0) } }

  @Test func findsWhatItHoldsAndNothingElse() {
    var index = ShortSpellingIndex()
    var held: [[UInt8]: UInt32] = [:]
    var random = SplitMix64(seed: 31)
    #expect(index.find(words([])) == nil)
    for number in UInt32(1)...3_000 {
      // Many alike in their first eight bytes (one word), or in all but their length.
      let length = random.int(0...16)
      let spelling = (0..<length).map { at in UInt8(at < 8 ? at % 2 : random.int(0...3)) }
      index.insert(words(spelling), number)
      if held[spelling] == nil { held[spelling] = number }
      // (Checked as it grows: each doubling places every entry again.)
      if number.nonzeroBitCount == 1 {
        #expect(held.allSatisfy { index.find(words($0.key)) == $0.value })
      }
    }
    #expect(index.count == held.count)
    #expect(held.allSatisfy { index.find(words($0.key)) == $0.value })
    // Zeros are bytes: a spelling one zero longer is another one.
    for spelling in held.keys where spelling.count < 16 && held[spelling + [0]] == nil {
      #expect(index.find(words(spelling + [0])) == nil)
    }
    // Number 0 marks an empty slot: never held.
    var other = ShortSpellingIndex()
    other.insert(words([1, 2]), 0)
    #expect(other.find(words([1, 2])) == nil && other.count == 0)
  }
}
