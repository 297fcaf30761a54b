import Dispatch

/// Work running on another thread, and its result once it ends.
final class Background<T>: @unchecked Sendable {
  private let ended = DispatchSemaphore(value: 0)
  /// Set by the work's thread before it signals `ended`; read after a wait sees the signal.
  private var outcome: Result<T, any Error>?
  /// Whether a wait saw the signal (then `outcome` is set, and no wait blocks again).
  private var seen = false

  /// Starts `work` on a thread of the global queue.
  init(_ work: @escaping () throws -> T) {
    nonisolated(unsafe) let work = work
    DispatchQueue.global().async { [self] in
      outcome = Result { try work() }
      ended.signal()
    }
  }

  /// The work's result, waiting at most `seconds` for it (for ever when nil): nil when it
  /// has not ended by then.
  func result(waiting seconds: Double? = nil) -> Result<T, any Error>? {
    if !seen {
      if let seconds {
        let wait = DispatchTime.now() + .nanoseconds(Int(seconds * 1e9))
        guard ended.wait(timeout: wait) == .success else { return nil }
      } else {
        ended.wait()
      }
      seen = true
    }
    return outcome
  }
}
