/// A decompressor of data read as a stream: compressed bytes are fed in pieces, the data comes
/// out in pieces of bounded size. ``ByteInput`` picks one by the data's first bytes
/// (``decompressor(for:)``), whatever the file's name, so standard input is read alike.
protocol StreamDecompressor {
  /// The format's name in messages: `gzip`, `zstd`.
  var format: String { get }
  /// Adds compressed bytes.
  mutating func feed(_ bytes: ArraySlice<UInt8>)
  /// Says that every compressed byte has been fed.
  mutating func endInput()
  /// Whether all the data has been handed out and the stream ended where it should.
  var finished: Bool { get }
  /// The next piece of the data (at most `limit` bytes): empty when the bytes fed so far are
  /// used up, nil at the end.
  mutating func nextPiece(limit: Int) throws(DecompressionFailure) -> [UInt8]?
}

/// What is wrong with compressed data, in words, and where in the compressed bytes when the
/// decoder knows.
struct DecompressionFailure: Error, Equatable {
  var description: String
  var offset: Int?
}

/// The decompressors data is sniffed for, by their magic bytes.
enum StreamDecompressors {
  /// The magic numbers, as far as they tell the formats apart (bzip2's fourth byte is a
  /// digit).
  static let magics: [[UInt8]] = [
    [0x1F, 0x8B], [0x28, 0xB5, 0x2F, 0xFD], [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00],
    [0x42, 0x5A, 0x68, 0x39],
  ]

  /// Whether `first` (the data's first bytes, fewer when the data is shorter) may still be
  /// the start of a magic number longer than it: more must be read to tell.
  static func needsMore(_ first: [UInt8]) -> Bool {
    first.count < 2
      || magics.contains { magic in
        magic.count > first.count && zip(magic.dropLast(), first).allSatisfy { $0 == $1 }
          && first.count < magic.count
      }
  }

  /// A decompressor for data that starts with `first`, or nil for data that is not compressed.
  static func decompressor(for first: [UInt8]) -> (any StreamDecompressor)? {
    if GzipDecoder.isGzip(first) { return GzipDecoder() }
    if ZstdStream.isZstd(first) { return ZstdStream() }
    if SystemDecompressor.isXZ(first) { return SystemDecompressor(.xz) }
    if SystemDecompressor.isBzip2(first) { return SystemDecompressor(.bzip2) }
    return nil
  }
}

extension GzipDecoder: StreamDecompressor {
  var format: String { "gzip" }

  mutating func nextPiece(limit: Int) throws(DecompressionFailure) -> [UInt8]? {
    do throws(InflateError) {
      return try nextChunk(limit: limit)
    } catch {
      throw DecompressionFailure(description: error.description)
    }
  }
}

extension ZstdStream: StreamDecompressor {
  var format: String { "zstd" }

  mutating func nextPiece(limit: Int) throws(DecompressionFailure) -> [UInt8]? {
    do throws(Zstd.Failure) {
      return try nextChunk(limit: limit)
    } catch {
      // (A step that fails consumes nothing: the offset is where it starts.)
      throw DecompressionFailure(description: error.message, offset: offset)
    }
  }
}
