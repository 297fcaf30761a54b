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
  /// Spellings by hash: 1 + their index in ``spellings``.
  private var slots = MemoSlots()
  /// Each spelling: where its bytes are in ``bytes``, how many, and its code.
  private var spellings: [(start: Int, count: Int, code: UInt32)] = []
  private var bytes: [UInt8] = []
  /// The most spellings, and bytes of them, the memo holds.
  static let capacity = 1 << 15
  static let byteCapacity = 1 << 20

  /// The code of the value spelled `spelling`, if the memo holds it.
  func code(of spelling: UnsafeRawBufferPointer) -> UInt32? {
    let found = slots.find(CodeMemo.hash(spelling)) { index in
      let held = spellings[Int(index) - 1]
      return held.count == spelling.count && same(held.start, spelling)
    }
    return found.map { spellings[Int($0) - 1].code }
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
    spellings.append((bytes.count, spelling.count, code))
    bytes.append(contentsOf: spelling)
    slots.insert(UInt32(spellings.count), hash: CodeMemo.hash(spelling))
  }

  /// Forgets every spelling.
  mutating func removeAll() {
    (slots, spellings, bytes) = (MemoSlots(), [], [])
  }
}
