#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A data file kept open after it was loaded, so that records are printed with their text
/// read back from it (by byte range) instead of a copy of the whole file held in memory.
///
/// The descriptor is the one the file was read through, so a file replaced after loading
/// (an editor's save, `mv`) is still read as it was. A file changed in place (its size or
/// modification time differ from when the load ended) is not trusted: ``read(_:)`` gives
/// nil from then on, and the caller prints the record from its loaded values instead.
/// Reads use `pread`, which never traps on a file that shrank (a memory map would raise
/// SIGBUS there).
final class RecordFile: @unchecked Sendable {
  // Unchecked: the descriptor and the identity are set once, before the instance is shared;
  // `pread` and `fstat` are safe from any thread.
  private let descriptor: Int32
  private var identity: Identity?

  /// What says the file is unchanged: its size and modification time.
  private struct Identity: Equatable {
    let size: Int
    let seconds: Int
    let nanoseconds: Int
  }

  /// Keeps `descriptor` (duplicated) open; nil when it cannot be duplicated.
  init?(duplicating descriptor: Int32) {
    let copy = dup(descriptor)
    guard copy >= 0 else { return nil }
    self.descriptor = copy
  }

  deinit { close(descriptor) }

  /// Notes the file's size and modification time now (when the load ended): a later change
  /// makes its text untrusted. Call once, before sharing the instance.
  func seal() { identity = current() }

  private func current() -> Identity? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    #if canImport(Darwin)
      let time = info.st_mtimespec
    #else
      let time = info.st_mtim
    #endif
    return Identity(
      size: Int(info.st_size), seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec))
  }

  /// Whether the file is as it was when sealed.
  var isUnchanged: Bool { identity != nil && current() == identity }

  /// The bytes of `range`, or nil when the file changed since it was sealed or cannot be
  /// read there (it is not trusted to hold the records' text any more).
  func read(_ range: Range<Int>) -> [UInt8]? {
    guard range.lowerBound >= 0, isUnchanged else { return nil }
    var bytes = [UInt8](repeating: 0, count: range.count)
    var filled = 0
    let complete = bytes.withUnsafeMutableBytes { raw -> Bool in
      guard let base = raw.baseAddress else { return range.isEmpty }
      while filled < range.count {
        let n = pread(
          descriptor, base + filled, range.count - filled, off_t(range.lowerBound + filled))
        if n > 0 {
          filled += n
        } else if n < 0 && errno == EINTR {
          continue
        } else {
          return false
        }
      }
      return true
    }
    return complete ? bytes : nil
  }
}
