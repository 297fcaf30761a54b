#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The path of the `-o` temporary file being written, as a C string the signal handlers can
/// read (nil when there is none). Set and cleared on the main thread.
nonisolated(unsafe) private var pendingTemporary: UnsafeMutablePointer<CChar>?

/// Removes the `-o` temporary file when SIGINT, SIGTERM or SIGHUP ends the run, so that an
/// interrupted run leaves the target as it was and nothing beside it. The handler only calls
/// `unlink`, `signal` and `raise`, which are safe in a signal handler, then lets the signal do
/// what it would have done.
package enum TemporaryFileCleanup {
  private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  nonisolated(unsafe) private static var installed = false

  /// Removes `path` if one of the signals arrives before ``clear()``.
  package static func register(_ path: String) {
    clear()
    pendingTemporary = strdup(path)
    guard !installed else { return }
    installed = true
    for number in signals {
      _ = signal(number) { number in
        if let path = pendingTemporary { unlink(path) }
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
