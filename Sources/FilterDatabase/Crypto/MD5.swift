/// MD5 (RFC 1321), only for PostgreSQL's `md5` password authentication. Checked against the
/// RFC's test suite.
enum MD5 {
  private static let shifts: [UInt32] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9,
    14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15,
    21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
  ]
  /// floor(abs(sin(i + 1)) * 2^32), as the RFC lists them.
  private static let table: [UInt32] = [
    0xd76a_a478, 0xe8c7_b756, 0x2420_70db, 0xc1bd_ceee, 0xf57c_0faf, 0x4787_c62a, 0xa830_4613,
    0xfd46_9501, 0x6980_98d8, 0x8b44_f7af, 0xffff_5bb1, 0x895c_d7be, 0x6b90_1122, 0xfd98_7193,
    0xa679_438e, 0x49b4_0821, 0xf61e_2562, 0xc040_b340, 0x265e_5a51, 0xe9b6_c7aa, 0xd62f_105d,
    0x0244_1453, 0xd8a1_e681, 0xe7d3_fbc8, 0x21e1_cde6, 0xc337_07d6, 0xf4d5_0d87, 0x455a_14ed,
    0xa9e3_e905, 0xfcef_a3f8, 0x676f_02d9, 0x8d2a_4c8a, 0xfffa_3942, 0x8771_f681, 0x6d9d_6122,
    0xfde5_380c, 0xa4be_ea44, 0x4bde_cfa9, 0xf6bb_4b60, 0xbebf_bc70, 0x289b_7ec6, 0xeaa1_27fa,
    0xd4ef_3085, 0x0488_1d05, 0xd9d4_d039, 0xe6db_99e5, 0x1fa2_7cf8, 0xc4ac_5665, 0xf429_2244,
    0x432a_ff97, 0xab94_23a7, 0xfc93_a039, 0x655b_59c3, 0x8f0c_cc92, 0xffef_f47d, 0x8584_5dd1,
    0x6fa8_7e4f, 0xfe2c_e6e0, 0xa301_4314, 0x4e08_11a1, 0xf753_7e82, 0xbd3a_f235, 0x2ad7_d2bb,
    0xeb86_d391,
  ]

  /// The digest of `bytes`.
  static func hash(_ bytes: [UInt8]) -> [UInt8] {
    var message = bytes
    let bits = UInt64(bytes.count) &* 8
    message.append(0x80)
    while message.count % 64 != 56 { message.append(0) }
    for shift in stride(from: 0, to: 64, by: 8) {
      message.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
    var (a0, b0, c0, d0): (UInt32, UInt32, UInt32, UInt32) = (
      0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476
    )
    for start in stride(from: 0, to: message.count, by: 64) {
      var m = [UInt32](repeating: 0, count: 16)
      for i in 0..<16 {
        let at = start + 4 * i
        m[i] =
          UInt32(message[at]) | UInt32(message[at + 1]) << 8 | UInt32(message[at + 2]) << 16
          | UInt32(message[at + 3]) << 24
      }
      var (a, b, c, d) = (a0, b0, c0, d0)
      for i in 0..<64 {
        var f: UInt32
        let g: Int
        switch i {
        case 0..<16: (f, g) = ((b & c) | (~b & d), i)
        case 16..<32: (f, g) = ((d & b) | (~d & c), (5 * i + 1) % 16)
        case 32..<48: (f, g) = (b ^ c ^ d, (3 * i + 5) % 16)
        default: (f, g) = (c ^ (b | ~d), (7 * i) % 16)
        }
        f = f &+ a &+ table[i] &+ m[g]
        a = d
        d = c
        c = b
        b = b &+ f.rotatedLeft(shifts[i])
      }
      a0 &+= a
      b0 &+= b
      c0 &+= c
      d0 &+= d
    }
    return [a0, b0, c0, d0].flatMap { word in
      [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
    }
  }
}

/// Bytes in lowercase hexadecimal (`md5` passwords) and Base64 (SCRAM messages).
enum ByteText {
  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
  }

  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func base64(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      let chunk = bytes[i..<min(i + 3, bytes.count)]
      let n = chunk.enumerated().reduce(UInt32(0)) {
        $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset))
      }
      for j in 0..<4 {
        out.append(
          j <= chunk.count ? alphabet[Int((n >> (18 - 6 * UInt32(j))) & 63)] : UInt8(ascii: "="))
      }
      i += 3
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes of Base64 `text`; nil when it is not Base64.
  static func base64(decoding text: String) -> [UInt8]? {
    var values: [UInt8] = []
    var padding = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: "=") {
        padding += 1
        continue
      }
      guard padding == 0, let index = alphabet.firstIndex(of: byte) else { return nil }
      values.append(UInt8(index))
    }
    guard (values.count + padding) % 4 == 0, padding <= 2 else { return nil }
    var out: [UInt8] = []
    var bits: UInt32 = 0
    var count = 0
    for value in values {
      bits = bits << 6 | UInt32(value)
      count += 6
      if count >= 8 {
        count -= 8
        out.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
      }
    }
    return out
  }
}
