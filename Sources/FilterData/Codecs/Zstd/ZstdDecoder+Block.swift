/// A compressed block (RFC 8878, 3.1.1.3): its literals, then the sequences that interleave
/// them with copies of earlier output.
extension ZstdDecoder {
  mutating func compressedBlock(end: Int) throws(Zstd.Failure) {
    let literals = try self.literals(end: end)
    // The number of sequences.
    guard position < end else { throw Zstd.Failure("a block has no sequences section") }
    let first = Int(input[position])
    var count = first
    if first >= 128 {
      guard position + (first == 255 ? 3 : 2) <= end else {
        throw Zstd.Failure("a block's sequences section ends early")
      }
      count =
        first == 255
        ? Int(input[position + 1]) + Int(input[position + 2]) << 8 + 0x7F00
        : (first - 128) << 8 + Int(input[position + 1])
      position += first == 255 ? 3 : 2
    } else {
      position += 1
    }
    guard count > 0 else {
      guard position == end else { throw Zstd.Failure("a block has data after its literals") }
      try makeRoom(literals.count)
      out += literals
      return
    }
    guard position < end else { throw Zstd.Failure("a block's sequences section ends early") }
    let modes = Int(input[position])
    position += 1
    guard modes & 3 == 0 else { throw Zstd.Failure("a block's sequence modes are corrupt") }
    for (index, kind) in ZstdCodes.kinds.enumerated() {
      tables[index] = try table(mode: (modes >> (6 - 2 * index)) & 3, kind, tables[index], end)
    }
    guard let ll = tables[0], let of = tables[1], let ml = tables[2],
      var bits = ZstdBackwardBits(input, position, end)
    else { throw Zstd.Failure("a block's sequences are corrupt") }
    try sequences(count, literals, &bits, ll, of, ml)
  }

  /// The block's literals.
  private mutating func literals(end: Int) throws(Zstd.Failure) -> [UInt8] {
    guard position < end else { throw Zstd.Failure("a block has no literals section") }
    let first = Int(input[position])
    let type = first & 3
    let format = (first >> 2) & 3
    if type < 2 {
      // Raw or run-length: a size of 5, 12 or 20 bits.
      let headerBytes = format & 1 == 0 ? 1 : format == 1 ? 2 : 3
      guard position + headerBytes <= end else { throw Zstd.Failure("literals end early") }
      var size = first >> (format & 1 == 0 ? 3 : 4)
      if headerBytes > 1 { size += Int(input[position + 1]) << 4 }
      if headerBytes > 2 { size += Int(input[position + 2]) << 12 }
      position += headerBytes
      if type == 0 {
        guard size <= end - position else { throw Zstd.Failure("literals end early") }
        defer { position += size }
        return Array(UnsafeRawBufferPointer(rebasing: input[position..<(position + size)]))
      }
      guard position < end else { throw Zstd.Failure("literals end early") }
      defer { position += 1 }
      return [UInt8](repeating: input[position], count: size)
    }
    // Huffman-coded, with a tree of their own (2) or the block before's (3).
    let (headerBytes, sizeBits) = [(3, 10), (3, 10), (4, 14), (5, 18)][format]
    guard position + headerBytes <= end else { throw Zstd.Failure("literals end early") }
    var header = 0
    for index in 0..<headerBytes { header |= Int(input[position + index]) << (8 * index) }
    let size = (header >> 4) & ((1 << sizeBits) - 1)
    let compressed = (header >> (4 + sizeBits)) & ((1 << sizeBits) - 1)
    position += headerBytes
    guard compressed <= end - position, size <= 1 << 17 else {
      throw Zstd.Failure("literals end early")
    }
    let streamsEnd = position + compressed
    var start = position
    if type == 2 { huffman = try ZstdHuffman(input, &start, end: streamsEnd) }
    guard let huffman else { throw Zstd.Failure("literals reuse a Huffman tree never given") }
    var literals: [UInt8] = []
    literals.reserveCapacity(size)
    if format == 0 {
      try huffman.decode(input, start, streamsEnd, count: size, into: &literals)
    } else {
      // Four streams after a table of the first three's sizes.
      guard streamsEnd - start >= 6 else { throw Zstd.Failure("literals end early") }
      var bounds = [start + 6]
      for index in 0..<3 {
        let at = start + 2 * index
        bounds.append(bounds[index] + Int(input[at]) + Int(input[at + 1]) << 8)
      }
      bounds.append(streamsEnd)
      let each = (size + 3) / 4
      guard bounds[3] <= streamsEnd, size - 3 * each >= 0 else {
        throw Zstd.Failure("literals' streams are corrupt")
      }
      for index in 0..<4 {
        try huffman.decode(
          input, bounds[index], bounds[index + 1], count: index < 3 ? each : size - 3 * each,
          into: &literals)
      }
    }
    position = streamsEnd
    return literals
  }

  /// The decoding table of one kind of code, as `mode` says: predefined (0), one symbol
  /// (1), described here (2), or the one before (3).
  private mutating func table(mode: Int, _ kind: ZstdCodes.Kind, _ previous: ZstdFSE?, _ end: Int)
    throws(Zstd.Failure) -> ZstdFSE
  {
    switch mode {
    case 0:
      return kind.predefined
    case 1:
      guard position < end else { throw Zstd.Failure("a sequence table ends early") }
      let symbol = input[position]
      position += 1
      guard Int(symbol) <= kind.maxSymbol else {
        throw Zstd.Failure("a sequence code is out of range")
      }
      return ZstdFSE(only: symbol)
    case 2:
      var bits = ZstdForwardBits(input, from: position)
      let table = try ZstdFSE.read(&bits, maxSymbol: kind.maxSymbol, maxLog: kind.maxLog)
      guard bits.nextByte <= end else { throw Zstd.Failure("a sequence table ends early") }
      position = bits.nextByte
      return table
    default:
      guard let previous else { throw Zstd.Failure("a sequence table is repeated, never given") }
      return previous
    }
  }

  /// Decodes `count` sequences and carries them out: each copies literals, then a match of
  /// earlier output; the literals left are copied at the end.
  private mutating func sequences(
    _ count: Int, _ literals: [UInt8], _ bits: inout ZstdBackwardBits, _ ll: ZstdFSE,
    _ of: ZstdFSE, _ ml: ZstdFSE
  ) throws(Zstd.Failure) {
    var llState = Int(bits.read(ll.accuracyLog))
    var ofState = Int(bits.read(of.accuracyLog))
    var mlState = Int(bits.read(ml.accuracyLog))
    var used = 0
    for index in 0..<count {
      let offsetCode = Int(of.entries[ofState].symbol)
      let matchCode = Int(ml.entries[mlState].symbol)
      let literalCode = Int(ll.entries[llState].symbol)
      guard offsetCode <= 31 else { throw Zstd.Failure("an offset code is out of range") }
      let offsetValue = 1 << offsetCode + Int(bits.read(offsetCode))
      let match = ZstdCodes.matchBase[matchCode] + Int(bits.read(ZstdCodes.matchBits[matchCode]))
      let literal =
        ZstdCodes.literalBase[literalCode] + Int(bits.read(ZstdCodes.literalBits[literalCode]))
      let offset: Int
      if offsetValue > 3 {
        offset = offsetValue - 3
        repeats = (offset, repeats.0, repeats.1)
      } else {
        switch offsetValue - (literal == 0 ? 0 : 1) {
        case 0:
          offset = repeats.0
        case 1:
          offset = repeats.1
          repeats = (offset, repeats.0, repeats.2)
        case 2:
          offset = repeats.2
          repeats = (offset, repeats.0, repeats.1)
        default:
          offset = repeats.0 - 1
          repeats = (offset, repeats.0, repeats.1)
        }
      }
      // The literals, then the match.
      guard literal <= literals.count - used else {
        throw Zstd.Failure("a sequence needs more literals than there are")
      }
      try makeRoom(literal + match)
      out += literals[used..<(used + literal)]
      used += literal
      guard offset > 0, offset <= out.count - frameStart else {
        throw Zstd.Failure("a match reaches before the start of the data")
      }
      copyMatch(offset: offset, count: match)
      if index < count - 1 {
        llState = Int(ll.entries[llState].baseline) + Int(bits.read(Int(ll.entries[llState].bits)))
        mlState = Int(ml.entries[mlState].baseline) + Int(bits.read(Int(ml.entries[mlState].bits)))
        ofState = Int(of.entries[ofState].baseline) + Int(bits.read(Int(of.entries[ofState].bits)))
      }
    }
    guard bits.isFinished else { throw Zstd.Failure("a block's sequences do not end with it") }
    try makeRoom(literals.count - used)
    out += literals[used...]
  }

  /// Appends the `count` bytes that start `offset` bytes back (within the output: checked),
  /// overlapping what it appends when `offset` is less than `count` (a run).
  ///
  /// In place: `out.append(contentsOf: out[from...])` shares the buffer with the slice, so
  /// that every match copied the whole output first (a page of Polars' zstd decoded at
  /// 1 MB/s).
  private mutating func copyMatch(offset: Int, count: Int) {
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: count))
    out.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      if offset >= count {
        (base + start).update(from: base + start - offset, count: count)
      } else {
        for index in start..<(start + count) { base[index] = base[index - offset] }
      }
    }
  }
}
