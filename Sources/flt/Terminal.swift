import FilterData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--color auto|always|never`: when tables and diagnostics are coloured.
enum ColorChoice: String {
  case auto, always, never
}

/// What the terminal wants.
enum Terminal {
  /// For a table printed on a terminal, a screenful of rows (the terminal's height less the
  /// header, footer and prompt; at least 10): what the one-shot command shows, as the REPL
  /// does. Nil when the output is a file or a pipe, or not a table.
  static func screenfulOfRows(_ format: OutputFormat, output: String?) -> Int? {
    guard format.isForPeople, output == nil, isatty(1) == 1 else { return nil }
    return Swift.max(10, (Descriptor.terminalSize(1)?.rows ?? 24) - 5)
  }

  /// After a table cut to a screenful: how to see every row (on standard error).
  static func sayWhatIsNotShown(_ table: RecordWriter, _ options: Options) {
    guard table.count > table.shown, !options.quiet else { return }
    Command.writeError(
      "(\(table.count - table.shown) more not shown; pipe into less to see all: flt -f \(options.format?.rawValue ?? "table") ... | less -S, or write them with -o FILE)\n"
    )
  }

  /// Whether output to `descriptor` should be coloured: as `choice` says, or, for `auto`,
  /// when it is a terminal, `NO_COLOR` is not set (https://no-color.org) and `TERM` is not
  /// `dumb`.
  static func wantsColor(_ descriptor: Int32, _ choice: ColorChoice = .auto) -> Bool {
    guard choice == .auto else { return choice == .always }
    guard isatty(descriptor) == 1 else { return false }
    if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
    if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
    return true
  }
}
