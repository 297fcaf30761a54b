#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Set by Ctrl-C (SIGINT) while a REPL statement runs; read between rows of output.
nonisolated(unsafe) private var interruptRequested: sig_atomic_t = 0

/// Ctrl-C while a statement runs at the REPL: instead of ending the process, it asks the
/// statement to stop printing, and the session goes on.
enum Interrupt {
  /// Catches SIGINT from now on.
  static func install() {
    _ = signal(SIGINT) { _ in interruptRequested = 1 }
  }

  /// Forgets an earlier Ctrl-C.
  static func reset() { interruptRequested = 0 }

  /// Whether Ctrl-C was pressed since ``reset()``.
  static var requested: Bool { interruptRequested != 0 }
}
