import FilterData

/// Standard output and standard error, written with `write(2)`. A failed write never traps
/// (Foundation's `FileHandle.write` does): output that cannot be written makes the command fail
/// with a message, and errors that cannot be written are dropped (there is nowhere to say so).
enum StandardStreams {
  /// Standard output, for what the command prints besides records.
  nonisolated(unsafe) static let output = OutputSink(descriptor: 1)

  /// Prints `text` and `terminator` to standard output.
  static func print(_ text: String, terminator: String = "\n") {
    output.write(text)
    output.write(terminator)
  }

  /// The status the command ends with: `status`, or failure (with a message on standard
  /// error) when standard output could not be written, so that output lost to a full disk
  /// is never reported as success.
  static func finish(_ status: Int32) -> Int32 {
    output.flush()
    guard let failure = output.failure else { return status }
    writeError("error: cannot write the output: \(failure)\n")
    return Command.Status.failure
  }

  /// Writes `text` to standard error, whole; nothing happens if it cannot be written
  /// (standard error closed, or a full disk).
  static func writeError(_ text: String) {
    Descriptor.write(Array(text.utf8), to: 2)
  }
}
