/// The table behind a coded column's codes, ``GroupIndex`` and ``SpellingMemo``: open addressing over slots that each
/// hold a hash's high 32 bits and a payload of 32 bits (never 0: 0 is an empty slot). A lookup
/// starts at the slot the hash's high bits name and walks on to an empty one; the memos confirm
/// each candidate payload themselves, so a colliding hash cannot give a wrong answer.
struct MemoSlots: Sendable {
  private var slots: [UInt64] = []
  /// How many payloads are held.
  private(set) var count = 0

  /// The first payload stored under `hash` that `matches` accepts, if any.
  @inline(__always)
  func find(_ hash: UInt64, _ matches: (UInt32) -> Bool) -> UInt32? {
    guard !slots.isEmpty else { return nil }
    let mask = slots.count - 1
    let tag = hash >> 32
    var index = Int(truncatingIfNeeded: tag) & mask
    while true {
      let slot = slots[index]
      if slot == 0 { return nil }
      if slot >> 32 == tag {
        let payload = UInt32(truncatingIfNeeded: slot)
        if matches(payload) { return payload }
      }
      index = (index + 1) & mask
    }
  }

  /// Stores `payload` (not 0) under `hash`.
  mutating func insert(_ payload: UInt32, hash: UInt64) {
    guard payload != 0 else { return }
    if 2 * (count + 1) > slots.count { grow() }
    place((hash >> 32) << 32 | UInt64(payload))
    count += 1
  }

  /// Empties the table.
  mutating func removeAll() {
    (slots, count) = ([], 0)
  }

  /// Places `slot` where a lookup of its hash starts, or past it.
  private mutating func place(_ slot: UInt64) {
    let mask = slots.count - 1
    var index = Int(truncatingIfNeeded: slot >> 32) & mask
    while slots[index] != 0 { index = (index + 1) & mask }
    slots[index] = slot
  }

  /// Twice the slots; the old ones placed again. (A lookup starts at the high half of the
  /// hash, which the slot keeps, so that slots can be placed again.)
  private mutating func grow() {
    let old = slots
    slots = [UInt64](repeating: 0, count: Swift.max(16, old.count * 2))
    for slot in old where slot != 0 { place(slot) }
  }
}
