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
  /// Spellings of at most 16 bytes (most: `"Space Black"`, `1024`, `"2022-09-26"`), with
  /// their codes: found by one hash of two words and two comparisons, with no bytes to look
  /// up elsewhere. (A quarter of a load's time went to finding spellings.)
  private var short = ShortSpellingIndex()
  /// Longer spellings by hash: 1 + their index in ``spellings``.
  private var slots = MemoSlots()
  /// Each longer spelling: where its bytes are in ``bytes``, how many, and its code.
  private var spellings: [(start: Int, count: Int, code: UInt32)] = []
  private var bytes: [UInt8] = []
  /// How many spellings are held.
  private var count: Int { short.count + spellings.count }
  /// The most spellings, and bytes of them, the memo holds.
  static let capacity = 1 << 15
  static let byteCapacity = 1 << 20

  /// The code of the value spelled `spelling`, if the memo holds it.
  @inline(__always)
  func code(of spelling: Spelling) -> UInt32? {
    switch spelling {
    case .short(let short): return code(of: short)
    case .bytes(let bytes):
      if bytes.count <= 16 { return code(of: ShortSpelling(bytes)) }
      let found = slots.find(ValueHash.of(bytes)) { index in
        let held = spellings[Int(index) - 1]
        return held.count == bytes.count && same(held.start, bytes)
      }
      return found.map { spellings[Int($0) - 1].code }
    }
  }

  @inline(__always)
  private func code(of spelling: ShortSpelling) -> UInt32? { short.find(spelling) }

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
    guard code != 0, count < Self.capacity, self.code(of: .bytes(spelling)) == nil else { return }
    if spelling.count <= 16 {
      short.insert(ShortSpelling(spelling), code)
      return
    }
    guard bytes.count + spelling.count <= Self.byteCapacity else { return }
    spellings.append((bytes.count, spelling.count, code))
    bytes.append(contentsOf: spelling)
    slots.insert(UInt32(spellings.count), hash: ValueHash.of(spelling))
  }

  /// Forgets every spelling.
  mutating func removeAll() {
    (short, slots, spellings, bytes) = (ShortSpellingIndex(), MemoSlots(), [], [])
  }
}

/// A value's spelling as a reader hands it to a coded column (see ``SpellingMemo``): its
/// bytes, or, for at most 16 of them, the words ``ShortSpelling`` reads them into (a reader
/// that has them in registers already, from finding where the value ends).
package enum Spelling {
  case bytes(UnsafeRawBufferPointer)
  case short(ShortSpelling)
}

/// A spelling of at most 16 bytes as two little-endian words, zero-padded, and its length.
package struct ShortSpelling: Sendable, Hashable {
  package var low: UInt64
  package var high: UInt64
  package var length: UInt32

  package init(low: UInt64, high: UInt64, length: UInt32) {
    (self.low, self.high, self.length) = (low, high, length)
  }

  /// The words of `spelling` (at most 16 bytes; any more are not read).
  @inline(__always)
  package init(_ spelling: UnsafeRawBufferPointer) {
    let count = Swift.min(spelling.count, 16)
    length = UInt32(truncatingIfNeeded: count)
    if count >= 8 {
      low = spelling.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
      // The last eight bytes, shifted down past those the low word has.
      high =
        count > 8
        ? spelling.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
          >> UInt64(8 * (16 - count)) : 0
      return
    }
    var low: UInt64 = 0
    for index in 0..<count { low |= UInt64(spelling[index]) << UInt64(8 * index) }
    (self.low, high) = (low, 0)
  }
}
