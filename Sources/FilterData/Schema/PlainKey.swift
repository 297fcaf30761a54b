/// A key written plainly in quotes (no escape, quote or control character in it): the bytes
/// between its quotes are its name, and no other name is written so. Readers look for a
/// record's key where the record before had it by comparing those bytes with the name's
/// (``RecordLayout``, and ``RecordTally`` for the sample).
enum PlainKey {
  /// `name`'s bytes as written plainly in quotes, or none for a name that cannot be.
  static func spelling(_ name: [UInt8]) -> [UInt8] {
    name.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } ? [] : name
  }

  /// Where the closing quote is, when the key whose opening quote is at `quote` in `bytes`
  /// (which end at `end`) is the name of `count` bytes at `name` written plainly; nil
  /// otherwise, and within eight bytes of the buffer's end. `name` must be readable eight
  /// bytes past its end (padded with zeros): the bytes are compared eight at a time, the
  /// last word masked.
  @inline(__always)
  static func close(
    of name: UnsafeRawPointer, count: Int, in bytes: UnsafeBufferPointer<UInt8>, at quote: Int,
    end: Int
  ) -> Int? {
    let close = quote + 1 + count
    guard count > 0, quote >= 0, close < end, close + 8 <= bytes.count, bytes[close] == 0x22,
      let base = bytes.baseAddress
    else { return nil }
    // The key's last word takes its closing quote and what follows: masked off.
    let key = UnsafeRawPointer(base + quote + 1)
    var index = 0
    while index + 8 <= count {
      guard
        key.loadUnaligned(fromByteOffset: index, as: UInt64.self)
          == name.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      else { return nil }
      index &+= 8
    }
    if index < count {
      let mask = (1 << UInt64(8 &* (count &- index))) &- 1 as UInt64
      let differ =
        key.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        ^ name.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      guard differ & UInt64(littleEndian: mask) == 0 else { return nil }
    }
    return close
  }
}
