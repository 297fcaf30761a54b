/// gzip files (RFC 1952): a header, a DEFLATE stream, and a trailer with the CRC-32 and the
/// length of the data, checked. Members written one after another (`cat a.gz b.gz`) are read
/// as one file, as `gzip -d` does. The compressed bytes are fed in pieces (``feed(_:)``, then
/// ``endInput()``) and the data comes out in pieces of bounded size: memory stays small
/// however large the file, or however much one block inflates.
struct GzipDecoder {
  private enum Stage: Equatable {
    case header, body, trailer
  }

  private var stage = Stage.header
  /// The bytes of a header or trailer being read.
  private var pending: [UInt8] = []
  private var inflater = Inflater()
  private var inputEnded = false
  private var crc = CRC32()
  private var length: UInt32 = 0
  /// The longest header read (a file name or comment may make it long, not endless).
  private static let maxHeader = 1 << 20

  /// Whether `bytes` start like gzip data.
  static func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
    bytes.starts(with: [0x1F, 0x8B])
  }

  /// A decoder waiting for its input.
  init() {}

  /// A decoder with all of its input.
  init(_ input: [UInt8]) {
    feed(input[...])
    endInput()
  }

  /// Adds compressed bytes.
  mutating func feed(_ bytes: ArraySlice<UInt8>) {
    if stage == .body { inflater.append(bytes) } else { pending += bytes }
  }

  /// Says that every compressed byte has been fed.
  mutating func endInput() {
    inputEnded = true
    inflater.endInput()
  }

  /// Whether every member has been decoded and checked.
  var finished: Bool { stage == .header && pending.isEmpty && inputEnded }

  /// The next piece of the data (at most `limit` bytes): empty when the bytes fed so far are
  /// used up (feed more, or end the input), nil at the end.
  mutating func nextChunk(limit: Int = 1 << 20) throws(InflateError) -> [UInt8]? {
    while true {
      switch stage {
      case .header:
        if pending.isEmpty && inputEnded { return nil }
        guard let start = try Self.header(in: pending) else {
          if inputEnded { throw .truncated }
          guard pending.count <= Self.maxHeader else {
            throw .invalid("a header longer than a megabyte")
          }
          return []
        }
        inflater = Inflater()
        inflater.append(pending[start...])
        if inputEnded { inflater.endInput() }
        pending = []
        crc = CRC32()
        length = 0
        stage = .body
      case .body:
        var out: [UInt8] = []
        try inflater.inflate(into: &out, upTo: limit)
        crc.update(out)
        length &+= UInt32(truncatingIfNeeded: out.count)
        if inflater.finished {
          pending = Array(inflater.rest())
          inflater = Inflater()
          stage = .trailer
        }
        if !out.isEmpty { return out }
        if stage == .body { return [] }
      case .trailer:
        guard pending.count >= 8 else {
          if inputEnded { throw .truncated }
          return []
        }
        func word(_ offset: Int) -> UInt32 {
          (0..<4).reduce(UInt32(0)) { $0 | UInt32(pending[offset + $1]) << (8 * $1) }
        }
        guard word(0) == crc.value else { throw .invalid("a CRC-32 that does not match the data") }
        guard word(4) == length else { throw .invalid("a length that does not match the data") }
        pending.removeFirst(8)
        stage = .header
      }
    }
  }

  /// Where the DEFLATE stream starts after the member's header at the start of `bytes`; nil
  /// when `bytes` end before the header does.
  private static func header(in bytes: [UInt8]) throws(InflateError) -> Int? {
    if bytes.count >= 2, !isGzip(bytes) {
      throw .invalid("data after the end of the gzip stream")
    }
    guard bytes.count >= 10 else { return nil }
    guard bytes[2] == 8 else { throw .invalid("a compression method other than deflate") }
    let flags = bytes[3]
    var index = 10
    if flags & 0x04 != 0 {  // FEXTRA
      guard index + 2 <= bytes.count else { return nil }
      index += 2 + (Int(bytes[index]) | Int(bytes[index + 1]) << 8)
    }
    for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT
      while index < bytes.count && bytes[index] != 0 { index += 1 }
      index += 1
    }
    if flags & 0x02 != 0 { index += 2 }  // FHCRC
    guard index <= bytes.count else { return nil }
    return index
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
