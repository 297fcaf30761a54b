#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing files the way users expect: through symlinks, keeping what a file was.
package enum FilePaths {
  /// `path`, with symlinks followed to the file they name (which may not exist yet), so that
  /// a file put in place by a rename replaces the target, not the link.
  package static func followingSymlinks(_ path: String) -> String {
    var path = path
    for _ in 0..<40 {  // as many links as the system follows
      var status = stat()
      guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return path }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(path, &buffer, buffer.count - 1)
      guard count > 0 else { return path }
      let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if link.hasPrefix("/") {
        path = link
      } else {
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        path = folder + link
      }
    }
    return path
  }

  /// The absolute path of an existing file or folder with every symlink, `.` and `..`
  /// resolved (`realpath`); nil when it does not exist or cannot be reached.
  package static func canonical(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether `path` names an existing file inside `folder` (at any depth), once both are
  /// resolved: a `..` or a symlink that leads out of the folder is outside it.
  package static func isInside(_ path: String, folder: String) -> Bool {
    guard let file = canonical(path), let folder = canonical(folder) else { return false }
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    return file.hasPrefix(prefix)
  }

  /// The process's file mode creation mask. Read from `/proc/self/status` where the system
  /// has it: asking `umask` means setting it, and another thread creating a file between
  /// the two calls would get a mask of 0.
  package static var currentUmask: mode_t {
    #if os(Linux)
      let descriptor = open("/proc/self/status", O_RDONLY)
      if descriptor >= 0 {
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        let text = String(decoding: bytes.prefix(Swift.max(0, count)), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("Umask:") {
          if let mask = mode_t(line.dropFirst(6).trimmingPrefix(while: \.isWhitespace), radix: 8) {
            return mask
          }
        }
      }
    #endif
    let mask = umask(0)
    umask(mask)
    return mask
  }

  /// Writes `bytes` to `path` through an ``AtomicFile``: whole, or not at all. A new file
  /// gets `mode` (less the umask). Nil on success, else what went wrong (the old file is then
  /// untouched).
  package static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t)
    -> ScanError?
  {
    do {
      let file = try AtomicFile(path: path, mode: UInt32(mode))
      defer { file.discard() }
      file.stream.write(bytes)
      try file.commit()
      return nil
    } catch {
      return error
    }
  }
}
