import TestSupport
import Testing

@testable import FilterDSL

/// A coded column's memo of spellings gives a code only for the very bytes noted with it,
/// forgets them all when told, and stops noting (never answering wrongly) once full.
@Suite struct SpellingMemoTests {
  func code(_ memo: SpellingMemo, _ spelling: [UInt8]) -> UInt32? {
    spelling.withUnsafeBytes { memo.code(of: .bytes($0)) }
  }

  func note(_ memo: inout SpellingMemo, _ spelling: [UInt8], _ code: UInt32) {
    spelling.withUnsafeBytes { memo.note($0, code: code) }
  }

  @Test func onlyTheBytesNotedFindTheirCode() {
    var memo = SpellingMemo()
    var random = SplitMix64(seed: 5)
    var noted: [[UInt8]: UInt32] = [:]
    // Spellings of every length up to 40 bytes (words compared eight at a time, and the rest
    // one by one), many alike but for one byte.
    for code in UInt32(1)...5_000 {
      var spelling = (0..<random.int(0...40)).map { _ in UInt8(random.int(32...126)) }
      if let last = noted.keys.randomElement(using: &random), random.chance(0.3) {
        spelling = last
        if !spelling.isEmpty { spelling[random.int(0...(spelling.count - 1))] ^= 1 }
      }
      guard noted[spelling] == nil else { continue }
      noted[spelling] = code
      note(&memo, spelling, code)
    }
    for (spelling, code) in noted {
      #expect(self.code(memo, spelling) == code)
      // A short spelling handed over as its words finds the same code.
      if spelling.count <= 16 {
        let words = spelling.withUnsafeBytes { ShortSpelling($0) }
        #expect(memo.code(of: .short(words)) == code)
      }
    }
    #expect(code(memo, Array("never noted, and longer than any noted spelling".utf8)) == nil)
    // A spelling noted again keeps its first code; a prefix is another spelling.
    let (first, firstCode) = (Array("\"Space Black\"".utf8), UInt32(9_999))
    note(&memo, first, firstCode)
    note(&memo, first, 1)
    #expect(code(memo, first) == firstCode)
    #expect(code(memo, Array(first.dropLast())) == nil)
    memo.removeAll()
    #expect(code(memo, first) == nil)
    #expect(noted.keys.allSatisfy { code(memo, $0) == nil })
  }

  @Test func aFullMemoNotesNoMore() {
    var memo = SpellingMemo()
    // Past the most spellings.
    for code in 1...(SpellingMemo.capacity + 100) {
      note(&memo, Array("s\(code)".utf8), UInt32(code))
    }
    #expect(code(memo, Array("s1".utf8)) == 1)
    #expect(code(memo, Array("s\(SpellingMemo.capacity)".utf8)) == UInt32(SpellingMemo.capacity))
    #expect(code(memo, Array("s\(SpellingMemo.capacity + 1)".utf8)) == nil)
    // Past the most bytes.
    var long = SpellingMemo()
    let size = SpellingMemo.byteCapacity / 4
    for code in 1...6 { note(&long, [UInt8](repeating: UInt8(code), count: size), UInt32(code)) }
    #expect(code(long, [UInt8](repeating: 4, count: size)) == 4)
    #expect(code(long, [UInt8](repeating: 5, count: size)) == nil)
  }
}
