import FilterDSL
import FilterData
import FilterDatabase
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The subcommands of `flt` and their exit statuses.
enum Command {
  /// Exit statuses, as documented in the README.
  enum Status {
    static let success: Int32 = 0
    /// Nothing matched, and `-e` / `--exit-status` asked to be told.
    static let noMatch: Int32 = 1
    /// Usage errors, filter errors, data errors, unreadable or unwritable files.
    static let failure: Int32 = 2
  }

  static func run(_ arguments: [String]) -> Int32 {
    guard let command = arguments.first else {
      if isatty(0) == 1 { return ReplCommand(options: SessionOptions()).run() }
      return usageError("missing FILTER (or, on a terminal, no arguments for the REPL)")
    }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "help":
      StandardStreams.print(usage)
      return Status.success
    case "parse":
      let tree = rest.first == "--tree"
      let files = tree ? Array(rest.dropFirst()) : rest
      guard !files.isEmpty else { return usageError("parse needs at least one file") }
      return scripts(files, output: tree ? .tree : .canonical)
    case "check":
      guard !rest.isEmpty else { return usageError("check needs at least one file") }
      // Each script is checked against the fields of the data it loads; none runs.
      var status = Status.success
      for path in rest where ScriptCommand.run(path, checkOnly: true) != Status.success {
        status = Status.failure
      }
      return status
    case "repl":
      return session(rest) {
        ReplCommand(options: $0).run()
      }
    case "run":
      return script(rest)
    case "sql":
      do {
        return try SQLCommand(options: SQLOptions.parse(rest)).run()
      } catch {
        return usageError(error.message)
      }
    case _ where Options.isScript(Options.firstOperand(arguments)):
      // `flt p.flt -p budget=500`, or with the options first: `flt -p budget=500 p.flt`.
      return script(arguments)
    case "ast", "tokens":
      guard rest.count == 1 else { return usageError("\(command) takes one query, in quotes") }
      return command == "ast" ? ast(rest[0]) : tokens(rest[0])
    default:
      return oneShot(arguments)
    }
  }

  /// `flt run SCRIPT.flt [-p NAME=VALUE...]`, also without `run`.
  static func script(_ arguments: [String]) -> Int32 {
    session(arguments) { options in
      guard options.files.count == 1 else {
        return usageError("run takes one script: flt run FILE.flt [-p NAME=VALUE...]")
      }
      return ScriptCommand.run(options.files[0], options: options)
    }
  }

  /// Runs `command` with the options of `run` or `repl`, or reports them unreadable.
  private static func session(_ arguments: [String], _ command: (SessionOptions) -> Int32)
    -> Int32
  {
    do {
      return command(try SessionOptions.parse(arguments))
    } catch {
      return usageError(error.message)
    }
  }

  /// `flt [options] FILTER [FILE...]` and `flt --schema FILE...`.
  static func oneShot(_ arguments: [String]) -> Int32 {
    var options: Options
    do {
      options = try Options.parse(arguments)
    } catch {
      return usageError(error.message)
    }
    if let text = options.printout {
      StandardStreams.print(text)
      return Status.success
    }
    if options.schema { return schema(options) }
    if let file = options.filterFile {
      do {
        let source = try SourceFile.read(file)
        (options.filter, options.filterName) = (source.text, source.name)
      } catch {
        writeError(error.description + "\n")
        return Status.failure
      }
    }
    // (--stats and --facets may leave FILTER out; --select and --count before a FILE.)
    let filterless =
      options.stats != nil || options.facets != nil
      || ((options.select != nil || options.count) && !options.files.isEmpty)
    guard let query = options.filter ?? (filterless ? "" : nil) else {
      return usageError("missing FILTER")
    }
    if let path = options.files.first,
      DatabaseTable.isDatabase(path) || (options.table != nil && !options.sqlScript)
    {
      guard options.files.count == 1 else {
        return usageError("a query runs on one database at a time")
      }
    }
    return FilterCommand(options: options, query: query).run()
  }

  /// Prints the schema of each file, or of a database's tables (the one `--table` names, or
  /// every one, as sqlite3's `.schema` and psql's `\d`).
  static func schema(_ options: Options) -> Int32 {
    let paths: [String?] = options.files.isEmpty ? [nil] : options.files
    for path in paths {
      do {
        let isDatabase = path.map(DatabaseTable.isDatabase) ?? false
        let sources: [any RecordSource] =
          try path.flatMap {
            isDatabase ? try TableSource.tables(in: $0, named: options.table) : nil
          }
          ?? [FileSource.open(path, format: options.inputFormat, options: options.read)]
        // A database's tables are listed each under its name, indented.
        let indented = isDatabase && options.table == nil
        for source in sources {
          if paths.count > 1 || indented { StandardStreams.print("\(source.name):") }
          let outline = source.outline
          StandardStreams.print(
            indented
              ? outline.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n"
              : outline, terminator: "")
        }
        if let path, sources.isEmpty { StandardStreams.print("(\(path) has no tables)") }
      } catch {
        return fail(error)
      }
    }
    return Status.success
  }

  enum Output {
    case canonical
    case tree
  }

  /// Parses each script and prints it as `output` says. A file with errors prints its
  /// diagnostics and nothing on stdout.
  static func scripts(_ paths: [String], output: Output) -> Int32 {
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
      } else if let script = result.value {
        StandardStreams.print(output == .tree ? script.debugDescription : script.description)
      }
    }
    return status
  }

  static func ast(_ text: String) -> Int32 {
    let result = Parser.parseQuery(SourceText(text, name: "<query>"))
    if !result.diagnostics.isEmpty { writeError(result.renderedDiagnostics) }
    guard let query = result.value else { return Status.failure }
    StandardStreams.print(query.debugDescription)
    return Status.success
  }

  static func tokens(_ text: String) -> Int32 {
    let source = SourceText(text, name: "<query>")
    let lexed = Lexer.tokenize(source)
    StandardStreams.print(
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

  /// Writes `error` to standard error as the commands write their errors (diagnostics with a
  /// caret, or `error:` and `help:` lines); returns the failure status.
  static func fail(_ error: any Error, colored: Bool = false) -> Int32 {
    writeError((error as? any ReportableError)?.rendered(colored: colored) ?? "error: \(error)\n")
    return Status.failure
  }

  static func usageError(_ message: String) -> Int32 {
    writeError("error: \(message)\n(flt --help shows the options)\n")
    return Status.failure
  }

  static func writeError(_ text: String) {
    StandardStreams.writeError(text)
  }
}
