import FilterData
import FilterSession

/// A progress line on standard error for reads that take more than a second.
final class Progress {
  private let enabled: Bool
  private let start = SystemClock.seconds()
  private var last = 0.0
  private var shown = false

  init(enabled: Bool) { self.enabled = enabled }

  func update(_ source: any RecordSource) {
    let (done, total) = source.progress
    guard enabled, done > 0 || total != nil else { return }
    let now = SystemClock.seconds()
    guard now - start >= 1, now - last >= 0.2 else { return }
    last = now
    var text = "\rflt: reading \(source.name): \(done / 1_000_000) MB"
    if let total, total > 0 {
      text += " of \(total / 1_000_000) MB (\(Swift.min(100, done * 100 / total))%)"
    }
    Command.writeError(text + "\u{1B}[K")
    shown = true
  }

  func clear() {
    if shown { Command.writeError("\r\u{1B}[K") }
    shown = false
  }
}
