/// A memo of a coded column's codes, found by a cheap hash of the values' bits and bytes, in
/// front of the column's dictionary keyed by `Value` (whose hash, SipHash through `Hasher`,
/// was a fifth of building the columns of a load).
///
/// The memo only ever answers with a code whose value is equal (`==`) to the one looked up, so
/// it cannot give a wrong code: two texts that are equal but spelled with other bytes (`é` as
/// one code point or two) hash apart here and are found through the dictionary, as before. It
/// holds at most ``capacity`` codes: a column of more distinct values than that (names, ids)
/// goes to the dictionary for the rest, and the memo stays small.
struct CodeMemo: Sendable {
  /// Codes by hash (code 0 is null, and is never noted).
  private var slots = MemoSlots()
  /// The most codes the memo holds.
  static let capacity = 1 << 15

  /// The code of `value`, whose hash is `hash`, if the memo holds it: `values` are the
  /// column's distinct values by code.
  func code(of value: Value, hash: UInt64, in values: [Value]) -> UInt32? {
    slots.find(hash) { code in Int(code) < values.count && values[Int(code)] == value }
  }

  /// Notes that the value whose hash is `hash` has code `code` (unless the memo is full).
  mutating func note(hash: UInt64, code: UInt32) {
    guard slots.count < Self.capacity else { return }
    slots.insert(code, hash: hash)
  }

  /// The hash of `value`: of its bits, its text's bytes, its elements' hashes. Values equal
  /// but of other bits (`0.0` and `-0.0`, texts spelled with other code points) may hash
  /// apart: they are then found through the dictionary.
  static func hash(_ value: Value) -> UInt64? {
    switch value {
    case .null: return 0x51AF_D7ED_558C_CD1F
    case .bool(let b): return mix(b ? 0x2545_F491_4F6C_DD1D : 0x1B87_3593_2A6D_5C3B)
    case .int(let i): return mix(UInt64(bitPattern: i) ^ 0x9E37_79B9_7F4A_7C15)
    case .double(let d): return mix(d.bitPattern ^ 0xC2B2_AE3D_27D4_EB4F)
    case .decimal(let d):
      let (significand, scale) = d.normalized
      return mix(
        UInt64(truncatingIfNeeded: significand) ^ UInt64(truncatingIfNeeded: significand >> 64)
          &* 0x2127_599B_F432_5C37 ^ UInt64(scale))
    case .date(let d): return mix(UInt64(bitPattern: d.daysSinceEpoch) ^ 0x1656_67B1_9E37_79F9)
    case .dateTime(let t):
      return mix(
        UInt64(bitPattern: t.seconds) &* 0x27D4_EB2F_1656_67C5
          ^ UInt64(UInt32(bitPattern: t.nanoseconds)))
    case .duration(let span):
      return mix(UInt64(bitPattern: span.nanoseconds) ^ 0x85EB_CA77_C2B2_AE63)
    case .string(let text):
      return text.utf8.withContiguousStorageIfAvailable { bytes in
        hash(UnsafeRawBufferPointer(bytes))
      }
    case .list(let values), .record(let values):
      var h: UInt64 = if case .list = value { 0x94D0_49BB_1331_11EB } else { 0xBF58_476D_1CE4_E5B9 }
      for element in values {
        guard let e = hash(element) else { return nil }
        h = mix(h ^ e) &+ 0x9E37_79B9_7F4A_7C15
      }
      return mix(h ^ UInt64(truncatingIfNeeded: values.count))
    }
  }

  /// A hash of `bytes`, eight at a time.
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
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
