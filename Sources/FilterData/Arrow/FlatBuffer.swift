/// A reader of FlatBuffers, in which Arrow writes its metadata (schemas, the headers of record
/// and dictionary batches, a file's footer): tables whose fields a vtable locates, offsets to
/// tables, vectors and strings, and structs stored inline.
///
/// Every position is checked against the bytes before it is read, and a table's nesting
/// against ``maxDepth``; what does not fit throws an ``ArrowError`` instead of trapping,
/// whatever the bytes.
struct FlatBuffer {
  let bytes: [UInt8]

  /// The deepest nesting of tables read (Arrow's schemas nest a table per level of a field).
  static let maxDepth = 200

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The table the buffer's first word points at.
  func root() throws(ArrowError) -> FlatTable {
    try FlatTable(self, at: try offset(at: 0), depth: 0)
  }

  /// The little-endian `T` at `position`.
  func load<T: FixedWidthInteger>(_ type: T.Type, at position: Int) throws(ArrowError) -> T {
    let size = MemoryLayout<T>.size
    guard position >= 0, position <= bytes.count - size else {
      throw ArrowError("the metadata ends early (a value at byte \(position) of \(bytes.count))")
    }
    var value: T = 0
    for index in 0..<size { value |= T(truncatingIfNeeded: bytes[position + index]) << (8 * index) }
    return value
  }

  /// The position an unsigned 32-bit offset stored at `position` points at.
  func offset(at position: Int) throws(ArrowError) -> Int {
    let target = position + Int(try load(UInt32.self, at: position))
    guard target < bytes.count else {
      throw ArrowError("the metadata points past its end (byte \(target) of \(bytes.count))")
    }
    return target
  }
}

/// A table of a ``FlatBuffer``: its fields by number, each present or not (then its default).
struct FlatTable {
  let buffer: FlatBuffer
  let position: Int
  private let vtable: Int
  private let vtableSize: Int
  let depth: Int

  init(_ buffer: FlatBuffer, at position: Int, depth: Int) throws(ArrowError) {
    guard depth < FlatBuffer.maxDepth else {
      throw ArrowError("the metadata nests more than \(FlatBuffer.maxDepth) levels deep")
    }
    (self.buffer, self.position, self.depth) = (buffer, position, depth)
    let (start, overflow) = position.subtractingReportingOverflow(
      Int(try buffer.load(Int32.self, at: position)))
    guard !overflow else { throw ArrowError("the metadata has a table with no vtable") }
    vtable = start
    vtableSize = Int(try buffer.load(UInt16.self, at: start))
    guard vtableSize >= 4 else {
      throw ArrowError("the metadata has a vtable of \(vtableSize) bytes")
    }
  }

  /// Where field `number` is stored, nil when the table leaves it out.
  private func field(_ number: Int) throws(ArrowError) -> Int? {
    let entry = 4 + 2 * number
    guard entry + 2 <= vtableSize else { return nil }
    let offset = Int(try buffer.load(UInt16.self, at: vtable + entry))
    return offset == 0 ? nil : position + offset
  }

  /// Field `number` as an integer of type `T`, or `fallback` when left out.
  func integer<T: FixedWidthInteger>(_ number: Int, _ type: T.Type, or fallback: T = 0)
    throws(ArrowError) -> T
  {
    guard let at = try field(number) else { return fallback }
    return try buffer.load(T.self, at: at)
  }

  /// Field `number` as a true-or-false value, or `fallback`.
  func bool(_ number: Int, or fallback: Bool = false) throws(ArrowError) -> Bool {
    try integer(number, UInt8.self, or: fallback ? 1 : 0) != 0
  }

  /// The table field `number` points at, nil when left out.
  func table(_ number: Int) throws(ArrowError) -> FlatTable? {
    guard let at = try field(number) else { return nil }
    return try FlatTable(buffer, at: try buffer.offset(at: at), depth: depth + 1)
  }

  /// The text field `number` points at, nil when left out.
  func string(_ number: Int) throws(ArrowError) -> String? {
    guard let (start, count) = try vector(number, elementSize: 1) else { return nil }
    return String(decoding: buffer.bytes[start..<start + count], as: UTF8.self)
  }

  /// Where the elements of the vector field `number` points at begin, and how many there are
  /// (each `elementSize` bytes, all within the buffer); nil when left out.
  func vector(_ number: Int, elementSize: Int) throws(ArrowError) -> (start: Int, count: Int)? {
    guard let at = try field(number) else { return nil }
    let start = try buffer.offset(at: at)
    let count = Int(try buffer.load(UInt32.self, at: start))
    guard count <= (buffer.bytes.count - start - 4) / elementSize else {
      throw ArrowError("the metadata has a list of \(count) entries longer than itself")
    }
    return (start + 4, count)
  }

  /// The tables of the vector field `number` (empty when left out).
  func tables(_ number: Int) throws(ArrowError) -> [FlatTable] {
    guard let (start, count) = try vector(number, elementSize: 4) else { return [] }
    var tables: [FlatTable] = []
    for index in 0..<count {
      let at = try buffer.offset(at: start + 4 * index)
      tables.append(try FlatTable(buffer, at: at, depth: depth + 1))
    }
    return tables
  }

  /// The structs of `fields` 8-byte integers each, of the vector field `number` (Arrow's
  /// field nodes, buffers and blocks are such structs).
  func structs(_ number: Int, words: Int) throws(ArrowError) -> [[Int64]] {
    guard let (start, count) = try vector(number, elementSize: 8 * words) else { return [] }
    var structs: [[Int64]] = []
    structs.reserveCapacity(count)
    for index in 0..<count {
      var words64: [Int64] = []
      for word in 0..<words {
        words64.append(try buffer.load(Int64.self, at: start + 8 * (index * words + word)))
      }
      structs.append(words64)
    }
    return structs
  }

  /// The 8-byte integers of the vector field `number` (empty when left out).
  func longs(_ number: Int) throws(ArrowError) -> [Int64] {
    try structs(number, words: 1).map { $0[0] }
  }

  /// The 4-byte integers of the vector field `number` (empty when left out).
  func ints(_ number: Int) throws(ArrowError) -> [Int32] {
    guard let (start, count) = try vector(number, elementSize: 4) else { return [] }
    var values: [Int32] = []
    for index in 0..<count { values.append(try buffer.load(Int32.self, at: start + 4 * index)) }
    return values
  }
}

/// What is wrong with Arrow data, in words (the source adds the file).
struct ArrowError: Error, Equatable {
  var message: String
  init(_ message: String) { self.message = message }
}
