/// Numbers by short spellings (``ShortSpelling``, at most 16 bytes): an open-addressing table
/// that finds one by a hash of its two words and a comparison, with no bytes to look up
/// elsewhere. Holds nonzero numbers (a code, 1 + an index); readers look up every value they
/// meet in one (see ``SpellingMemo``), so it hashes with two multiplications, not `Hasher`.
package struct ShortSpellingIndex: Sendable {
  /// A spelling and its number (0: an empty slot).
  private struct Entry: Sendable {
    var spelling = ShortSpelling(low: 0, high: 0, length: 0)
    var number: UInt32 = 0
  }

  private var entries: [Entry] = []
  /// How many spellings are held.
  package private(set) var count = 0

  package init() {}

  /// The number of `spelling`, if the index holds it.
  @inline(__always)
  package func find(_ spelling: ShortSpelling) -> UInt32? {
    guard !entries.isEmpty else { return nil }
    return entries.withUnsafeBufferPointer { entries in
      let mask = entries.count - 1
      var index = Self.slot(spelling) & mask
      while true {
        let entry = entries[index]
        if entry.number == 0 { return nil }
        if entry.spelling == spelling { return entry.number }
        index = (index + 1) & mask
      }
    }
  }

  /// Holds `spelling` with `number` (nonzero), unless it holds it already.
  package mutating func insert(_ spelling: ShortSpelling, _ number: UInt32) {
    guard number != 0, find(spelling) == nil else { return }
    if 2 * (count + 1) > entries.count { grow() }
    place(Entry(spelling: spelling, number: number))
    count += 1
  }

  /// Where a lookup of `spelling` starts.
  @inline(__always)
  private static func slot(_ spelling: ShortSpelling) -> Int {
    let mixed =
      (spelling.low &* 0x9E37_79B9_7F4A_7C15) ^ (spelling.high &* 0xC2B2_AE3D_27D4_EB4F)
      ^ UInt64(spelling.length)
    return Int(truncatingIfNeeded: (mixed ^ (mixed >> 29)) &* 0xBF58_476D_1CE4_E5B9 >> 32)
  }

  /// Places an entry in the first empty slot from where its lookup starts.
  private mutating func place(_ entry: Entry) {
    let mask = entries.count - 1
    var index = Self.slot(entry.spelling) & mask
    while entries[index].number != 0 { index = (index + 1) & mask }
    entries[index] = entry
  }

  /// Twice the slots (at least 16), the entries placed again.
  private mutating func grow() {
    let old = entries
    entries = [Entry](repeating: Entry(), count: Swift.max(16, old.count * 2))
    for entry in old where entry.number != 0 { place(entry) }
  }
}
