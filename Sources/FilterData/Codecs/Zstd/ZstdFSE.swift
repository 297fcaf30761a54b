/// A finite-state entropy decoding table (RFC 8878, 4.1): for each state, the symbol it
/// stands for, and how the next state is found (`baseline` plus `bits` read from the stream).
struct ZstdFSE {
  struct Entry {
    var symbol: UInt8
    var bits: UInt8
    var baseline: UInt16
  }
  let entries: [Entry]
  let accuracyLog: Int

  /// The table of `probabilities` (per symbol; -1 is "less than one") over `1 << accuracyLog`
  /// states; nil when they do not add up to that.
  init?(probabilities: [Int], accuracyLog: Int) {
    let size = 1 << accuracyLog
    guard probabilities.count <= 256,
      probabilities.reduce(0, { $0 + ($1 < 0 ? 1 : $1) }) == size,
      !probabilities.contains(where: { $0 < -1 })
    else { return nil }
    var symbols = [UInt8](repeating: 0, count: size)
    var next = [Int](repeating: 0, count: probabilities.count)
    var high = size - 1
    for (symbol, probability) in probabilities.enumerated() where probability == -1 {
      symbols[high] = UInt8(symbol)
      high -= 1
      next[symbol] = 1
    }
    var position = 0
    let step = (size >> 1) + (size >> 3) + 3
    for (symbol, probability) in probabilities.enumerated() where probability > 0 {
      next[symbol] = probability
      for _ in 0..<probability {
        symbols[position] = UInt8(symbol)
        repeat { position = (position + step) & (size - 1) } while position > high
      }
    }
    guard position == 0 else { return nil }
    entries = symbols.map { symbol in
      let state = next[Int(symbol)]
      next[Int(symbol)] += 1
      let bits = accuracyLog - (Int.bitWidth - 1 - state.leadingZeroBitCount)
      return Entry(symbol: symbol, bits: UInt8(bits), baseline: UInt16((state << bits) - size))
    }
    self.accuracyLog = accuracyLog
  }

  /// A table of one symbol: every state is it, and reads no bits (a mode of its own).
  init(only symbol: UInt8) {
    entries = [Entry(symbol: symbol, bits: 0, baseline: 0)]
    accuracyLog = 0
  }

  /// Reads a table description (4.1.1) from `bits`, for symbols up to `maxSymbol` and
  /// accuracy up to `maxLog`.
  static func read(_ bits: inout ZstdForwardBits, maxSymbol: Int, maxLog: Int)
    throws(Zstd.Failure) -> ZstdFSE
  {
    let log = bits.read(4) + 5
    guard log <= maxLog else { throw Zstd.Failure("an FSE table's accuracy \(log) is too high") }
    var remaining = (1 << log) + 1
    var threshold = 1 << log
    var width = log + 1
    var probabilities: [Int] = []
    while remaining > 1 {
      guard probabilities.count <= maxSymbol else {
        throw Zstd.Failure("an FSE table has too many symbols")
      }
      let largest = 2 * threshold - 1 - remaining
      var count: Int
      if bits.peek(width - 1) < largest {
        count = bits.read(width - 1)
      } else {
        count = bits.peek(width)
        if count >= threshold { count -= largest }
        bits.skip(width)
      }
      count -= 1
      remaining -= abs(count)
      guard remaining >= 1 else { throw Zstd.Failure("an FSE table's counts add up to too much") }
      probabilities.append(count)
      if count == 0 {
        // How many more symbols have none: two bits at a time, 3 meaning more to come.
        while true {
          let more = bits.read(2)
          probabilities += repeatElement(0, count: more)
          guard probabilities.count <= maxSymbol + 1, bits.position <= bits.data.count * 8 else {
            throw Zstd.Failure("an FSE table has too many symbols")
          }
          if more != 3 { break }
        }
      }
      while remaining < threshold {
        width -= 1
        threshold >>= 1
      }
    }
    guard bits.position <= bits.data.count * 8,
      let table = ZstdFSE(probabilities: probabilities, accuracyLog: log)
    else { throw Zstd.Failure("an FSE table description is corrupt") }
    return table
  }
}
