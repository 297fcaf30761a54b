/// Buffered output to a file descriptor (standard output, or a file being written), or to
/// memory.
public final class OutputSink {
  private let descriptor: Int32?
  private var buffer: [UInt8] = []
  /// Set when a write failed; later writes are dropped.
  public private(set) var failure: String?
  /// What an in-memory stream has received.
  public private(set) var collected: [UInt8] = []

  /// Output to `descriptor` (1 for standard output).
  public init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(1 << 16)
  }

  /// Output kept in memory, in ``collected`` (for tests, and for callers that want text).
  public init() {
    descriptor = nil
  }

  /// What an in-memory stream has received, as text.
  public var text: String {
    flush()
    return String(decoding: collected, as: UTF8.self)
  }

  /// Appends bytes, writing them out when the buffer is full.
  public func write(_ bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.size { flush() }
  }

  /// Appends bytes, writing them out when the buffer is full; bytes that would fill it alone
  /// (a record of a 300 MB value) are written out as they are, not copied into it.
  public func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { write($0) }
  }

  /// Appends bytes, written out as they are when they would fill the buffer alone.
  public func write(_ bytes: ArraySlice<UInt8>) {
    bytes.withUnsafeBytes { write($0) }
  }

  /// Appends text (its UTF-8 bytes), written out as it is when it would fill the buffer alone.
  public func write(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }

  private func write(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= Self.size, let descriptor else {
      buffer.append(contentsOf: bytes)
      if buffer.count >= Self.size { flush() }
      return
    }
    flush()
    if failure == nil { failure = Descriptor.write(bytes, to: descriptor) }
  }

  /// How many bytes are buffered before they are written out.
  private static var size: Int { 1 << 16 }

  /// Writes out what is buffered.
  public func flush() {
    // (A buffer grown by a long write to memory is not kept at that size.)
    defer { buffer.removeAll(keepingCapacity: buffer.capacity <= 4 * Self.size) }
    guard failure == nil else { return }
    guard let descriptor else {
      collected += buffer
      return
    }
    failure = buffer.withUnsafeBytes { Descriptor.write($0, to: descriptor) }
  }
}
