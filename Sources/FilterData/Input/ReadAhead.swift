import Dispatch

/// The next block of a gzip file, decoded on a thread of its own while the reader parses the
/// buffer before it: the reader's next buffer, made ready (a load of gzip JSON Lines 1.83 ->
/// 1.46 s: decoding takes longer than parsing). The reader guesses which of the buffer's
/// bytes it will keep for the next one (the record cut off by its end, and the line before
/// it); the block is read after a copy of them into a buffer of their own, which takes the
/// place of the reader's when the guess was right. When it was wrong (a record over several
/// lines), ``Block/buffer(keeping:of:)`` copies: the bytes are the same either way.
///
/// The read is a job that runs once, on the thread started for it or on the reader's, when
/// it needs the block before that thread began. Until the job has run, the input belongs to
/// it; the reader touches it again only after ``block()`` (or in ``withInput(_:)``).
///
/// A file that is not compressed is not read ahead: a read is a copy from the system's
/// cache, which on another thread, or on a core done with its part of the buffer, took the
/// cores and caches the parts need (loads no faster, or slower). Nor is a stream: its reads
/// wait for its bytes, and what has come is handed over at once.
final class ReadAhead: @unchecked Sendable {
  // Unchecked: the input is used by `run()` alone, under `lock`, until it has run (and then
  // by `withInput(_:)` under it); `done` is written once, under `lock`, and read under it.
  private let input: ByteInput
  private let buffer: [UInt8]
  private let from: Int
  private let count: Int
  private let lock = DispatchSemaphore(value: 1)
  private var done: Block?

  /// The block read.
  struct Block {
    /// Where the bytes the read guessed would be kept start, in the buffer it followed.
    let from: Int
    /// Those bytes, then the block.
    let bytes: [UInt8]
    /// How many bytes the block has (0: the input has ended).
    let read: Int
    /// The error the read met, said when the block is taken (the reader's read would have
    /// met it there).
    let failure: DataError?

    /// The buffer that follows `buffer` when the reader keeps `buffer[keep...]`: the bytes
    /// read ahead as they are when they start there, else those kept and the block.
    func buffer(keeping keep: Int, of buffer: [UInt8]) -> [UInt8] {
      if keep == from { return bytes }
      let block = bytes[Swift.min(buffer.count - from, bytes.count)...]
      var joined: [UInt8] = []
      joined.reserveCapacity(buffer.count - keep + block.count)
      joined += buffer[keep...]
      joined += block
      return joined
    }
  }

  /// Starts reading the `count` bytes after `buffer` from `input`, on a thread of its own,
  /// after a copy of those of `buffer` from `from` on.
  init(_ input: ByteInput, after buffer: [UInt8], keeping from: Int, count: Int) {
    (self.input, self.buffer, self.count) = (input, buffer, count)
    self.from = Swift.min(Swift.max(from, 0), buffer.count)
    _ = Worker { [self] in run() }
  }

  /// Reads the block, unless it was read already (or is being read: then waits for it).
  @discardableResult
  func run() -> Bool {
    lock.wait()
    defer { lock.signal() }
    guard done == nil else { return false }
    var read = 0
    var failure: DataError?
    var bytes: [UInt8] = []
    do throws(DataError) {
      bytes = try [UInt8](buffer[from...], thenUpTo: count) { space throws(DataError) in
        read = try input.read(into: space)
        return read
      }
    } catch {
      failure = error
    }
    done = Block(from: from, bytes: bytes, read: read, failure: failure)
    return true
  }

  /// `body` given the input while no read runs (waiting for one that does; not reading).
  func withInput<R>(_ body: (ByteInput) -> R) -> R {
    lock.wait()
    defer { lock.signal() }
    return body(input)
  }

  /// The block: read now if no thread has read it yet.
  func block() -> Block {
    run()
    lock.wait()
    defer { lock.signal() }
    // (`run()` sets it before it returns, on whichever thread ran it.)
    return done ?? Block(from: from, bytes: Array(buffer[from...]), read: 0, failure: nil)
  }
}
