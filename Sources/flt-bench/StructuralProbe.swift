import Foundation

/// What a structural pass (simdjson's first stage) would cost in Swift on this machine: the
/// bitmask of quotes and backslashes of every 64 bytes of a file, made three ways and checked
/// against each other (`flt-bench structural FILE`). Swift's `SIMD64<UInt8>` compares give a
/// vector of lane masks, with no instruction to gather them into bits; eight-byte words tested
/// in registers (SWAR) do without vector instructions.
enum StructuralProbe {
  static func run(path: String) {
    guard let data = FileManager.default.contents(atPath: path) else {
      print("cannot read \(path)")
      return
    }
    let bytes = [UInt8](data)
    print("flt-bench structural (release build): \(bytes.count) bytes of \(path)")
    bytes.withUnsafeBytes { buffer in
      var masks: [String: UInt64] = [:]
      func row(_ name: String, _ pass: (UnsafeRawBufferPointer) -> UInt64) {
        var result: UInt64 = 0
        let seconds = Timing.median(runs: 5) { result = pass(buffer) }
        masks[name] = result
        print(
          "  " + name.padding(toLength: 40, withPad: " ", startingAt: 0)
            + "\(Timing.format(seconds * 1e3)) ms".padding(
              toLength: 12, withPad: " ", startingAt: 0)
            + "\(Timing.format(Double(bytes.count) / seconds / 1e9, 2)) GB/s")
      }
      row("bytes one at a time", byBytes)
      row("SIMD64<UInt8> compares", bySIMD)
      row("eight-byte words (SWAR)", byWords)
      print("  masks agree: \(Set(masks.values).count == 1)")
    }
  }

  /// A checksum of the masks: each 64 bytes' mask, rotated by its block's number, xor-ed.
  @inline(__always)
  static func fold(_ sum: UInt64, _ mask: UInt64, _ block: Int) -> UInt64 {
    let turn = UInt64(truncatingIfNeeded: block & 63)
    return sum ^ (mask << turn | mask >> ((64 - turn) & 63))
  }

  @inline(never)
  static func byBytes(_ buffer: UnsafeRawBufferPointer) -> UInt64 {
    var sum: UInt64 = 0
    for block in 0..<buffer.count / 64 {
      var mask: UInt64 = 0
      for lane in 0..<64 {
        let byte = buffer[block * 64 + lane]
        if byte == 0x22 || byte == 0x5C { mask |= 1 << UInt64(lane) }
      }
      sum = fold(sum, mask, block)
    }
    return sum
  }

  @inline(never)
  static func bySIMD(_ buffer: UnsafeRawBufferPointer) -> UInt64 {
    var sum: UInt64 = 0
    let (quote, backslash) = (SIMD64<UInt8>(repeating: 0x22), SIMD64<UInt8>(repeating: 0x5C))
    for block in 0..<buffer.count / 64 {
      let v = buffer.loadUnaligned(fromByteOffset: block * 64, as: SIMD64<UInt8>.self)
      let lanes = (v .== quote) .| (v .== backslash)
      var mask: UInt64 = 0
      for lane in 0..<64 where lanes[lane] { mask |= 1 << UInt64(lane) }
      sum = fold(sum, mask, block)
    }
    return sum
  }

  @inline(never)
  static func byWords(_ buffer: UnsafeRawBufferPointer) -> UInt64 {
    var sum: UInt64 = 0
    let (low7, high) = (UInt64(0x7F7F_7F7F_7F7F_7F7F), UInt64(0x8080_8080_8080_8080))
    let ones = UInt64(0x0101_0101_0101_0101)
    // The high bit of each byte that is zero (exact: no carry crosses a byte).
    func zeros(_ x: UInt64) -> UInt64 { ~(((x & low7) &+ low7) | x) & high }
    for block in 0..<buffer.count / 64 {
      var mask: UInt64 = 0
      for word in 0..<8 {
        let w = buffer.loadUnaligned(fromByteOffset: block * 64 + word * 8, as: UInt64.self)
        let found = zeros(w ^ (ones &* 0x22)) | zeros(w ^ (ones &* 0x5C))
        // The eight high bits gathered into one byte, lane 0 lowest.
        let bits = ((found >> 7) &* 0x0102_0408_1020_4080) >> 56
        mask |= bits << UInt64(word * 8)
      }
      sum = fold(sum, mask, block)
    }
    return sum
  }
}
