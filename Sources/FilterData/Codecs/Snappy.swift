/// Decompression of Snappy's raw format (the block format; Parquet's `SNAPPY` codec): the
/// uncompressed length as a varint, then literals and copies of earlier output. Written from
/// the format's description; every length and offset is checked, so corrupt input throws
/// rather than reading or writing out of bounds.
enum Snappy {
  struct Failure: Error, Equatable {
    var message: String
  }

  /// The bytes `compressed` holds, which must be `expected` long when given.
  static func decompress(_ compressed: UnsafeRawBufferPointer, expected: Int? = nil)
    throws(Failure) -> [UInt8]
  {
    var input = 0
    func byte() throws(Failure) -> Int {
      guard input < compressed.count else { throw Failure(message: "snappy data ends early") }
      defer { input += 1 }
      return Int(compressed[input])
    }
    // The length: a varint of at most 32 bits.
    var length = 0
    var shift = 0
    while true {
      let next = try byte()
      guard shift <= 28 else { throw Failure(message: "snappy length is too long") }
      length |= (next & 0x7F) << shift
      if next & 0x80 == 0 { break }
      shift += 7
    }
    if let expected, expected != length {
      throw Failure(message: "snappy data says \(length) bytes where the page says \(expected)")
    }
    // Every byte of output takes at most a byte of input with copies of 64 bytes from 3:
    // a length far beyond that is corrupt (and would allocate for nothing).
    guard length <= compressed.count &* 22 &+ 64 else {
      throw Failure(message: "snappy length \(length) is more than its data can hold")
    }
    var output = [UInt8](repeating: 0, count: length)
    var written = 0
    try output.withUnsafeMutableBufferPointer { (out) throws(Failure) in
      while input < compressed.count {
        let tag = try byte()
        switch tag & 3 {
        case 0:
          // A literal: its length in the tag, or in the 1-4 bytes after it.
          var size = tag >> 2
          if size >= 60 {
            let extra = size - 59
            size = 0
            for index in 0..<extra { size |= try byte() << (8 * index) }
          }
          size += 1
          guard size <= compressed.count - input, size <= length - written else {
            throw Failure(message: "a snappy literal runs past the data")
          }
          for index in 0..<size { out[written + index] = compressed[input + index] }
          input += size
          written += size
        default:
          let (size, offset): (Int, Int)
          switch tag & 3 {
          case 1:
            size = ((tag >> 2) & 7) + 4
            offset = ((tag >> 5) << 8) | (try byte())
          case 2:
            size = (tag >> 2) + 1
            offset = try byte() | (try byte() << 8)
          default:
            size = (tag >> 2) + 1
            offset = try byte() | (try byte() << 8) | (try byte() << 16) | (try byte() << 24)
          }
          guard offset > 0, offset <= written, size <= length - written else {
            throw Failure(message: "a snappy copy reaches outside the output")
          }
          // Byte by byte: a copy may overlap what it writes (a run).
          for index in 0..<size { out[written + index] = out[written - offset + index] }
          written += size
        }
      }
    }
    guard written == length else {
      throw Failure(message: "snappy data gives \(written) bytes where it says \(length)")
    }
    return output
  }
}
