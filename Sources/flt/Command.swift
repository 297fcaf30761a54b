import FilterDSL
import FilterData
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
    usage: flt parse [--tree] FILE.flt...   check scripts and print their statements in canonical
                                           form, one per line (comments are not kept), or with
                                           --tree as syntax trees; the files are not changed
           flt check FILE.flt...           check scripts; print nothing when they are fine
           flt ast QUERY                   print the syntax tree of a query
           flt tokens QUERY                print the tokens of a query
           flt --help | --version

    FILE may be - for standard input. Errors go to standard error.

    examples:
      flt parse examples/phones.flt
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
    case "parse":
      let tree = rest.first == "--tree"
      let files = tree ? Array(rest.dropFirst()) : rest
      guard !files.isEmpty else { return usageError("parse needs at least one file") }
      return scripts(files, output: tree ? .tree : .canonical)
    case "check":
      guard !rest.isEmpty else { return usageError("check needs at least one file") }
      return scripts(rest, output: nil)
    case "ast", "tokens":
      guard rest.count == 1 else { return usageError("\(command) takes one query, in quotes") }
      return command == "ast" ? ast(rest[0]) : tokens(rest[0])
    default:
      return usageError("unknown command '\(command)'")
    }
  }

  enum Output {
    case canonical
    case tree
  }

  /// Parses each script and prints it as `output` says (nothing when nil). A file with errors
  /// prints its diagnostics and nothing on stdout.
  static func scripts(_ paths: [String], output: Output?) -> Int32 {
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
      } else if let output, let script = result.value {
        Swift.print(output == .tree ? script.debugDescription : script.description)
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
    print(
      lexed.tokens.map { "\($0.kind) \(quotedText(source.slice($0.range)))" }.joined(
        separator: "\n"))
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
