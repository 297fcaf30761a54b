import Dispatch
import FilterDatabase

/// Watches for an interruption (Ctrl-C at the REPL) while a statement runs in a database, and
/// then asks the database to cancel it: the statement fails, and the session goes on.
final class InterruptWatch: Sendable {
  /// Signalled when the statement ends.
  private let ended = DispatchSemaphore(value: 0)
  /// Signalled by the watcher as it stops.
  private let finished = DispatchSemaphore(value: 0)

  /// Watches `interrupted` every 50 ms, and cancels `connection`'s statement once it says so.
  init(_ connection: any SQLConnection, _ interrupted: @escaping () -> Bool) {
    nonisolated(unsafe) let interrupted = interrupted
    DispatchQueue.global().async { [ended, finished] in
      while ended.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
        if interrupted() {
          connection.interrupt()
          ended.wait()
          break
        }
      }
      finished.signal()
    }
  }

  /// The statement ended: stops the watcher, and waits for it, so that no cancel is sent
  /// after this returns.
  func stop() {
    ended.signal()
    finished.wait()
  }
}
