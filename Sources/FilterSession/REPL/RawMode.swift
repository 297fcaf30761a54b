#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal's settings before raw mode, for the handlers that restore them. Written only
/// on the main thread before any handler is installed.
nonisolated(unsafe) private var savedSettings: termios?

/// The raw settings while raw mode is on (nil when it is off), for the SIGCONT handler: a
/// process stopped and continued (Ctrl-Z from outside, then `fg`) finds the terminal as the
/// shell left it, cooked, and must put raw mode back before the next key.
nonisolated(unsafe) private var rawSettings: termios?

/// Puts the terminal into raw mode (keys arrive one by one, unechoed, Ctrl-C as a byte) while
/// a line is edited, and always puts it back: on ``restore()``, at exit, and on a fatal
/// signal (the handler restores the settings, then lets the signal do what it would have).
enum RawMode {
  private static let fatalSignals: [Int32] = [
    SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP,
  ]
  nonisolated(unsafe) private static var installed = false

  /// Enters raw mode on standard input; false when it is not a terminal.
  static func enter() -> Bool {
    var settings = termios()
    guard tcgetattr(0, &settings) == 0 else { return false }
    if !installed {
      installed = true
      savedSettings = settings
      atexit { RawMode.restore() }
      _ = signal(SIGCONT) { _ in
        guard var raw = rawSettings else { return }
        _ = tcsetattr(0, TCSANOW, &raw)
      }
      for fatal in fatalSignals {
        _ = signal(fatal) { number in
          RawMode.restore()
          _ = signal(number, SIG_DFL)
          raise(number)
        }
      }
    }
    var raw = settings
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(0, TCSANOW, &raw) == 0 else { return false }
    rawSettings = raw
    return true
  }

  /// While a statement runs: the settings from before raw mode (output as usual, Ctrl-C a
  /// signal), except that keys typed ahead are neither echoed nor held for a whole line:
  /// they wait, unseen, and the next prompt shows them as typed.
  static func quiet() {
    rawSettings = nil
    guard var settings = savedSettings else { return }
    settings.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON)
    _ = tcsetattr(0, TCSANOW, &settings)
  }

  /// Puts back the settings raw mode replaced (safe to call at any time, and from a signal
  /// handler: it only calls `tcsetattr`).
  static func restore() {
    rawSettings = nil
    guard var settings = savedSettings else { return }
    _ = tcsetattr(0, TCSANOW, &settings)
  }
}
