import FilterData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where results go: standard output, or a file written atomically. A file is written under
/// a temporary name in its folder and renamed over the target only when the run succeeds, so
/// a failed run leaves an existing file as it was.
final class OutputTarget {
  let stream: OutputSink
  private let path: String?
  private var temporary: String?
  /// The temporary file's descriptor, or -1.
  private var fd: Int32 = -1

  /// Standard output for nil; otherwise a temporary file beside `path`.
  init(path: String?) throws {
    guard let path else {
      self.path = nil
      stream = OutputSink(descriptor: 1)
      return
    }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array("\(folder).\(base).flt-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard fd >= 0 else {
      throw FilterCommand.CommandError(
        message: "cannot write \(path): \(String(cString: strerror(errno)))")
    }
    // mkstemp makes the file private; give it the usual permissions.
    fchmod(fd, 0o644)
    self.path = path
    temporary = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    stream = OutputSink(descriptor: fd)
    self.fd = fd
  }

  /// Puts the finished file in place.
  func commit() throws {
    guard let path, let temporary else { return }
    close(fd)
    fd = -1
    guard rename(temporary, path) == 0 else {
      throw FilterCommand.CommandError(
        message: "cannot write \(path): \(String(cString: strerror(errno)))")
    }
    self.temporary = nil
  }

  /// Removes the temporary file of a run that did not finish.
  func discard() {
    if fd >= 0 { close(fd) }
    fd = -1
    if let temporary { unlink(temporary) }
    temporary = nil
  }
}
