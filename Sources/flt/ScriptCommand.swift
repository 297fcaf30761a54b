import FilterDSL
import FilterData
import FilterSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `flt run FILE.flt` and `flt FILE.flt`: runs a script's statements in order, printing
/// results to standard output. Every syntax error of the file is reported before anything
/// runs; the first statement that fails stops the script (exit status 2). Parameters given
/// with `-p` are bound first and win over the script's own `let`s of the same names. `flt
/// check` runs the same way, with the session only checking.
enum ScriptCommand {
  static func run(
    _ path: String, options: SessionOptions = SessionOptions(), checkOnly: Bool = false
  ) -> Int32 {
    let source: SourceText
    do {
      source = try SourceFile.read(path)
    } catch {
      Command.writeError(error.description + "\n")
      return Command.Status.failure
    }
    let output = OutputSink(descriptor: 1)
    let session = Session(output: output, warn: Command.writeError)
    session.baseDirectory = folder(of: path)
    session.checkOnly = checkOnly
    session.styled = Terminal.wantsColor(1, options.color)
    options.apply(to: session)
    for (name, value) in options.parameters { session.bind(parameter: name, to: value) }
    // The process exits after this: its memory goes back at once, while freeing a million
    // loaded records one by one takes a tenth of the run. So the session is never freed.
    _ = Unmanaged.passRetained(session)
    defer { output.flush() }
    do {
      try session.run(source)
    } catch {
      output.flush()
      Command.writeError(error.rendered(colored: Terminal.wantsColor(2, options.color)))
      return Command.Status.failure
    }
    output.flush()
    if let failure = output.failure {
      Command.writeError("error: cannot write the output: \(failure)\n")
      return Command.Status.failure
    }
    return Command.Status.success
  }

  /// The folder holding `path`, for `load` paths relative to the script.
  static func folder(of path: String) -> String? {
    guard path != "-", let slash = path.lastIndex(of: "/") else { return nil }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}

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
