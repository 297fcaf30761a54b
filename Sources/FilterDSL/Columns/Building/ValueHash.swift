/// Cheap hashes of values and bytes (SipHash through `Hasher`, and `Dictionary`'s growth, were
/// a fifth of building the columns of a load, and most of a `stats` by a million keys):
/// ``of(_:)-(Value)`` for tables of values (a coded column's codes, the groups of a `stats`,
/// ``GroupIndex``), ``of(_:)-(UnsafeRawBufferPointer)`` for bytes (a reader's spellings).
enum ValueHash {
  /// A hash of `value` that equal values (`==`) share, so that a table finds a value by it
  /// alone: an integer by its bits, a text of ASCII by its bytes, except texts with `K`, `;`
  /// or `` ` ``, which texts of other code points equal (the Kelvin sign, the Greek question
  /// mark and varia are the same characters), and every other value by Swift's own hash
  /// (`Hashable`, which agrees with `==`). Values never equal to themselves (NaN) are never
  /// found, as in a `Dictionary`. Lists and records combine their elements' hashes.
  static func of(_ value: Value) -> UInt64 {
    switch value {
    case .int(let i): return mix(UInt64(bitPattern: i) ^ 0x9E37_79B9_7F4A_7C15)
    case .string(var text):
      let bytes = text.withUTF8 { bytes -> UInt64? in
        for byte in bytes where byte >= 0x80 || byte == 0x4B || byte == 0x3B || byte == 0x60 {
          return nil
        }
        return of(UnsafeRawBufferPointer(bytes))
      }
      if let bytes { return bytes }
    case .list(let items): return of(items, seed: 0x6C69_7374)
    case .record(let items): return of(items, seed: 0x7265_636F)
    default: break
    }
    return UInt64(UInt(bitPattern: value.hashValue))
  }

  /// A hash of a list's or a record's `items`, from each one's (equal lists and records,
  /// element by element, share it): a record of two integers or a list of short texts is
  /// hashed without SipHash, which was a sixth of reading a Parquet file's nested columns.
  private static func of(_ items: [Value], seed: UInt64) -> UInt64 {
    var h = seed ^ UInt64(truncatingIfNeeded: items.count)
    for item in items { h = (h ^ of(item)) &* 0x9FB2_1C65_1E98_DF25 }
    return mix(h)
  }

  /// A hash of `bytes`, eight at a time.
  static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var h = UInt64(truncatingIfNeeded: bytes.count) &* 0xFF51_AFD7_ED55_8CCD
    var offset = 0
    while offset + 8 <= bytes.count {
      h =
        (h ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
      h ^= h >> 29
      offset += 8
    }
    var last: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.count {
      last |= UInt64(bytes[offset]) << shift
      shift += 8
      offset += 1
    }
    return mix(h ^ last)
  }

  /// Mixes the bits of `x` (the finalizer of MurmurHash3's 64-bit hash).
  static func mix(_ x: UInt64) -> UInt64 {
    var x = x
    x ^= x >> 33
    x = x &* 0xFF51_AFD7_ED55_8CCD
    x ^= x >> 33
    x = x &* 0xC4CE_B9FE_1A85_EC53
    x ^= x >> 33
    return x
  }
}
