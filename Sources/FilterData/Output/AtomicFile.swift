#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file written whole or not at all: what a run writes, put in place only when it succeeds.
///
/// A regular file (new or existing) is written under a temporary name in its folder and put in
/// place only when the run succeeds, so a failed run leaves an existing file as it was. Put in
/// place keeps what the file was: its mode and (where allowed) owner; a symlink is followed to
/// its target and stays a symlink; a file with other hard links is rewritten in place so that
/// every name sees the new contents. A path that names no regular file (a device such as
/// `/dev/null`, a FIFO, a socket) is written straight through, never replaced. A SQLite
/// database is never written over.
///
/// ```swift
/// let file = try AtomicFile(path: "cheap.jsonl")
/// defer { file.discard() }
/// file.stream.write("{\"price\": 100}\n")
/// try file.commit()
/// ```
public final class AtomicFile {
  /// Where to write.
  public let stream: OutputSink
  private let path: String?
  /// The file as the caller named it, for messages (`the output` for a descriptor).
  private let name: String
  /// Whether the temporary file is removed on a signal (see ``init(path:mode:removedOnSignal:)``).
  private let removedOnSignal: Bool
  private var temporary: String?
  /// Whether the finished temporary file is copied into the target instead of renamed over it
  /// (the target has other hard links).
  private var copiesInPlace = false
  /// The output file's descriptor (temporary, or the target itself), or -1.
  private var fd: Int32 = -1

  /// Output straight to `descriptor` (1 for standard output): nothing to put in place.
  public init(descriptor: Int32) {
    (path, name, removedOnSignal) = (nil, "the output", false)
    stream = OutputSink(descriptor: descriptor)
  }

  /// The file at `path`, as described above; a new file gets `mode` less the umask.
  public convenience init(path: String, mode: UInt32 = 0o666) throws(ScanError) {
    try self.init(path: path, mode: mode, removedOnSignal: false)
  }

  /// The file at `path`; when `removedOnSignal`, its temporary file is removed if SIGINT,
  /// SIGTERM or SIGHUP ends the process before ``commit()`` or ``discard()`` (for a command:
  /// one such file at a time).
  package init(path: String, mode: UInt32, removedOnSignal: Bool) throws(ScanError) {
    (name, self.removedOnSignal) = (path, removedOnSignal)
    let target = FilePaths.followingSymlinks(path)
    var link = stat()
    if lstat(target, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
      // Still a link after following 40: a loop. Renaming over it would replace a link.
      throw ScanError(
        message: "cannot write \(path): \(String(cString: strerror(ELOOP)))",
        help: "the links lead back to themselves; write to a file")
    }
    var status = stat()
    let exists = stat(target, &status) == 0
    let kind = status.st_mode & S_IFMT
    if exists && kind == S_IFDIR {
      throw ScanError(message: "cannot write \(path): it is a directory")
    }
    if exists && kind != S_IFREG {
      // A device, a FIFO or a socket: write to it, never replace it.
      let fd = open(target, O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { throw Self.failure(path) }
      self.path = nil
      self.fd = fd
      stream = OutputSink(descriptor: fd)
      return
    }
    if exists && Self.isSQLiteDatabase(target) {
      // Rows or a SQL script written over a database would replace it whole.
      throw ScanError(
        message: "will not write over \(path): it is a SQLite database",
        help:
          "write to another file; to add rows to the database, write a script and run it: "
          + "flt -f sql ... | sqlite3 \(path)")
    }
    let slash = target.lastIndex(of: "/")
    let folder = slash.map { String(target[...$0]) } ?? ""
    let base = slash.map { String(target[target.index(after: $0)...]) } ?? target
    guard
      let (fd, temporary) = TemporaryFileCleanup.make(
        "\(folder).\(base).flt-XXXXXX", removedOnSignal: removedOnSignal)
    else { throw Self.failure(path) }
    if exists {
      // The file keeps its permissions and, where the system allows, its owner.
      fchmod(fd, status.st_mode & 0o7777)
      _ = fchown(fd, status.st_uid, status.st_gid)
      copiesInPlace = status.st_nlink > 1
    } else {
      // mkstemp makes the file private; a new file gets the permissions the umask allows.
      fchmod(fd, mode_t(truncatingIfNeeded: mode) & ~FilePaths.currentUmask)
    }
    self.path = target
    self.temporary = temporary
    stream = OutputSink(descriptor: fd)
    self.fd = fd
  }

  /// Whether the file at `path` begins with SQLite's header (`SQLite format 3` and a zero).
  package static func isSQLiteDatabase(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var header = [UInt8](repeating: 0, count: 16)
    let count = read(fd, &header, header.count)
    return count == 16 && header == Array("SQLite format 3\0".utf8)
  }

  private static func failure(_ path: String) -> ScanError {
    ScanError(message: "cannot write \(path): \(String(cString: strerror(errno)))")
  }

  /// Puts the finished file in place, once what was written is out; throws, leaving the old
  /// file as it was, when it could not be written.
  public func commit() throws(ScanError) {
    stream.flush()
    if let failure = stream.failure {
      throw ScanError(message: "cannot write \(name): \(failure)")
    }
    guard let path, let temporary else {
      if fd >= 0 { close(fd) }
      fd = -1
      return
    }
    if copiesInPlace {
      try copy(temporary, into: path)
      unlink(temporary)
    } else {
      guard rename(temporary, path) == 0 else { throw Self.failure(path) }
    }
    close(fd)
    fd = -1
    self.temporary = nil
    if removedOnSignal { TemporaryFileCleanup.clear() }
  }

  /// Rewrites `target` with the contents of the temporary file, keeping the file itself (and
  /// so its other names). The room the new contents need past the old ones is reserved
  /// first, and the file is cut to its new length only at the end: a full disk fails the
  /// reservation and leaves the old contents whole (truncating first lost them).
  private func copy(_ temporary: String, into target: String) throws(ScanError) {
    let output = open(target, O_WRONLY | O_CLOEXEC)
    guard output >= 0 else { throw Self.failure(target) }
    defer { close(output) }
    var new = stat()
    var old = stat()
    guard fstat(fd, &new) == 0, fstat(output, &old) == 0 else {
      throw Self.failure(target)
    }
    if new.st_size > old.st_size {
      // Only past the old end: nothing the file held is touched if this fails.
      let problem = posix_fallocate(output, old.st_size, new.st_size - old.st_size)
      guard problem == 0 else {
        throw ScanError(
          message:
            "cannot write \(target): \(String(cString: strerror(problem))); it is as it was",
          help: "make room, or write to another file")
      }
    }
    guard lseek(fd, 0, SEEK_SET) == 0 else { throw Self.failure(target) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = read(fd, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw Self.failure(target) }
      if count == 0 {
        guard ftruncate(output, new.st_size) == 0 else { throw Self.failure(target) }
        return
      }
      let problem = buffer.withUnsafeBytes {
        Descriptor.write(UnsafeRawBufferPointer(rebasing: $0[..<count]), to: output)
      }
      if let problem {
        throw ScanError(message: "cannot write \(target): \(problem)")
      }
    }
  }

  /// Removes the temporary file of a run that did not finish (after ``commit()``, nothing).
  public func discard() {
    if fd >= 0 { close(fd) }
    fd = -1
    if let temporary { unlink(temporary) }
    temporary = nil
    if removedOnSignal { TemporaryFileCleanup.clear() }
  }
}
