import FilterDSL
import FilterData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `:output FILE`, `:once FILE` and `:reload`.
extension Repl {
  /// Results going to a file instead of the session's own output, with what to put back.
  struct Redirect {
    let path: String
    let descriptor: Int32
    /// For one entry only (`:once`).
    let once: Bool
    let saved: (output: OutputSink, styled: Bool, tableWidth: () -> Int?)
  }

  /// `:output FILE` (results to FILE, replacing what it held, until `:output` alone) and
  /// `:once FILE` (the next entry's results only). Tables there are plain: no colour, not
  /// fitted to the terminal.
  func redirect(to argument: String, once: Bool, _ entry: String) {
    if argument.isEmpty {
      if once {
        fail(commandError(entry, ":once needs a file name", help: ":once matches.csv"))
      } else if let redirect {
        let path = redirect.path
        endRedirect()
        session.output.write("results come here again (they went to \(path))\n")
        session.output.flush()
      }
      return
    }
    let path = session.resolve(argument)
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      fail(commandError(entry, "cannot write \(argument): \(reason)", code: .cannotWrite))
      return
    }
    endRedirect()
    redirect = Redirect(
      path: argument, descriptor: descriptor, once: once,
      saved: (session.output, session.styled, session.tableWidth))
    session.output.write(
      once
        ? "the next entry's results go to \(argument)\n"
        : "results go to \(argument) (:output alone sends them here again)\n")
    session.output.flush()
    session.output = OutputSink(descriptor: descriptor)
    session.styled = false
    session.tableWidth = { nil }
  }

  /// Why `command` (`:save`, `:output`, `:once`) must not write to `argument`, or nil: a file
  /// loaded in the session is never written over (results or a script over the data lost
  /// it), and a file that exists is replaced only with `!` (`:save! FILE`).
  func refusal(toWrite argument: String, force: Bool, _ command: String)
    -> (message: String, help: String)?
  {
    let path = session.resolve(argument)
    var target = stat()
    guard stat(path, &target) == 0 else { return nil }
    for data in session.datasets where data.records != nil {
      var loaded = stat()
      if stat(data.path, &loaded) == 0, loaded.st_dev == target.st_dev,
        loaded.st_ino == target.st_ino
      {
        return (
          "will not write over \(argument): it is the data loaded as \(data.name)",
          "write to another file: \(command) \(Self.otherName(argument))"
        )
      }
    }
    guard !force, target.st_mode & S_IFMT == S_IFREG else { return nil }
    return (
      "\(argument) exists", "\(command)! \(argument) replaces it; or write to another file"
    )
  }

  /// A name beside `path` for a file that must not be replaced: `phones.json` ->
  /// `phones-1.json`.
  static func otherName(_ path: String) -> String {
    let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
    guard let dot = path[slash...].lastIndex(of: "."), dot > slash else { return path + "-1" }
    return path[..<dot] + "-1" + path[dot...]
  }

  /// Puts the session's own output back, and closes the file results went to.
  func endRedirect() {
    guard let redirect else { return }
    session.output.flush()
    if let failure = session.output.failure {
      errors("error: writing \(redirect.path) failed: \(failure)\n")
    }
    close(redirect.descriptor)
    (session.output, session.styled, session.tableWidth) = redirect.saved
    self.redirect = nil
  }

  /// `:reload`: the current data read again from where it was loaded, with the options it
  /// was loaded with, under its name.
  func reload(_ entry: String) {
    guard let data = session.current else {
      fail(commandError(entry, "no data loaded", help: "load a file first: load \"phones.json\""))
      return
    }
    let loaded = session.transcript.last { entry in
      if case .load = entry.statement.kind { entry.loadedPath == data.path } else { false }
    }
    guard let loaded, case .load(_, _, let options) = loaded.statement.kind else {
      fail(commandError(entry, "\(data.name) was not loaded here: nothing to reload"))
      return
    }
    let statement = Stmt(.load(Name(data.path), alias: Name(data.name), options: options))
    do {
      try session.run(SourceText(statement.description, name: "<reload>"))
    } catch {
      fail(error)
    }
  }
}

/// Paging: an entry's results collected, then shown through the pager when they are taller
/// than the screen.
extension Repl {
  /// The commands whose output is paged (they only print).
  static let printing: Set<String> = [
    ":help", ":schema", ":memory", ":ast", ":tokens", ":settings", ":datasets",
  ]

  /// Starts collecting results for the pager, when paging is on and there is a screen.
  func beginPage() {
    guard session.settings.pager, redirect == nil, paged == nil, screen() != nil else { return }
    session.output.flush()
    paged = session.output
    session.output = OutputSink()
  }

  /// Shows what was collected: through the pager when it is taller than the screen (less a
  /// row for the prompt), else printed.
  func endPage() {
    guard let own = paged else { return }
    paged = nil
    let text = session.output.text
    session.output = own
    if let screen = screen(), Pager.rows(of: text, columns: screen.columns) >= screen.rows,
      page(text)
    {
      return
    }
    own.write(text)
    own.flush()
  }
}
