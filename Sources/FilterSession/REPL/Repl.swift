import FilterDSL
import FilterData
import FilterDatabase
import Foundation

/// The REPL's logic, apart from the terminal: runs each entry (statements, or a `:command`)
/// in a ``Session``, numbers lines across the session for diagnostics (`<repl>:12:7`), and
/// never lets an error end the session.
public final class Repl {
  /// The session entries run in.
  public let session: Session
  /// Where errors go.
  let errors: (String) -> Void
  /// Whether errors are coloured.
  public var colored = false
  /// Lines entered so far.
  public private(set) var lines = 0
  /// How many entries failed.
  public private(set) var failures = 0
  /// Where results go instead of the session's own output, after `:output FILE` or for one
  /// entry after `:once FILE`.
  var redirect: Redirect?
  /// The screen results are paged for (`set pager on`): its rows and columns, or nil when
  /// results are not paged (no terminal).
  public var screen: () -> (rows: Int, columns: Int)? = { nil }
  /// Shows an entry's results through a pager; false when none could be run (they are then
  /// printed). By default `$PAGER`, or `less`.
  public var page: (String) -> Bool = { text in
    Pager.command(environment: ProcessInfo.processInfo.environment).map {
      Pager.show(text, command: $0)
    } ?? false
  }
  /// The session's own output while an entry's results are collected for the pager.
  var paged: OutputSink?

  /// A REPL over `session`; `errors` receives rendered errors.
  public init(session: Session, errors: @escaping (String) -> Void) {
    self.session = session
    self.errors = errors
  }

  /// What `:help` prints.
  public static let help = """
    Statements (end a line to run it; a line with an open bracket or quote goes on):
      load "phones.json" [as name]     read a JSON, JSON Lines, CSV, TSV (compressed too) or
                                       Parquet file, or a folder of Parquet files
        [null "NA"] [type zip=string]  ... saying how: null texts, fixed types, root data.items,
        [delimiter ";"] [header no]    format tsv, the CSV delimiter, no header row
      load "shop.db" table phones      a table of a SQLite database or postgresql:// URL
      use name                         switch to data loaded earlier
      <filter> [order by ...] [limit n]  print the matching records
      count [<filter>]                 count them
      facets f1, f2 [where <filter>]   count each value of the fields (disjunctively)
      stats mean(x), max(x) [by k] [where <filter>]
                                       aggregates, overall or for each value of k
      explain <query>                  show the compiled chain of strategies
      let big = diskSpace >= 256       a named filter, used as: big and color == Gold
      let budget = 1000                a parameter, used as: price <= $budget
      show f1, f2 | show *             the columns printed
      set                              every setting and its value
      \(Settings.names.map { "set \($0.name) \($0.usage)" }.joined(separator: "  "))
    Commands:
      \(ReplCommands.line)
    Keys: arrows, Home/End, Ctrl-A/E, Alt-B/F or Ctrl-arrows (words), Ctrl-K/U/W (delete),
      Up/Down (history), Ctrl-R (search it), Tab (complete), Ctrl-C (cancel the line),
      Ctrl-D (quit)
    """

  /// The prompt: the current data's name (`phones> `), `flt> ` before any is loaded; lines
  /// that continue an entry get as many dots (`......> `). A long name is cut to 20 columns.
  public func prompt(continuing: Bool) -> String {
    let name = DisplayWidth.fit(session.current?.name ?? "flt", 20).text
    return continuing
      ? String(repeating: ".", count: Swift.max(3, DisplayWidth.of(name))) + "> " : name + "> "
  }

  /// What live results show for `entry` as typed so far (``Session/preview(_:until:)``):
  /// nothing for a blank entry, a `:command`, or after `set live off`; nil when `stop` said
  /// to stop first.
  public func preview(_ entry: String, until stop: () -> Bool) -> LivePreview? {
    let trimmed = entry.trimmingSpaces
    guard session.settings.live, !trimmed.isEmpty, !trimmed.hasPrefix(":") else { return .nothing }
    return session.preview(SourceText(entry, name: "<repl>", firstLine: lines + 1), until: stop)
  }

  /// `:run FILE.flt`: the script's statements, as `flt run` runs them (its `load` paths
  /// relative to its folder), in this session: what it loads and defines stays.
  private func run(script argument: String, _ entry: String) {
    guard !argument.isEmpty else {
      fail(commandError(entry, ":run needs a script", help: ":run report.flt"))
      return
    }
    let path = session.resolve(argument)
    if let folder = session.policy.loadFolder, !FilePaths.isInside(path, folder: folder) {
      fail(commandError(entry, "this session may not run \(argument)", code: .notAllowed))
      return
    }
    let source: SourceText
    do {
      source = try SourceFile.read(path)
    } catch {
      fail(commandError(entry, "cannot run \(argument): \(error.reason)", code: .cannotLoad))
      return
    }
    let saved = session.baseDirectory
    defer { session.baseDirectory = saved }
    if let slash = path.lastIndex(of: "/") {
      session.baseDirectory = slash == path.startIndex ? "/" : String(path[..<slash])
    } else {
      session.baseDirectory = saved
    }
    do {
      try session.run(source)
    } catch {
      fail(error)
    }
  }

  /// What `:datasets` prints: each data set loaded, the current one marked with `*`, with
  /// what it holds and where it came from.
  var datasetListing: String {
    guard !session.datasets.isEmpty else { return "no data loaded\n" }
    let rows = session.datasets.map { data -> (String, String, String) in
      let mark = data === session.current ? "* " : "  "
      return (mark + data.name, data.size, PostgresURL.redacted(data.path))
    }
    let nameWidth = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
    let sizeWidth = rows.map { DisplayWidth.of($0.1) }.max() ?? 0
    return rows.map { name, size, path in
      name + String(repeating: " ", count: nameWidth - DisplayWidth.of(name) + 2) + size
        + String(repeating: " ", count: sizeWidth - DisplayWidth.of(size) + 2) + path + "\n"
    }.joined()
  }

  /// Whether `text` needs more lines: an open bracket or quote, or a line that ends with an
  /// operator such as `and`.
  public static func needsMoreInput(_ text: String) -> Bool {
    if text.trimmingSpaces.hasPrefix(":") { return false }
    let lexed = Lexer.tokenize(SourceText(text), newlines: true)
    if lexed.diagnostics.contains(where: { $0.code == .unterminatedString }) { return true }
    var depth = 0
    var (before, last): (Token?, Token?) = (nil, nil)
    for token in lexed.tokens where token.kind != .endOfFile {
      switch token.kind {
      case .leftParen: depth += 1
      case .rightParen: depth -= 1
      default: break
      }
      if token.kind != .newline { (before, last) = (last, token) }
    }
    guard depth <= 0 else { return true }
    guard let last else { return false }
    let bytes = Array(text.utf8)
    func word(_ token: Token?) -> String? {
      guard let token, token.kind == .identifier else { return nil }
      let range = token.range.start..<Swift.min(token.range.end, bytes.count)
      return String(decoding: bytes[range], as: UTF8.self).lowercased()
    }
    if let last = word(last) { return ["where", "by"].contains(last) }
    // `show *` is complete: there the star is no multiplication.
    if last.kind == .star, word(before) == "show" { return false }
    return Repl.continuing.contains(last.kind)
  }

  /// Tokens that cannot end a statement: a line ending with one goes on.
  static let continuing: Set<TokenKind> = Set([
    .and, .or, .not, .comma, .ampAmp, .pipePipe, .in, .between, .is, .plus, .minus, .star,
    .slash, .slashSlash, .percent, .ampersand, .pipe, .caret, .shiftLeft, .shiftRight, .tilde,
    .bang,
    .closedRange, .halfOpenRange,
  ]).union(TokenKind.comparisons).union(TokenKind.textOperators)

  /// Runs one entry; false when it asks to quit.
  @discardableResult
  public func handle(_ entry: String) -> Bool {
    defer { lines += entry.split(separator: "\n", omittingEmptySubsequences: false).count }
    let trimmed = entry.trimmingSpaces
    let name = String(trimmed.prefix { !$0.isWhitespace })
    // Statements and the commands that only print are paged; commands that change where
    // output goes are not.
    if !trimmed.hasPrefix(":") || Repl.printing.contains(name) { beginPage() }
    defer { endPage() }
    if trimmed.hasPrefix(":") { return command(trimmed, entry) }
    defer { if redirect?.once == true { endRedirect() } }
    do {
      try session.run(SourceText(entry, name: "<repl>", firstLine: lines + 1))
    } catch {
      fail(error)
    }
    session.output.flush()
    return true
  }

  func fail(_ error: SessionError) {
    failures += 1
    endPage()
    session.output.flush()
    errors(error.rendered(colored: colored))
  }

  /// A `:command`.
  private func command(_ trimmed: String, _ entry: String) -> Bool {
    var name = String(trimmed.prefix { !$0.isWhitespace })
    let argument = String(trimmed.dropFirst(name.count)).trimmingSpaces
    // `:save! FILE` replaces a file that exists, as an editor's `:w!` does.
    let force = name.count > 1 && name.hasSuffix("!")
    if force { name.removeLast() }
    if [":save", ":output", ":once"].contains(name), !argument.isEmpty,
      let refusal = refusal(toWrite: argument, force: force, name)
    {
      fail(commandError(entry, refusal.message, help: refusal.help, code: .cannotWrite))
      return true
    }
    let out = session.output
    switch name {
    case ":quit", ":q", ":exit": return false
    case ":help": out.write(Repl.help + "\n")
    case ":schema":
      if let data = session.current {
        out.write(
          SchemaOutline.text(
            data.schema, sampled: !(data.reader?.sawEverything ?? true),
            nullMarkers: data.reader?.nullMarkers ?? [], width: session.tableWidth()))
      } else {
        fail(commandError(entry, "no data loaded", help: "load a file first: load \"phones.json\""))
      }
    case ":memory":
      if let data = session.current {
        out.write(
          data.records.map(MemoryReport.text)
            ?? "\(data.name) is a database table: its rows stay in the database\n")
      } else {
        fail(commandError(entry, "no data loaded", help: "load a file first: load \"phones.json\""))
      }
    case ":ast", ":tokens":
      let source = SourceText(argument, name: "<repl>", firstLine: lines + 1)
      if name == ":tokens" {
        let lexed = Lexer.tokenize(source)
        for token in lexed.tokens {
          out.write("\(token.kind) \(source.slice(token.range).debugDescription)\n")
        }
      } else {
        let parsed = Parser.parseQuery(source)
        if let query = parsed.value, !parsed.hasErrors { out.write(query.debugDescription + "\n") }
        if !parsed.diagnostics.isEmpty {
          fail(SessionError(source: source, diagnostics: parsed.diagnostics))
        }
      }
    case ":run": run(script: argument, entry)
    case ":output", ":once": redirect(to: argument, once: name == ":once", entry)
    case ":reload": reload(entry)
    case ":clear": if session.verbose { out.write("\u{1B}[H\u{1B}[2J") }
    case ":settings": out.write(session.settings.listing)
    case ":datasets": out.write(datasetListing)
    case ":time":
      switch argument {
      case "on": session.settings.time = true
      case "off": session.settings.time = false
      default: fail(commandError(entry, ":time takes on or off", help: ":time on"))
      }
    case ":save":
      if argument.isEmpty {
        fail(commandError(entry, ":save needs a file name", help: ":save session.flt"))
      } else if let problem = save(to: argument) {
        fail(commandError(entry, problem.message, help: problem.help, code: .cannotWrite))
      } else {
        let count = session.transcript.count
        out.write("saved \(count) statement\(count == 1 ? "" : "s") to \(argument)\n")
      }
    default:
      let suggestion = Suggestion.closest(to: name, among: Completer.commands)
      fail(
        commandError(
          entry, "there is no command '\(name)'",
          help: suggestion.map { "did you mean '\($0)'?" } ?? ":help lists the commands"))
    }
    out.flush()
    return true
  }

  func commandError(
    _ entry: String, _ message: String, help: String? = nil,
    code: DiagnosticCode = .invalidCommand
  ) -> SessionError {
    let source = SourceText(entry, name: "<repl>", firstLine: lines + 1)
    let start = entry.utf8.prefix { $0 == 0x20 || $0 == 0x09 }.count
    let end = entry.utf8.count - entry.utf8.reversed().prefix { $0 <= 0x20 }.count
    let range = SourceRange(start: start, end: Swift.max(start, end))
    return SessionError(
      source: source, diagnostics: [Diagnostic(code, at: range, message: message, help: help)])
  }

  /// Writes the session's successful statements as a script: to a new file, renamed over
  /// `path` only once it is complete. Nil on success, else what went wrong.
  public func save(to path: String) -> ScanError? {
    let folder = (path as NSString).deletingLastPathComponent
    let here = FileManager.default.currentDirectoryPath
    var text = "# A flt session, saved by :save. Run it with: flt \(path)\n"
    for entry in session.transcript {
      // `load` paths were relative to the current folder; a script elsewhere needs them
      // absolute.
      if case .load(let name, let alias, let options) = entry.statement.kind, !folder.isEmpty,
        let loaded = entry.loadedPath, !loaded.hasPrefix("/")
      {
        let absolute = Name(here + "/" + loaded)
        text +=
          Stmt(
            .load(
              absolute, alias: alias ?? Name(Dataset.defaultName(for: name.text)),
              options: options)
          )
          .description + "\n"
      } else {
        text += entry.text + "\n"
      }
    }
    return FilePaths.writeAtomically(Array(text.utf8), to: path, mode: 0o666)
  }
}
