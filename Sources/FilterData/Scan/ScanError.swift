import FilterDSL

/// What stops a scan that is not in the data itself: an option that names a field the data
/// lacks, files that cannot be sorted or written together, output that cannot be written. (An
/// error in the data is a ``DataError``, placed at its line; one in the query, a
/// `FilterError`.)
public struct ScanError: ReportableError, CustomStringConvertible, Sendable {
  /// What went wrong.
  public var message: String
  /// What to do instead, when there is something to suggest.
  public var help: String?

  /// An error saying `message`, and `help` when given.
  public init(message: String, help: String? = nil) {
    self.message = message
    self.help = help
  }

  /// `error: ...` and, when there is help, `help: ...`, each on a line of its own.
  public var description: String {
    "error: \(message)\n" + (help.map { "help: \($0)\n" } ?? "")
  }

  /// The ``description``. The message may quote a path or a field's name: no control
  /// character in them reaches the terminal.
  public func rendered(colored: Bool = false) -> String {
    TableText.escapingControls(description)
  }
}
