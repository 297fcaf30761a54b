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
    let session = options.session()
    let output = session.output
    session.baseDirectory = folder(of: path)
    session.checkOnly = checkOnly
    session.styled = Terminal.wantsColor(1, options.color)
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
