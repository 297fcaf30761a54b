import FilterDSL
import FilterData
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The interactive loop: raw-mode key reading, the line editor, drawing, completion, history.
package struct TerminalLoop {
  let repl: Repl
  private let history = History(
    path: History.defaultPath(environment: ProcessInfo.processInfo.environment))

  package init(repl: Repl) { self.repl = repl }

  /// Reads and runs entries until Ctrl-D or `:quit`; the terminal is restored whatever happens.
  package func run() {
    var editor = LineEditor(history: history.load())
    var decoder = KeyDecoder()
    var entry = ""
    var lastTab = false
    defer { RawMode.restore() }
    func prompt() -> String {
      let text = editor.searchPrompt ?? repl.prompt(continuing: !entry.isEmpty)
      return repl.colored ? "\u{1B}[1;32m" + text + "\u{1B}[0m" : text
    }
    func draw() {
      let promptWidth = DisplayWidth.of(
        editor.searchPrompt ?? repl.prompt(continuing: !entry.isEmpty))
      let (text, after) = editor.visible(columns: TerminalLoop.columns() - promptWidth - 1)
      var line = "\r" + prompt() + text + "\u{1B}[K"
      if after > 0 { line += "\u{1B}[\(after)D" }
      write(line)
    }
    guard RawMode.enter() else { return }
    Interrupt.install()
    repl.session.interrupted = { Interrupt.requested }
    draw()
    var buffer = [UInt8](repeating: 0, count: 256)
    reading: while true {
      let count = read(0, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      for key in decoder.feed(buffer[..<count]) {
        let action = editor.handle(key)
        let tabbed = action == .complete
        defer { lastTab = tabbed }
        switch action {
        case .none: continue
        case .redraw: draw()
        case .clearScreen:
          write("\u{1B}[H\u{1B}[2J")
          draw()
        case .cancel:
          write("^C\r\n")
          entry = ""
          draw()
        case .endOfInput:
          write("\r\n")
          break reading
        case .complete:
          complete(&editor, entry: entry, listing: lastTab)
          draw()
        case .submit(let line):
          write("\r\n")
          entry += entry.isEmpty ? line : "\n" + line
          if Repl.needsMoreInput(entry) {
            draw()
            continue
          }
          let text = entry
          entry = ""
          editor.remember(text)
          history.add(text)
          RawMode.quiet()
          Interrupt.reset()
          let goOn = repl.handle(text)
          guard goOn, RawMode.enter() else { break reading }
          draw()
        }
      }
    }
  }

  /// Tab: a unique completion is inserted; several extend the word to what they share, and
  /// a second Tab lists them.
  private func complete(_ editor: inout LineEditor, entry: String, listing: Bool) {
    let before = (entry.isEmpty ? "" : entry + "\n") + editor.textBeforeCursor
    let completion = Completer(repl.session).complete(before)
    let candidates = completion.candidates
    guard !candidates.isEmpty else { return }
    if candidates.count == 1 {
      editor.replace(
        before: completion.replacing,
        with: candidates[0] + (completion.appendsSpace ? " " : ""))
      return
    }
    var shared = candidates[0]
    for candidate in candidates.dropFirst() {
      shared = String(zip(shared, candidate).prefix { $0 == $1 }.map(\.0))
    }
    if shared.count > completion.replacing {
      editor.replace(before: completion.replacing, with: shared)
    } else if listing {
      let lines = Completer.columns(candidates, width: TerminalLoop.columns() - 1)
      write("\r\n" + lines.joined(separator: "\r\n") + "\r\n")
    }
  }

  /// The terminal's width in columns (80 when it cannot be asked).
  static func columns() -> Int {
    Descriptor.terminalSize(1)?.columns ?? 80
  }

  private func write(_ text: String) {
    Descriptor.write(Array(text.utf8), to: 1)
  }

}
