extension RLEHybrid {
  /// `values`, each at most `bitWidth` (1-32) bits, in the hybrid: a run of eight or more of
  /// one value as a run, what lies between runs bit-packed in groups of eight (the last group
  /// padded; a reader stops at the count it knows).
  static func encode(_ values: [UInt32], bitWidth: Int) -> [UInt8] {
    var out: [UInt8] = []
    func varint(_ value: Int) { PackedBits.appendVarint(UInt64(value), to: &out) }
    func run(at start: Int) -> Int {
      var end = start
      while end < values.count && values[end] == values[start] { end += 1 }
      return end - start
    }
    let width = (bitWidth + 7) / 8
    var start = 0
    while start < values.count {
      let length = run(at: start)
      if length >= 8 {
        varint(length << 1)
        for index in 0..<width {
          out.append(UInt8(truncatingIfNeeded: values[start] >> (8 * index)))
        }
        start += length
        continue
      }
      // Groups of eight until a run of eight begins at a group's start, or the values end.
      var end = start + 8
      while end < values.count && run(at: end) < 8 { end += 8 }
      let groups = (Swift.min(end, values.count) - start + 7) / 8
      varint(groups << 1 | 1)
      var packed = [UInt8](repeating: 0, count: groups * bitWidth)
      for index in 0..<groups * 8 where start + index < values.count {
        let value = UInt64(values[start + index])
        let bit = index * bitWidth
        for offset in 0..<bitWidth where value >> UInt64(offset) & 1 == 1 {
          packed[(bit + offset) / 8] |= 1 << UInt8((bit + offset) % 8)
        }
      }
      out += packed
      start = Swift.min(end, values.count)
    }
    return out
  }
}
