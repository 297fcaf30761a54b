/// gzip files (RFC 1952): a header, a DEFLATE stream, and a trailer with the CRC-32 and the
/// length of the data, checked. Members written one after another (`cat a.gz b.gz`) are read
/// as one file, as `gzip -d` does.
struct GzipDecoder {
  private let input: [UInt8]
  private var inflater: Inflater?
  private var crc = CRC32()
  private var length: UInt32 = 0
  /// Where the next member starts, once the current one is done.
  private var next: Int

  /// Whether `bytes` start like gzip data.
  static func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
    bytes.starts(with: [0x1F, 0x8B])
  }

  init(_ input: [UInt8]) {
    self.input = input
    self.next = 0
  }

  /// How far into the compressed input decoding has come.
  var position: Int { inflater?.position ?? next }

  /// Whether every member has been decoded and checked.
  var finished: Bool { inflater == nil && next >= input.count }

  /// The next piece of the data (one DEFLATE block), or nil at the end.
  mutating func nextChunk() throws(InflateError) -> [UInt8]? {
    while true {
      if inflater == nil {
        guard next < input.count else { return nil }
        inflater = Inflater(input, from: try header(at: next))
        crc = CRC32()
        length = 0
      }
      guard var current = inflater else { return nil }
      if current.finished {
        try trailer(at: current.endOfStream())
        inflater = nil
        continue
      }
      var out: [UInt8] = []
      try current.nextBlock(into: &out)
      inflater = current
      crc.update(out)
      length &+= UInt32(truncatingIfNeeded: out.count)
      if !out.isEmpty { return out }
    }
  }

  /// Reads a member's header at `start`; returns where its DEFLATE stream starts.
  private func header(at start: Int) throws(InflateError) -> Int {
    guard start + 10 <= input.count else { throw .truncated }
    guard GzipDecoder.isGzip(input[start...]) else {
      throw .invalid("data after the end of the gzip stream")
    }
    guard input[start + 2] == 8 else { throw .invalid("a compression method other than deflate") }
    let flags = input[start + 3]
    var index = start + 10
    if flags & 0x04 != 0 {  // FEXTRA
      guard index + 2 <= input.count else { throw .truncated }
      index += 2 + (Int(input[index]) | Int(input[index + 1]) << 8)
    }
    for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT
      while index < input.count && input[index] != 0 { index += 1 }
      index += 1
    }
    if flags & 0x02 != 0 { index += 2 }  // FHCRC
    guard index <= input.count else { throw .truncated }
    return index
  }

  private mutating func trailer(at start: Int) throws(InflateError) {
    guard start + 8 <= input.count else { throw .truncated }
    let bytes = input
    func word(_ offset: Int) -> UInt32 {
      (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[start + offset + $1]) << (8 * $1) }
    }
    guard word(0) == crc.value else { throw .invalid("a CRC-32 that does not match the data") }
    guard word(4) == length else { throw .invalid("a length that does not match the data") }
    next = start + 8
  }
}

/// The CRC-32 of gzip, zip and PNG (polynomial 0xEDB88320, reflected).
struct CRC32 {
  private var state: UInt32 = 0xFFFF_FFFF

  static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  mutating func update(_ bytes: [UInt8]) {
    let table = CRC32.table
    var c = state
    for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    state = c
  }

  var value: UInt32 { state ^ 0xFFFF_FFFF }
}
