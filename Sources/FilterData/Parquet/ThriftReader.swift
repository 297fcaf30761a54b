/// A reader of Thrift's compact protocol, in which Parquet writes its metadata (the footer,
/// page headers): structs of numbered fields, varints (zigzag for signed), lists, strings.
///
/// Every read is checked against the end of the bytes and the nesting against ``maxDepth``;
/// what does not parse throws a ``ThriftError`` instead of trapping, whatever the bytes.
struct ThriftReader {
  /// The types of the compact protocol, as a field header or a list header gives them.
  enum FieldType: UInt8 {
    case boolTrue = 1
    case boolFalse = 2
    case byte = 3
    case i16 = 4
    case i32 = 5
    case i64 = 6
    case double = 7
    case binary = 8
    case list = 9
    case set = 10
    case map = 11
    case structure = 12
  }

  /// Why the bytes are not a Thrift struct of the expected shape.
  struct ThriftError: Error, Equatable {
    var message: String
  }

  /// The deepest nesting of structs and lists read (Parquet's own is a few levels).
  static let maxDepth = 64

  private let bytes: UnsafeRawBufferPointer
  /// Where the next byte is read.
  private(set) var position: Int
  private var depth = 0

  /// A reader of `bytes` from `start`.
  init(_ bytes: UnsafeRawBufferPointer, from start: Int = 0) {
    self.bytes = bytes
    position = start
  }

  private mutating func byte() throws(ThriftError) -> UInt8 {
    guard position < bytes.count else { throw ThriftError(message: "the metadata ends early") }
    defer { position += 1 }
    return bytes[position]
  }

  /// An unsigned varint of at most 64 bits.
  mutating func varint() throws(ThriftError) -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte()
      guard shift < 64 else { throw ThriftError(message: "a number in the metadata is too long") }
      result |= UInt64(next & 0x7F) << shift
      if next & 0x80 == 0 { return result }
      shift += 7
    }
  }

  /// A zigzag varint (i16, i32 and i64 alike).
  mutating func int() throws(ThriftError) -> Int64 {
    let raw = try varint()
    return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
  }

  /// A zigzag varint that must fit 32 bits.
  mutating func int32() throws(ThriftError) -> Int32 {
    let value = try int()
    guard let narrow = Int32(exactly: value) else {
      throw ThriftError(message: "a 32-bit number in the metadata is \(value)")
    }
    return narrow
  }

  /// A bool as a list holds it: a byte, 1 for true.
  mutating func listedBool() throws(ThriftError) -> Bool { try byte() == 1 }

  /// A little-endian IEEE double.
  mutating func double() throws(ThriftError) -> Double {
    var raw: UInt64 = 0
    for shift in stride(from: 0, to: 64, by: 8) { raw |= UInt64(try byte()) << UInt64(shift) }
    return Double(bitPattern: raw)
  }

  /// Bytes prefixed by their length (a varint).
  mutating func binary() throws(ThriftError) -> [UInt8] {
    let length = try varint()
    guard length <= UInt64(bytes.count - position) else {
      throw ThriftError(message: "a text in the metadata runs past its end")
    }
    defer { position += Int(length) }
    return Array(bytes[position..<position + Int(length)])
  }

  /// A string (its bytes as UTF-8, invalid sequences replaced).
  mutating func string() throws(ThriftError) -> String {
    String(decoding: try binary(), as: UTF8.self)
  }

  /// Reads a struct: `field` is called with each field's id and type, and must read its value
  /// (or call ``skip(_:)``). Field ids are deltas from the previous field's, or given whole.
  mutating func structure(
    _ field: (inout ThriftReader, Int16, FieldType) throws(ThriftError) -> Void
  ) throws(ThriftError) {
    depth += 1
    defer { depth -= 1 }
    guard depth <= ThriftReader.maxDepth else {
      throw ThriftError(message: "the metadata nests deeper than \(ThriftReader.maxDepth) levels")
    }
    var last: Int16 = 0
    while true {
      let header = try byte()
      if header == 0 { return }
      guard let type = FieldType(rawValue: header & 0x0F) else {
        throw ThriftError(message: "unknown field type \(header & 0x0F) in the metadata")
      }
      let delta = Int16(header >> 4)
      let id: Int16
      if delta == 0 {
        guard let whole = Int16(exactly: try int()) else {
          throw ThriftError(message: "a field id in the metadata is out of range")
        }
        id = whole
      } else {
        id = last &+ delta
      }
      last = id
      let start = position
      try field(&self, id, type)
      // (A field reader that read nothing of a value that has bytes skips it.)
      if position == start && type != .boolTrue && type != .boolFalse { try skip(type) }
    }
  }

  /// A list's element type and size, from its header.
  mutating func listHeader() throws(ThriftError) -> (FieldType, Int) {
    let header = try byte()
    guard let type = FieldType(rawValue: header & 0x0F) else {
      throw ThriftError(message: "unknown element type \(header & 0x0F) in the metadata")
    }
    var count = Int(header >> 4)
    if count == 15 {
      let long = try varint()
      // Each element takes a byte at least (an empty struct, a small number).
      guard long <= UInt64(bytes.count - position) else {
        throw ThriftError(message: "a list in the metadata is longer than the metadata")
      }
      count = Int(long)
    }
    return (type, count)
  }

  /// A list whose elements `element` reads.
  mutating func list<T>(_ element: (inout ThriftReader, FieldType) throws(ThriftError) -> T)
    throws(ThriftError) -> [T]
  {
    let (type, count) = try listHeader()
    depth += 1
    defer { depth -= 1 }
    guard depth <= ThriftReader.maxDepth else {
      throw ThriftError(message: "the metadata nests deeper than \(ThriftReader.maxDepth) levels")
    }
    var items: [T] = []
    items.reserveCapacity(Swift.min(count, 4096))
    for _ in 0..<count { items.append(try element(&self, type)) }
    return items
  }

  /// Passes over a value of `type`.
  mutating func skip(_ type: FieldType) throws(ThriftError) {
    switch type {
    case .boolTrue, .boolFalse:
      // A bool in a list is a byte; in a field header, nothing (this is called for neither
      // by `structure`).
      _ = try byte()
    case .byte: _ = try byte()
    case .i16, .i32, .i64: _ = try varint()
    case .double: _ = try double()
    case .binary: _ = try binary()
    case .list, .set:
      _ = try list { (reader, type) throws(ThriftError) in try reader.skip(type) }
    case .map:
      let count = try varint()
      guard count > 0 else { return }
      guard count <= UInt64(bytes.count - position) else {
        throw ThriftError(message: "a map in the metadata is longer than the metadata")
      }
      let types = try byte()
      guard let key = FieldType(rawValue: types >> 4), let value = FieldType(rawValue: types & 0x0F)
      else { throw ThriftError(message: "unknown map types in the metadata") }
      for _ in 0..<count {
        try skip(key)
        try skip(value)
      }
    case .structure:
      try structure { (reader, _, type) throws(ThriftError) in try reader.skip(type) }
    }
  }
}
