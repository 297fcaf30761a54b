import FilterData
import FilterSession

/// A progress line on standard error for reads that take more than a second.
final class Progress {
  private let enabled: Bool
  private let start = SystemClock.seconds()
  private var last = 0.0
  private var shown = false

  init(enabled: Bool) { self.enabled = enabled }

  func update(_ reader: DataReader) {
    guard enabled else { return }
    let now = SystemClock.seconds()
    guard now - start >= 1, now - last >= 0.2 else { return }
    last = now
    let megabytes = reader.bytesRead / 1_000_000
    var text = "\rflt: reading \(reader.name): \(megabytes) MB"
    if let size = reader.size, size > 0 {
      text += " of \(size / 1_000_000) MB (\(Swift.min(100, reader.bytesRead * 100 / size))%)"
    }
    Command.writeError(text + "\u{1B}[K")
    shown = true
  }

  func clear() {
    if shown { Command.writeError("\r\u{1B}[K") }
    shown = false
  }
}
