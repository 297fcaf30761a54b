import FilterData
import FilterDSL
import Foundation

/// The subcommands of `flt` and their exit statuses.
enum Command {
  /// Exit statuses, as documented in the README.
  enum Status {
    static let success: Int32 = 0
    /// Usage errors, syntax errors, unreadable files.
    static let failure: Int32 = 2
  }

  static let version = "flt 0.1.0"

  static let usage = """
    usage: flt fmt FILE.flt...     print scripts in canonical form (the files are not changed)
           flt check FILE.flt...   check scripts for errors; print nothing when they are fine
           flt ast QUERY           print the syntax tree of a query
           flt tokens QUERY        print the tokens of a query
           flt --help | --version

    FILE may be - for standard input.

    examples:
      flt fmt examples/phones.flt
      flt ast 'color in (Starlight, "Space Black") and diskSpace >= 256'

    exit status: 0 on success, 2 on a usage error, a syntax error or an unreadable file.
    """

  static func run(_ arguments: [String]) -> Int32 {
    guard let command = arguments.first else {
      return usageError("missing command")
    }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "-h", "--help", "help":
      print(usage)
      return Status.success
    case "--version":
      print(version)
      return Status.success
    case "fmt", "check":
      guard !rest.isEmpty else { return usageError("\(command) needs at least one file") }
      return scripts(rest, print: command == "fmt")
    case "ast", "tokens":
      guard rest.count == 1 else { return usageError("\(command) takes one query, in quotes") }
      return command == "ast" ? ast(rest[0]) : tokens(rest[0])
    default:
      return usageError("unknown command '\(command)'")
    }
  }

  /// Parses each script; prints its canonical form when `print` is set. Files with errors
  /// print nothing on stdout.
  static func scripts(_ paths: [String], print: Bool) -> Int32 {
    var status = Status.success
    for path in paths {
      let source: SourceText
      do {
        source = try SourceFile.read(path)
      } catch {
        writeError(error.description + "\n")
        status = Status.failure
        continue
      }
      let result = Parser.parseScript(source)
      if !result.diagnostics.isEmpty { writeError(result.renderedDiagnostics) }
      if result.hasErrors {
        status = Status.failure
      } else if print, let script = result.value {
        Swift.print(script)
      }
    }
    return status
  }

  static func ast(_ text: String) -> Int32 {
    let result = Parser.parseQuery(SourceText(text, name: "<query>"))
    if !result.diagnostics.isEmpty { writeError(result.renderedDiagnostics) }
    guard let query = result.value else { return Status.failure }
    print(query.debugDescription)
    return Status.success
  }

  static func tokens(_ text: String) -> Int32 {
    let source = SourceText(text, name: "<query>")
    let lexed = Lexer.tokenize(source)
    print(lexed.tokens.map { "\($0.kind) \(quotedText(source.slice($0.range)))" }.joined(separator: "\n"))
    if !lexed.diagnostics.isEmpty {
      writeError(DiagnosticRenderer(source: source).render(lexed.diagnostics))
      return Status.failure
    }
    return Status.success
  }

  private static func quotedText(_ text: String) -> String {
    text.debugDescription
  }

  static func usageError(_ message: String) -> Int32 {
    writeError("error: \(message)\n\n\(usage)\n")
    return Status.failure
  }

  static func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
