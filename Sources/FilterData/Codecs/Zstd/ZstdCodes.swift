/// The codes of sequences (RFC 8878, 3.1.1.3.2.1): literal lengths, offsets and match lengths
/// are coded as a symbol (FSE-decoded) with a baseline, plus extra bits read raw.
enum ZstdCodes {
  /// One kind of code: its largest symbol, largest table accuracy, and predefined table.
  struct Kind {
    let maxSymbol: Int
    let maxLog: Int
    let predefined: ZstdFSE
  }

  /// Literal lengths, offsets and match lengths, in the order their tables come.
  static let kinds = [
    kind(maxSymbol: 35, maxLog: 9, log: 6, defaults: literalDefaults),
    kind(maxSymbol: 31, maxLog: 8, log: 5, defaults: offsetDefaults),
    kind(maxSymbol: 52, maxLog: 9, log: 6, defaults: matchDefaults),
  ]

  private static func kind(maxSymbol: Int, maxLog: Int, log: Int, defaults: [Int]) -> Kind {
    // The RFC's distributions are valid tables; a table of one symbol stands in for the
    // impossible.
    let table = ZstdFSE(probabilities: defaults, accuracyLog: log) ?? ZstdFSE(only: 0)
    return Kind(maxSymbol: maxSymbol, maxLog: maxLog, predefined: table)
  }

  static let literalDefaults = [
    4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1,
    -1, -1, -1, -1,
  ]
  static let matchDefaults = [
    1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
  ]
  static let offsetDefaults = [
    1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1,
  ]

  /// Literal length codes 0 to 35: the length is the baseline plus this many extra bits.
  static let literalBase =
    Array(0..<16) + [
      16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768,
      65536,
    ]
  static let literalBits =
    [Int](repeating: 0, count: 16) + [
      1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    ]
  /// Match length codes 0 to 52.
  static let matchBase =
    Array(3..<35) + [
      35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387,
      32771, 65539,
    ]
  static let matchBits =
    [Int](repeating: 0, count: 32) + [
      1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    ]
}
