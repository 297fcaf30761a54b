/// The messages of an Arrow file or stream, each with its body: a file's dictionaries and
/// record batches where its footer says they lie, or a stream's messages in turn.
///
/// A message is a continuation marker (`FF FF FF FF`; streams written before Arrow 0.15 lack
/// it), the length of its metadata, the metadata (FlatBuffers), and its body; a stream ends
/// at a length of 0 or at the end of its bytes. A file is `ARROW1`, two bytes of padding, a
/// stream, the footer (FlatBuffers), the footer's length and `ARROW1` again.
final class ArrowMessages {
  enum Kind {
    /// A file read at offsets: where its dictionaries and record batches lie.
    case file(RandomAccessFile, dictionaries: [Block], batches: [Block])
    /// A stream read in turn (it is read once).
    case stream(ByteInput)
  }

  /// Where a file's message lies: its first byte, the bytes of its metadata (marker and
  /// length included) and of its body.
  struct Block {
    var offset: Int
    var metadata: Int
    var body: Int
  }

  static let fileMagic = Array("ARROW1".utf8)

  let kind: Kind
  private(set) var bytesRead = 0

  private init(_ kind: Kind) { self.kind = kind }

  /// The file's size; nil for a stream.
  var size: Int? {
    if case .file(let file, _, _) = kind { return file.size }
    return nil
  }

  /// The messages of the Arrow file `file`, and its schema (from its footer).
  static func file(_ file: RandomAccessFile) throws(ArrowError) -> (ArrowMessages, ArrowSchema) {
    let size = file.size
    guard size >= 18, let tail = file.bytes(at: size - 10, count: 10),
      Array(tail[4...]) == fileMagic
    else { throw ArrowError("is not an Arrow file: it does not end as one does (ARROW1)") }
    let length = Int(
      Int32(
        bitPattern: UInt32(tail[0]) | UInt32(tail[1]) << 8 | UInt32(tail[2]) << 16 | UInt32(tail[3])
          << 24))
    guard length > 0, length <= size - 18,
      let bytes = file.bytes(at: size - 10 - length, count: length)
    else { throw ArrowError("has a footer of \(length) bytes, which does not fit the file") }
    let footer = try FlatBuffer(bytes).root()
    guard let schemaTable = try footer.table(1) else {
      throw ArrowError("has a footer without its schema")
    }
    func blocks(_ number: Int) throws(ArrowError) -> [Block] {
      var blocks: [Block] = []
      for block in try footer.structs(number, words: 3) {
        let metadata = Int64(Int32(truncatingIfNeeded: block[1]))
        guard block[0] >= 0, metadata >= 0, block[2] >= 0, block[0] < Int64(size),
          metadata <= Int64(size) - block[0], block[2] <= Int64(size) - block[0] - metadata
        else {
          throw ArrowError("has a footer whose blocks lie outside the file")
        }
        blocks.append(Block(offset: Int(block[0]), metadata: Int(metadata), body: Int(block[2])))
      }
      return blocks
    }
    let messages = ArrowMessages(
      .file(file, dictionaries: try blocks(2), batches: try blocks(3)))
    return (messages, try ArrowSchema(schemaTable))
  }

  /// The messages of the stream `input` (a file's stream is passed its magic first), and its
  /// schema (its first message).
  static func stream(_ input: ByteInput) throws(ArrowError) -> (ArrowMessages, ArrowSchema) {
    let messages = ArrowMessages(.stream(input))
    let first: [UInt8]
    do { first = try input.peek(8) } catch { throw ArrowError(error) }
    if first.starts(with: fileMagic) { _ = try messages.read(8, from: input) }
    guard let (first, _) = try messages.next(from: input) else {
      throw ArrowError("is empty: an Arrow stream begins with its schema")
    }
    guard case .schema(let schema) = first else {
      throw ArrowError("does not begin with a schema, as an Arrow stream does")
    }
    return (messages, schema)
  }

  /// Calls `body` with each dictionary and record batch message and its body, in order,
  /// until it returns false. A body that would take the process past `limit` (resident
  /// bytes) is refused before it is read.
  /// `wanted` is asked of each message of a file before its body is read: a message it does
  /// not want is passed over, its body unread.
  func forEach(
    limit: Int?, wanted: (ArrowMessage) -> Bool = { _ in true },
    _ body: (ArrowMessage, [UInt8]) throws -> Bool
  ) throws {
    switch kind {
    case .file(let file, let dictionaries, let batches):
      for block in dictionaries + batches {
        let (message, length) = try header(block, of: file)
        guard wanted(message) else { continue }
        guard try body(message, try self.body(block, length, of: file, limit: limit)) else {
          return
        }
      }
    case .stream(let input):
      while let (message, data) = try next(from: input, limit: limit) {
        guard try body(message, data) else { return }
      }
    }
  }

  /// How many rows the file's record batches have (from their headers alone).
  func rowCount() throws(ArrowError) -> Int? {
    guard case .file(let file, _, let batches) = kind else { return nil }
    var total = 0
    for block in batches {
      guard case .recordBatch(let header) = try header(block, of: file).message
      else { throw ArrowError("has a footer that points at a message that is not a record batch") }
      let (sum, overflow) = total.addingReportingOverflow(header.length)
      guard !overflow else { throw ArrowError("has more rows than flt can count") }
      total = sum
    }
    return total
  }

  /// The message at `block` of `file`, and the length of its body.
  private func header(_ block: Block, of file: RandomAccessFile) throws(ArrowError)
    -> (message: ArrowMessage, body: Int)
  {
    guard let prefix = file.bytes(at: block.offset, count: block.metadata) else {
      throw ArrowError("has a message outside the file (byte \(block.offset))")
    }
    var start = 0
    if prefix.starts(with: [0xFF, 0xFF, 0xFF, 0xFF]) { start = 4 }
    guard prefix.count >= start + 4 else {
      throw ArrowError("has a message without metadata at byte \(block.offset)")
    }
    let length = Int(Self.word(prefix, at: start))
    guard length >= 0, length <= prefix.count - start - 4 else {
      throw ArrowError("has a message at byte \(block.offset) whose metadata runs past its block")
    }
    let parsed = try ArrowMessage.parse(Array(prefix[(start + 4)..<(start + 4 + length)]))
    guard parsed.body <= block.body else {
      throw ArrowError("has a message at byte \(block.offset) whose body runs past its block")
    }
    return parsed
  }

  /// The `length` bytes of the body of the message at `block` of `file`, refused when they
  /// would take the process past `limit`.
  private func body(_ block: Block, _ length: Int, of file: RandomAccessFile, limit: Int?)
    throws(ArrowError) -> [UInt8]
  {
    try Self.checkMemory(length, limit: limit)
    guard let data = file.bytes(at: block.offset + block.metadata, count: length) else {
      throw ArrowError("has a message at byte \(block.offset) whose body lies outside the file")
    }
    bytesRead += block.metadata + length
    return data
  }

  /// The next message of the stream `input` and its body; nil at its end.
  private func next(from input: ByteInput, limit: Int? = nil) throws(ArrowError)
    -> (ArrowMessage, [UInt8])?
  {
    let at = bytesRead
    var first = try read(4, from: input)
    if first.isEmpty { return nil }
    guard first.count == 4 else {
      throw ArrowError("ends early, in a message's header (byte \(at))")
    }
    if first == [0xFF, 0xFF, 0xFF, 0xFF] {
      first = try read(4, from: input)
      if first.isEmpty { return nil }
      guard first.count == 4 else {
        throw ArrowError("ends early, in a message's header (byte \(at))")
      }
    }
    let length = Int(Int32(bitPattern: Self.word(first, at: 0)))
    if length == 0 { return nil }
    guard length > 0 else { throw ArrowError("has a message of \(length) bytes at byte \(at)") }
    let metadata = try read(length, from: input)
    guard metadata.count == length else {
      throw ArrowError("ends early, in the metadata of the message at byte \(at)")
    }
    let (message, bodyLength) = try ArrowMessage.parse(metadata)
    try Self.checkMemory(bodyLength, limit: limit)
    let body = try read(bodyLength, from: input)
    guard body.count == bodyLength else {
      throw ArrowError(
        "ends early, in the body of the message at byte \(at) (\(body.count) of \(bodyLength) bytes)"
      )
    }
    return (message, body)
  }

  /// `count` bytes of `input`, fewer at its end.
  private func read(_ count: Int, from input: ByteInput) throws(ArrowError) -> [UInt8] {
    do {
      let bytes = try input.read(exactly: count)
      bytesRead += bytes.count
      return bytes
    } catch {
      throw ArrowError(error)
    }
  }

  /// Throws when `what` (a batch's body, a buffer), of `count` bytes, would take the process
  /// past `limit` (resident bytes; nil: no limit).
  static func checkMemory(_ count: Int, limit: Int?, what: String = "a batch")
    throws(ArrowError)
  {
    guard let limit, let (_, resident) = ProcessMemory.values(count, of: 1, past: limit) else {
      return
    }
    throw ArrowError(
      "has \(what) of \(ProcessMemory.describe(count)), past the memory limit of \(ProcessMemory.describe(limit)) (flt holds \(ProcessMemory.describe(resident))); raise the limit (--max-memory, set memory)"
    )
  }

  private static func word(_ bytes: [UInt8], at start: Int) -> UInt32 {
    UInt32(bytes[start]) | UInt32(bytes[start + 1]) << 8 | UInt32(bytes[start + 2]) << 16
      | UInt32(bytes[start + 3]) << 24
  }
}

extension ArrowError {
  /// A stream's error, said as the data's.
  init(_ error: DataError) { self.init(error.diagnostic.message) }
}
