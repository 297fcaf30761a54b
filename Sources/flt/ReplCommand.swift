import FilterDSL
import FilterData
import FilterSession
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `flt repl [FILE...]`, and `flt` alone on a terminal: statements typed one entry at a time.
///
/// On a terminal: a prompt, line editing, history, Tab completion, colour. Otherwise (input
/// from a pipe or file): no prompt and no escape codes, one statement per line, and exit
/// status 2 when any statement failed.
struct ReplCommand {
  /// The files, parameters, colour and memory limit given.
  let options: SessionOptions
  var files: [String] { options.files }
  var color: ColorChoice { options.color }

  func run() -> Int32 {
    let session = options.session()
    let output = session.output
    let interactive = isatty(0) == 1
    session.styled = color == .always || (interactive && Terminal.wantsColor(1, color))
    session.verbose = interactive
    if interactive { session.tableWidth = { Descriptor.terminalSize(1)?.columns } }
    if interactive { (session.settings.limit, session.settings.pager) = (20, true) }
    let repl = Repl(session: session, errors: Command.writeError)
    repl.colored = color == .always || (interactive && Terminal.wantsColor(2, color))
    if interactive && isatty(1) == 1 {
      repl.screen = { Descriptor.terminalSize(1).map { ($0.rows, $0.columns) } }
    }
    // Given parameters win over the `let`s of the scripts named here; typed `let`s change them.
    for file in files { open(file, repl) }
    session.fixedParameters = []
    if interactive {
      output.write(
        "flt \(Command.version.dropFirst(4)): type :help for help, :quit or Ctrl-D to leave\n")
      output.flush()
      TerminalLoop(repl: repl).run()
      return Command.Status.success
    }
    var entry = ""
    while let line = readLine(strippingNewline: true) {
      entry += entry.isEmpty ? line : "\n" + line
      if Repl.needsMoreInput(entry) { continue }
      defer { entry = "" }
      if !repl.handle(entry) { break }
    }
    if !entry.isEmpty { _ = repl.handle(entry) }
    return repl.failures > 0 ? Command.Status.failure : Command.Status.success
  }

  /// A file named on the command line: a script runs (its loads relative to its folder),
  /// data is loaded.
  private func open(_ file: String, _ repl: Repl) {
    let session = repl.session
    do {
      if file.hasSuffix(".flt") {
        let source = try SourceFile.read(file)
        session.baseDirectory = ScriptCommand.folder(of: file)
        defer { session.baseDirectory = nil }
        try session.run(source)
      } else {
        let load = Stmt(.load(Name(file), alias: nil)).description
        try session.run(SourceText(load, name: "<command line>"))
      }
    } catch {
      _ = Command.fail(error, colored: repl.colored)
    }
    session.output.flush()
  }
}
