/// A coded column's codes by the bytes its values were spelled with in a file: a reader that
/// finds a value spelled as one before takes its code without decoding it (`"Space Black"`,
/// `[\"5G\", \"eSIM\"]`, `{"megapixels": 48}` are scanned, not made into values).
///
/// The reader decodes every spelling the same way while its schema stays the same, so a
/// spelling names one value; it says when that changes (``ColumnBuilder/forgetSpellings()``).
/// A spelling is found only by its bytes, compared in full, so the memo cannot give a wrong
/// code; equal values spelled apart (`"\u00e9"` and `"é"`) are remembered apart. It holds
/// at most ``capacity`` spellings and ``byteCapacity`` bytes of them: a column of more
/// distinct values than that (names, ids) decodes the rest, as without it.
struct SpellingMemo: Sendable {
  /// Each slot: the hash's high 32 bits, then 1 + the index of the spelling (0: empty).
  private var slots: [UInt64] = []
  /// Each spelling: where its bytes are in ``bytes``, how many, and its code.
  private var spellings: [(start: Int, count: Int, code: UInt32)] = []
  private var bytes: [UInt8] = []
  /// The most spellings, and bytes of them, the memo holds.
  static let capacity = 1 << 15
  static let byteCapacity = 1 << 20

  /// The code of the value spelled `spelling`, if the memo holds it.
  func code(of spelling: UnsafeRawBufferPointer) -> UInt32? {
    guard !slots.isEmpty else { return nil }
    let hash = CodeMemo.hash(spelling)
    let mask = slots.count - 1
    let tag = hash >> 32
    var index = Int(truncatingIfNeeded: tag) & mask
    while true {
      let slot = slots[index]
      if slot == 0 { return nil }
      if slot >> 32 == tag {
        let found = spellings[Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1]
        if found.count == spelling.count && same(found.start, spelling) { return found.code }
      }
      index = (index + 1) & mask
    }
  }

  /// Whether `bytes[start...]` begins with `spelling`'s bytes.
  private func same(_ start: Int, _ spelling: UnsafeRawBufferPointer) -> Bool {
    bytes.withUnsafeBytes { held in
      guard start >= 0, start + spelling.count <= held.count else { return false }
      let count = spelling.count
      var offset = 0
      // (Eight bytes at a time: the generic comparison of two collections is slow.)
      while offset + 8 <= count {
        let a = held.loadUnaligned(fromByteOffset: start + offset, as: UInt64.self)
        guard a == spelling.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else {
          return false
        }
        offset += 8
      }
      while offset < count {
        guard held[start + offset] == spelling[offset] else { return false }
        offset += 1
      }
      return true
    }
  }

  /// Notes that `spelling` spells the value whose code is `code` (unless the memo is full).
  mutating func note(_ spelling: UnsafeRawBufferPointer, code: UInt32) {
    guard spellings.count < Self.capacity, bytes.count + spelling.count <= Self.byteCapacity,
      self.code(of: spelling) == nil
    else { return }
    if 2 * (spellings.count + 1) > slots.count { grow() }
    spellings.append((bytes.count, spelling.count, code))
    bytes.append(contentsOf: spelling)
    insert((CodeMemo.hash(spelling) >> 32) << 32 | UInt64(spellings.count))
  }

  /// Forgets every spelling.
  mutating func removeAll() {
    (slots, spellings, bytes) = ([], [], [])
  }

  private mutating func insert(_ slot: UInt64) {
    let mask = slots.count - 1
    var index = Int(truncatingIfNeeded: slot >> 32) & mask
    while slots[index] != 0 { index = (index + 1) & mask }
    slots[index] = slot
  }

  private mutating func grow() {
    let old = slots
    slots = [UInt64](repeating: 0, count: Swift.max(16, old.count * 2))
    for slot in old where slot != 0 { insert(slot) }
  }
}
