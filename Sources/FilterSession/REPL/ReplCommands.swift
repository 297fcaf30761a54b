/// The REPL's commands (`:name`), with their arguments and what they do: `:help`, Tab
/// completion and "did you mean" read this table.
public enum ReplCommands {
  /// One command.
  public struct Command: Sendable {
    /// `:save`.
    public let name: String
    /// What follows the name, such as `FILE.flt`; empty when nothing does.
    public let usage: String
    /// What it does.
    public let summary: String
  }

  /// Every command, in the order `:help` lists them.
  public static let all: [Command] = [
    Command(name: ":help", usage: "", summary: "this help"),
    Command(name: ":schema", usage: "", summary: "the fields of the current data"),
    Command(name: ":memory", usage: "", summary: "how the current data is stored, and its size"),
    Command(name: ":ast", usage: "<query>", summary: "the syntax tree of a query"),
    Command(name: ":tokens", usage: "<query>", summary: "the tokens of a query"),
    Command(name: ":run", usage: "FILE.flt", summary: "run a script's statements here"),
    Command(name: ":settings", usage: "", summary: "every setting and its value (as: set)"),
    Command(name: ":datasets", usage: "", summary: "the data loaded; * marks the current one"),
    Command(name: ":time", usage: "on|off", summary: "time each statement"),
    Command(
      name: ":save", usage: "FILE.flt",
      summary: "save the statements that worked (:save! replaces a file)"),
    Command(
      name: ":output", usage: "[FILE]",
      summary: "results to FILE (:output! replaces one); alone, back here"),
    Command(
      name: ":once", usage: "FILE", summary: "the next entry's results to FILE (:once! replaces)"),
    Command(name: ":reload", usage: "", summary: "read the current data's file again"),
    Command(name: ":clear", usage: "", summary: "clear the screen (Ctrl-L too)"),
    Command(name: ":quit", usage: "", summary: "leave (Ctrl-D too)"),
  ]

  /// The commands as `:help` shows them on one line: `:help  :schema  :ast <query> ...`.
  static var line: String {
    all.map { $0.usage.isEmpty ? $0.name : $0.name + " " + $0.usage }.joined(separator: "  ")
  }
}
