/// An array of a record batch: a field's values as the batch lays them out (its node's length
/// and nulls, its buffers by their numbers in the batch, and its children's arrays).
struct ArrowArray {
  let field: ArrowField
  let length: Int
  let nulls: Int
  /// The numbers of its buffers in the batch (validity first, where it has one).
  let buffers: [Int]
  let children: [ArrowArray]

  /// The arrays of `fields` in a batch laid out as `header` says: nodes and buffers are taken
  /// in the schema's order, depth first. A dictionary-coded field's array holds its indexes
  /// (its values are in the dictionary's batch).
  static func arrays(of fields: [ArrowField], in header: ArrowBatchHeader) throws(ArrowError)
    -> [ArrowArray]
  {
    var layout = Layout(header: header)
    var arrays: [ArrowArray] = []
    for field in fields { arrays.append(try layout.array(field)) }
    return arrays
  }

  /// Takes nodes and buffers in turn.
  private struct Layout {
    let header: ArrowBatchHeader
    var node = 0
    var buffer = 0
    var variadic = 0

    init(header: ArrowBatchHeader) { self.header = header }

    mutating func array(_ field: ArrowField) throws(ArrowError) -> ArrowArray {
      guard node < header.nodes.count else {
        throw ArrowError("has a record batch with fewer arrays than its schema has fields")
      }
      let (length, nulls) = header.nodes[node]
      node += 1
      var count: Int
      var children: [ArrowField] = []
      if field.dictionary != nil {
        count = 2
      } else {
        switch field.type {
        case .null: count = 0
        case .structure, .fixedList: count = 1
        case .utf8(.views), .binary(.views):
          guard variadic < header.variadicCounts.count else {
            throw ArrowError("has a column of views without a count of its data buffers")
          }
          count = 2 + header.variadicCounts[variadic]
          variadic += 1
        case .utf8, .binary: count = 3
        case .list(.views): count = 3
        case .list, .map: count = 2
        default: count = 2
        }
        children = field.children
      }
      guard count <= header.buffers.count - buffer else {
        throw ArrowError("has a record batch with fewer buffers than its schema needs")
      }
      let buffers = Array(buffer..<buffer + count)
      buffer += count
      var arrays: [ArrowArray] = []
      for child in children { arrays.append(try array(child)) }
      return ArrowArray(
        field: field, length: length, nulls: nulls, buffers: buffers, children: arrays)
    }
  }
}

/// A buffer of a batch, decompressed: `range` of `storage`.
struct ArrowBuffer: @unchecked Sendable {
  let storage: [UInt8]
  let range: Range<Int>

  var count: Int { range.count }

  static let empty = ArrowBuffer(storage: [], range: 0..<0)

  /// The buffer `place` of `body` (a range of it), decompressed by `codec` when given: each
  /// compressed buffer starts with its length uncompressed (8 bytes; -1 when it was left
  /// uncompressed). A buffer whose length uncompressed would take the process past
  /// `memoryLimit` (resident bytes) is refused before it is decompressed.
  init(_ body: [UInt8], _ place: Range<Int>, codec: ArrowCodec?, memoryLimit: Int?)
    throws(ArrowError)
  {
    guard place.upperBound <= body.count else {
      throw ArrowError(
        "has a buffer (bytes \(place)) past the end of its batch (\(body.count) bytes)")
    }
    guard let codec, !place.isEmpty else {
      self.init(storage: body, range: place)
      return
    }
    guard place.count >= 8 else {
      throw ArrowError("has a compressed buffer of \(place.count) bytes")
    }
    var claimed: Int64 = 0
    for index in 0..<8 { claimed |= Int64(body[place.lowerBound + index]) << (8 * index) }
    let data = (place.lowerBound + 8)..<place.upperBound
    if claimed == -1 {
      self.init(storage: body, range: data)
      return
    }
    guard claimed >= 0, let expected = Int(exactly: claimed) else {
      throw ArrowError("has a compressed buffer that claims \(claimed) bytes")
    }
    try ArrowMessages.checkMemory(expected, limit: memoryLimit, what: "a compressed buffer")
    let result: Result<[UInt8], ArrowError> = body.withUnsafeBytes { raw in
      let input = UnsafeRawBufferPointer(rebasing: raw[data])
      switch codec {
      case .lz4Frame:
        return Result { () throws(LZ4.Failure) in
          try LZ4.decompressFrames(input, expected: expected)
        }
        .mapError { ArrowError("has a buffer whose LZ4 data is damaged: \($0.message)") }
      case .zstd:
        return Result { () throws(Zstd.Failure) in try Zstd.decompress(input, expected: expected) }
          .mapError { ArrowError("has a buffer whose zstd data is damaged: \($0.message)") }
      }
    }
    let bytes = try result.get()
    self.init(storage: bytes, range: 0..<bytes.count)
  }

  init(storage: [UInt8], range: Range<Int>) {
    (self.storage, self.range) = (storage, range)
  }

  /// `body` with the buffer's bytes.
  func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(ArrowError) -> R) throws(ArrowError)
    -> R
  {
    let result: Result<R, ArrowError> = storage.withUnsafeBytes { raw in
      Result { () throws(ArrowError) in try body(UnsafeRawBufferPointer(rebasing: raw[range])) }
    }
    return try result.get()
  }
}
