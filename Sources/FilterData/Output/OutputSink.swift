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
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Appends text.
  public func write(_ text: String) { write(text.utf8) }

  /// Writes out what is buffered.
  public func flush() {
    defer { buffer.removeAll(keepingCapacity: true) }
    guard failure == nil else { return }
    guard let descriptor else {
      collected += buffer
      return
    }
    failure = buffer.withUnsafeBytes { Descriptor.write($0, to: descriptor) }
  }
}
