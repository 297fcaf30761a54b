import TestSupport
import Testing

@testable import FilterData

/// Compressed data through a ``StreamDecompressor`` as ``ByteInput`` feeds one: the tests of
/// every stream decoder (zstd's, the system's xz and bzip2) read through it.
enum StreamedPieces {
  /// `bytes` decoded by `decompressor` (zstd's unless said) fed pieces of random sizes (from
  /// `seed`), read in pieces of at most `limit` bytes (each checked).
  static func decoded(
    _ bytes: [UInt8], _ decompressor: any StreamDecompressor = ZstdStream(), seed: UInt64,
    limit: Int = 1 << 20
  ) throws(DecompressionFailure) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    var stream = decompressor
    var out: [UInt8] = []
    var fed = 0
    while true {
      guard let piece = try stream.nextPiece(limit: limit) else { break }
      #expect(piece.count <= limit)
      out += piece
      if piece.isEmpty {
        guard fed < bytes.count else {
          stream.endInput()
          continue
        }
        let size = Swift.min(bytes.count - fed, random.int(1...4096))
        stream.feed(bytes[fed..<(fed + size)])
        fed += size
      }
    }
    #expect(stream.finished)
    return out
  }
}
