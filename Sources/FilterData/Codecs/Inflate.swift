/// DEFLATE decompression (RFC 1951), written here so that flt reads `.gz` files with no
/// package and no subprocess. The compressed bytes come in pieces (``append(_:)``, then
/// ``endInput()``), and ``inflate(into:upTo:)`` decodes what they allow, at most so many bytes
/// at a time: neither the compressed input nor a block's output (a megabyte of zeros can
/// inflate to a gigabyte) is ever held whole.
///
/// Every read is bounds-checked: damaged input is an ``InflateError``, never a trap.
struct Inflater {
  /// The compressed bytes not yet used up (and some before them, dropped in large steps).
  private var input: [UInt8] = []
  /// The next byte of `input` to load into the bit buffer.
  private var position = 0
  /// Whether every compressed byte has been appended.
  private(set) var inputEnded = false
  private var bits: UInt64 = 0
  private var bitCount = 0
  /// The last 32 KiB of output, for back-references.
  private var window = [UInt8](repeating: 0, count: 1 << 15)
  private var windowEnd = 0
  private var windowFilled = false
  /// The block being decoded.
  private var block = Block.between
  /// Whether the block being decoded (or the last one) is the stream's final one.
  private var lastBlock = false
  /// Whether the final block has been decoded.
  private(set) var finished = false

  private enum Block {
    /// At a block's header (or the stream's end, after the final block).
    case between
    /// Inside a stored block, with this many bytes left.
    case stored(Int)
    /// Inside a block of Huffman codes.
    case codes(HuffmanTable, HuffmanTable)
  }

  /// The compressed bytes a block's header may need (a dynamic block's code lengths are at
  /// most 570 bytes), and a symbol (a length, a distance and their extra bits: 48 bits).
  private static let headerBytes = 1024
  private static let symbolBytes = 8

  /// An inflater waiting for its input.
  init() {}

  /// An inflater with all of its input.
  init(_ input: [UInt8]) {
    self.input = input
    inputEnded = true
  }

  /// Adds compressed bytes.
  mutating func append(_ bytes: ArraySlice<UInt8>) {
    // Drop what has been used, once it is large: each byte moves at most a few times.
    if position >= 1 << 20 && position >= input.count / 2 {
      input.removeFirst(position)
      position = 0
    }
    input += bytes
  }

  /// Says that every compressed byte has been appended.
  mutating func endInput() { inputEnded = true }

  /// Whether `count` more compressed bytes are there, or all there will be.
  private func has(_ count: Int) -> Bool { inputEnded || input.count - position >= count }

  // MARK: Bits

  /// The next `count` bits (0...32), least significant first.
  private mutating func take(_ count: Int) throws(InflateError) -> Int {
    while bitCount < count {
      guard position < input.count else { throw .truncated }
      bits |= UInt64(input[position]) << UInt64(bitCount)
      position += 1
      bitCount += 8
    }
    let value = Int(bits & ((1 << UInt64(count)) - 1))
    bits >>= UInt64(count)
    bitCount -= count
    return value
  }

  /// Drops the bits up to the next byte boundary, and gives back whole bytes still buffered.
  private mutating func alignToByte() {
    let drop = bitCount % 8
    bits >>= UInt64(drop)
    bitCount -= drop
    position -= bitCount / 8
    bits = 0
    bitCount = 0
  }

  /// The compressed bytes after the stream, once it is finished: where a gzip trailer starts.
  mutating func rest() -> ArraySlice<UInt8> {
    alignToByte()
    return input[position...]
  }

  // MARK: Blocks

  /// Decodes onto `out` until it holds `limit` bytes, the stream ends (``finished``), or the
  /// compressed bytes appended so far run out (then fewer than `limit` and not finished: append
  /// more, or end the input, and call again).
  mutating func inflate(into out: inout [UInt8], upTo limit: Int) throws(InflateError) {
    while out.count < limit && !finished {
      switch block {
      case .between:
        if lastBlock {
          finished = true
          return
        }
        guard has(Inflater.headerBytes) else { return }
        lastBlock = try take(1) == 1
        switch try take(2) {
        case 0: block = .stored(try storedLength())
        case 1: block = .codes(Inflater.fixedLiterals, Inflater.fixedDistances)
        case 2:
          let (literals, distances) = try dynamicTables()
          block = .codes(literals, distances)
        default: throw .invalid("a block of the reserved type 3")
        }
      case .stored(let left):
        guard left > 0 else {
          block = .between
          continue
        }
        let available = input.count - position
        guard available > 0 else {
          if inputEnded { throw .truncated }
          return
        }
        let count = Swift.min(left, available, limit - out.count)
        for byte in input[position..<position + count] { emit(byte, into: &out) }
        position += count
        block = .stored(left - count)
      case .codes(let literals, let distances):
        guard try codes(literals, distances, into: &out, upTo: limit) else { return }
        block = .between
      }
    }
  }

  /// A stored block's length, after its header.
  private mutating func storedLength() throws(InflateError) -> Int {
    alignToByte()
    guard position + 4 <= input.count else { throw .truncated }
    let length = Int(input[position]) | Int(input[position + 1]) << 8
    let check = Int(input[position + 2]) | Int(input[position + 3]) << 8
    guard length == ~check & 0xFFFF else {
      throw .invalid("a stored block whose length check fails")
    }
    position += 4
    return length
  }

  /// Decodes a block's symbols onto `out`: true at the block's end; false when `out` holds
  /// `limit` bytes or the compressed bytes run low.
  private mutating func codes(
    _ literals: HuffmanTable, _ distances: HuffmanTable, into out: inout [UInt8],
    upTo limit: Int
  ) throws(InflateError) -> Bool {
    while out.count < limit {
      guard has(Inflater.symbolBytes) else { return false }
      let symbol = try decode(literals)
      if symbol < 256 {
        emit(UInt8(symbol), into: &out)
        continue
      }
      if symbol == 256 { return true }
      let lengthIndex = symbol - 257
      guard lengthIndex < Inflater.lengthBase.count else {
        throw .invalid("a length code out of range")
      }
      let length =
        Inflater.lengthBase[lengthIndex] + (try take(Inflater.lengthExtra[lengthIndex]))
      let distanceCode = try decode(distances)
      guard distanceCode < Inflater.distanceBase.count else {
        throw .invalid("a distance code out of range")
      }
      let distance =
        Inflater.distanceBase[distanceCode] + (try take(Inflater.distanceExtra[distanceCode]))
      guard distance <= (windowFilled ? window.count : windowEnd) else {
        throw .invalid("a back-reference before the start of the data")
      }
      var from = (windowEnd - distance) & (window.count - 1)
      for _ in 0..<length {
        emit(window[from], into: &out)
        from = (from + 1) & (window.count - 1)
      }
    }
    return false
  }

  @inline(__always)
  private mutating func emit(_ byte: UInt8, into out: inout [UInt8]) {
    out.append(byte)
    window[windowEnd] = byte
    windowEnd += 1
    if windowEnd == window.count {
      windowEnd = 0
      windowFilled = true
    }
  }

  // MARK: Huffman codes

  /// A canonical Huffman code: the symbols of codes up to ``fastBits`` long found by one
  /// look-up of the next bits; longer ones bit by bit.
  struct HuffmanTable {
    static let fastBits = 9
    /// For each `fastBits`-bit prefix (bits in stream order): symbol << 4 | length, or 0.
    var fast: [UInt16]
    /// Codes per length, and the symbols in code order (for the slow path).
    var counts: [Int]
    var symbols: [Int]

    init(lengths: [Int]) throws(InflateError) {
      var counts = [Int](repeating: 0, count: 16)
      for length in lengths { counts[length] += 1 }
      counts[0] = 0
      // Over-subscribed codes are invalid; incomplete ones are allowed (one distance code).
      var left = 1
      for length in 1...15 {
        left = left * 2 - counts[length]
        if left < 0 { throw .invalid("an over-subscribed Huffman code") }
      }
      var offsets = [Int](repeating: 0, count: 16)
      for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
      var symbols = [Int](repeating: 0, count: lengths.count)
      var fast = [UInt16](repeating: 0, count: 1 << HuffmanTable.fastBits)
      var nextCode = [Int](repeating: 0, count: 16)
      var code = 0
      for length in 1...15 {
        code = (code + counts[length - 1]) << 1
        nextCode[length] = code
      }
      for (symbol, length) in lengths.enumerated() where length > 0 {
        symbols[offsets[length]] = symbol
        offsets[length] += 1
        let code = nextCode[length]
        nextCode[length] += 1
        guard length <= HuffmanTable.fastBits else { continue }
        // Codes are sent most significant bit first: reverse them for the look-up.
        var reversed = 0
        for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
        var index = reversed
        while index < fast.count {
          fast[index] = UInt16(symbol << 4 | length)
          index += 1 << length
        }
      }
      self.fast = fast
      self.counts = counts
      self.symbols = symbols
    }
  }

  private mutating func decode(_ table: HuffmanTable) throws(InflateError) -> Int {
    // Load enough bits for the fast look-up when the input has them.
    while bitCount < HuffmanTable.fastBits && position < input.count {
      bits |= UInt64(input[position]) << UInt64(bitCount)
      position += 1
      bitCount += 8
    }
    let entry = Int(table.fast[Int(bits & UInt64((1 << HuffmanTable.fastBits) - 1))])
    if entry != 0 && entry & 15 <= bitCount {
      bits >>= UInt64(entry & 15)
      bitCount -= entry & 15
      return entry >> 4
    }
    // The slow path, one bit at a time (puff's canonical decoding).
    var code = 0
    var first = 0
    var index = 0
    for length in 1...15 {
      code |= try take(1)
      let count = table.counts[length]
      if code - count < first { return table.symbols[index + (code - first)] }
      index += count
      first = (first + count) << 1
      code <<= 1
    }
    throw .invalid("a Huffman code that does not exist")
  }

  private mutating func dynamicTables() throws(InflateError) -> (HuffmanTable, HuffmanTable) {
    let literalCount = try take(5) + 257
    let distanceCount = try take(5) + 1
    let lengthCount = try take(4) + 4
    guard literalCount <= 286, distanceCount <= 30 else {
      throw .invalid("too many Huffman codes in a block header")
    }
    var codeLengths = [Int](repeating: 0, count: 19)
    for i in 0..<lengthCount { codeLengths[Inflater.codeLengthOrder[i]] = try take(3) }
    let lengthTable = try HuffmanTable(lengths: codeLengths)
    var lengths: [Int] = []
    lengths.reserveCapacity(literalCount + distanceCount)
    while lengths.count < literalCount + distanceCount {
      let symbol = try decode(lengthTable)
      switch symbol {
      case 0...15: lengths.append(symbol)
      case 16:
        guard let previous = lengths.last else { throw .invalid("a repeat with nothing before it") }
        lengths += repeatElement(previous, count: 3 + (try take(2)))
      case 17: lengths += repeatElement(0, count: 3 + (try take(3)))
      default: lengths += repeatElement(0, count: 11 + (try take(7)))
      }
    }
    guard lengths.count == literalCount + distanceCount else {
      throw .invalid("code lengths that run past the block header")
    }
    guard lengths[256] > 0 else { throw .invalid("a block with no end code") }
    return (
      try HuffmanTable(lengths: Array(lengths[..<literalCount])),
      try HuffmanTable(lengths: Array(lengths[literalCount...]))
    )
  }

  // MARK: Constants (RFC 1951, 3.2.5 and 3.2.6)

  static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
  ]
  static let lengthExtra = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]
  static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  // The fixed codes always build (their lengths are complete), so a failure here is a bug.
  static let fixedLiterals: HuffmanTable = {
    let lengths =
      [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
      + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)
    return (try? HuffmanTable(lengths: lengths)) ?? HuffmanTable.empty
  }()
  static let fixedDistances: HuffmanTable =
    (try? HuffmanTable(lengths: [Int](repeating: 5, count: 30))) ?? HuffmanTable.empty
}

extension Inflater.HuffmanTable {
  /// A table that decodes nothing.
  static let empty = Inflater.HuffmanTable(
    fast: [UInt16](repeating: 0, count: 1 << fastBits), counts: [Int](repeating: 0, count: 16),
    symbols: [])

  private init(fast: [UInt16], counts: [Int], symbols: [Int]) {
    self.fast = fast
    self.counts = counts
    self.symbols = symbols
  }
}

/// Why compressed data cannot be decompressed.
enum InflateError: Error, Equatable {
  /// The data ends before the stream does.
  case truncated
  /// The data is not valid: what is wrong.
  case invalid(String)
}
