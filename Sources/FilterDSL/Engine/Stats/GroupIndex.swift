/// The groups of a `stats` or of facets met so far, numbered in the order they came, each
/// found by its keys' values (``width`` of them) with one cheap hash: a group by a million
/// distinct texts found its rows through Swift's `Dictionary`, whose SipHash and growth took
/// three times as long.
///
/// Equal keys always hash alike (``ValueHash/of(_:)-(Value)``), so a group is never made
/// twice; values never equal to themselves (NaN) make a group each time, as in a
/// `Dictionary`.
struct GroupIndex: Sendable {
  /// How many values a key has.
  let width: Int
  /// The groups' keys, a group's ``width`` values after another's.
  private(set) var keys: [Value] = []
  /// The number of groups.
  private(set) var count = 0
  /// 1 + the group of each key held here, by its hash.
  private var slots = MemoSlots()
  /// Each group's hash (compared before its values).
  private var hashes: [UInt64] = []
  /// The most groups the slots number (a slot holds 32 bits); later groups are found
  /// through ``spill``.
  private let capacity: Int
  private var spill: [[Value]: Int] = [:]

  /// No group yet, of keys of `width` values; `capacity` is for tests of the groups past it.
  init(width: Int, capacity: Int = Int(UInt32.max) - 1) {
    self.width = width
    self.capacity = Swift.min(capacity, Int(UInt32.max) - 1)
  }

  /// The values of the key of group `group`.
  func key(of group: Int) -> ArraySlice<Value> { keys[group * width..<(group + 1) * width] }

  /// The first value of the key of group `group` (the key, when it has one value).
  func first(of group: Int) -> Value { width > 0 ? keys[group * width] : .null }

  /// The group whose key is `key` (``width`` values), made (numbered ``count``) when new.
  mutating func group(_ key: [Value]) -> Int {
    var hash: UInt64 = 0x2D35_8DCC_AA6C_78A5
    for value in key { hash = ValueHash.mix(hash ^ ValueHash.of(value)) &+ 0x9E37_79B9_7F4A_7C15 }
    let found = slots.find(hash) { slot in
      let group = Int(slot) - 1
      return hashes[group] == hash && keys[group * width..<(group + 1) * width].elementsEqual(key)
    }
    if let found { return Int(found) - 1 }
    if count >= capacity, let group = spill[key] { return group }
    let group = count
    if group < capacity {
      slots.insert(UInt32(truncatingIfNeeded: group + 1), hash: hash)
    } else {
      spill[key] = group
    }
    hashes.append(hash)
    keys.append(contentsOf: key)
    count += 1
    return group
  }
}
