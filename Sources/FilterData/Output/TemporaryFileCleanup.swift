#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The path of the `-o` temporary file being written, as a C string the signal handlers can
/// read (nil when there is none): `mkstemp` fills in its last six characters in place. Set and
/// cleared on the main thread.
nonisolated(unsafe) private var pendingTemporary: UnsafeMutablePointer<CChar>?
/// The length of ``pendingTemporary``.
nonisolated(unsafe) private var pendingLength = 0

/// Removes the `-o` temporary file when SIGINT, SIGTERM or SIGHUP ends the run, so that an
/// interrupted run leaves the target as it was and nothing beside it. The handler only calls
/// `unlink`, `signal` and `raise`, which are safe in a signal handler, then lets the signal do
/// what it would have done.
package enum TemporaryFileCleanup {
  private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  nonisolated(unsafe) private static var installed = false

  /// Makes a file named `template` with its last six characters (`XXXXXX`) replaced, as
  /// `mkstemp` does, and returns its descriptor and path (nil when it could not be made). When
  /// `removedOnSignal`, one of the signals removes the file until ``clear()``: the handlers
  /// are in place and know the name before the file exists, so no moment is left in which a
  /// signal leaves it behind. (Registering the name after `mkstemp` returned left one: a
  /// signal sent as soon as the file appeared found no handler, or no name, now and then.)
  package static func make(_ template: String, removedOnSignal: Bool) -> (Int32, String)? {
    guard let path = strdup(template) else { return nil }
    if removedOnSignal {
      clear()
      install()
      pendingLength = template.utf8.count
      pendingTemporary = path
    }
    let fd = mkstemp(path)
    let made = String(cString: path)
    if !removedOnSignal || fd < 0 {
      if pendingTemporary == path { clear() } else { free(path) }
    }
    return fd >= 0 ? (fd, made) : nil
  }

  private static func install() {
    guard !installed else { return }
    installed = true
    for number in signals {
      _ = signal(number) { number in
        // Only once `mkstemp` has filled in the name (until then there is no file of ours).
        if let path = pendingTemporary, pendingLength >= 6,
          (pendingLength - 6..<pendingLength).contains(where: { path[$0] != 0x58 })
        {
          unlink(path)
        }
        _ = signal(number, SIG_DFL)
        raise(number)
      }
    }
  }

  /// The temporary file is gone or in place: nothing to remove any more.
  package static func clear() {
    guard let path = pendingTemporary else { return }
    pendingTemporary = nil
    free(path)
  }
}
