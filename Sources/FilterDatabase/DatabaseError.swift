import FilterDSL
import FilterData

/// What went wrong with a database: it could not be opened or reached, or a statement failed.
/// The message is the database's own where it gave one; `help` says what to do.
public struct DatabaseError: ReportableError, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public var message: String
  /// What to do about it, when there is something to say.
  public var help: String?
  /// The database's own code for the error, where it gave one (PostgreSQL's SQLSTATE).
  public var code: String?

  /// An error saying `message`, with `help`.
  public init(_ message: String, help: String? = nil) {
    self.message = message
    self.help = help
  }

  /// The message, then the help on its own line.
  public var description: String {
    help.map { message + "\nhelp: " + $0 } ?? message
  }

  /// `error:` and `help:` lines. The message may quote a table's name, a path or a server's
  /// words: no control character in them reaches the terminal.
  public func rendered(colored: Bool = false) -> String {
    TableText.escapingControls("error: \(message)\n" + (help.map { "help: \($0)\n" } ?? ""))
  }
}
