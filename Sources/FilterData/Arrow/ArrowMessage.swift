/// A message of Arrow's IPC format (`Message.fbs`): a schema, a dictionary batch or a record
/// batch, and the length of the body that follows its metadata.
enum ArrowMessage {
  case schema(ArrowSchema)
  /// A dictionary's values (or more of them, when `isDelta`), for the fields coded by `id`.
  case dictionary(id: Int64, batch: ArrowBatchHeader, isDelta: Bool)
  case recordBatch(ArrowBatchHeader)
  /// A message flt has no use for (a tensor).
  case other

  /// The message whose FlatBuffers metadata is `metadata`, and its body's length.
  static func parse(_ metadata: [UInt8]) throws(ArrowError) -> (ArrowMessage, body: Int) {
    let message = try FlatBuffer(metadata).root()
    let body = try message.integer(3, Int64.self)
    guard body >= 0, let bodyLength = Int(exactly: body) else {
      throw ArrowError("has a message whose body is \(body) bytes long")
    }
    let header = try message.table(2)
    switch try message.integer(1, UInt8.self) {
    case 1:
      guard let header else { throw ArrowError("has a schema message without its schema") }
      return (.schema(try ArrowSchema(header)), bodyLength)
    case 2:
      guard let header, let data = try header.table(1) else {
        throw ArrowError("has a dictionary batch without its data")
      }
      return (
        .dictionary(
          id: try header.integer(0, Int64.self), batch: try ArrowBatchHeader(data),
          isDelta: try header.bool(2)),
        bodyLength
      )
    case 3:
      guard let header else { throw ArrowError("has a record batch without its header") }
      return (.recordBatch(try ArrowBatchHeader(header)), bodyLength)
    default:
      return (.other, bodyLength)
    }
  }
}

/// What a record batch's metadata says of its body: its rows, each array's length and nulls
/// (in the schema's order, depth first), where each buffer lies, and how they are compressed.
struct ArrowBatchHeader {
  /// How many rows the batch has.
  var length: Int
  /// Each array's length and count of nulls.
  var nodes: [(length: Int, nulls: Int)]
  /// Each buffer's place in the body.
  var buffers: [Range<Int>]
  /// How each buffer is compressed, nil when none is.
  var codec: ArrowCodec?
  /// How many data buffers each array of views has, in order.
  var variadicCounts: [Int]

  /// The header the `RecordBatch` table `table` describes.
  init(_ table: FlatTable) throws(ArrowError) {
    let rows = try table.integer(0, Int64.self)
    guard rows >= 0, let length = Int(exactly: rows) else {
      throw ArrowError("has a record batch of \(rows) rows")
    }
    self.length = length
    nodes = []
    for node in try table.structs(1, words: 2) {
      guard node[0] >= 0, node[1] >= 0, let length = Int(exactly: node[0]),
        let nulls = Int(exactly: node[1])
      else { throw ArrowError("has an array of \(node[0]) values, \(node[1]) of them null") }
      nodes.append((length, nulls))
    }
    buffers = []
    for buffer in try table.structs(2, words: 2) {
      let (start, count) = (buffer[0], buffer[1])
      guard start >= 0, count >= 0, start <= Int64.max - count else {
        throw ArrowError("has a buffer at byte \(start) of \(count) bytes")
      }
      buffers.append(Int(start)..<Int(start + count))
    }
    if let compression = try table.table(3) {
      switch try compression.integer(0, Int8.self) {
      case 0: codec = .lz4Frame
      case 1: codec = .zstd
      case let other:
        throw ArrowError("has buffers compressed by codec \(other), which flt does not know")
      }
    }
    variadicCounts = []
    for count in try table.longs(4) {
      guard count >= 0, count < 1 << 31 else { throw ArrowError("has \(count) data buffers") }
      variadicCounts.append(Int(count))
    }
  }
}

/// How Arrow compresses a batch's buffers, each on its own.
enum ArrowCodec {
  case lz4Frame, zstd
}
