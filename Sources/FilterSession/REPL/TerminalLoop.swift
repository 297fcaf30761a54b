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
    var live = LiveStatus()
    // The names coloured as fields, made again only when the data or the named filters change
    // (a file of 20,000 fields would otherwise build a set of them at every key).
    var highlighter = Highlighter(names: [])
    var highlighted: (data: ObjectIdentifier?, filters: Int)? = nil
    func currentHighlighter() -> Highlighter {
      let session = repl.session
      let key = (session.current.map(ObjectIdentifier.init), session.definitions.filters.count)
      if highlighted?.data != key.0 || highlighted?.filters != key.1 {
        highlighter = Highlighter(
          names: Set(session.current?.schema.names ?? []).union(session.definitions.filters.keys))
        highlighted = key
      }
      return highlighter
    }
    defer { RawMode.restore() }
    // Draws the prompt and the visible part of the line (coloured, the live check's error
    // underlined), the live status under it, and puts the cursor back in the line.
    // `entered`: the editor as it was when Enter was pressed (it is empty now): drawn whole,
    // wrapped by the terminal, so that what scrolls up is the statement as typed, not the
    // part of a long one that was in view.
    func draw(entered: LineEditor? = nil) {
      var line = entered ?? editor
      defer { if entered == nil { editor = line } }
      let promptText = line.searchPrompt ?? repl.prompt(continuing: !entry.isEmpty)
      let promptWidth = DisplayWidth.of(promptText)
      let columns = TerminalLoop.columns()
      let (range, after) =
        entered != nil
        ? (line.characters.indices, 0)
        : line.visibleRange(columns: columns - promptWidth - 1)
      let characters = line.characters
      let shown = characters[range]
      var text = "\r"
      if repl.colored {
        text += "\u{1B}[1;32m" + promptText + "\u{1B}[0m"
        if line.searchPrompt == nil {
          let kinds = currentHighlighter().kinds(of: characters, error: live.errorRange)
          text += Highlighter.render(shown, kinds[range])
        } else {
          text += String(shown)
        }
      } else {
        text += promptText + String(shown)
      }
      // Clears the rest of the line and the status line under it.
      text += "\u{1B}[J"
      if let status = live.line(columns: columns - 1, colored: repl.colored) {
        let column = promptWidth + DisplayWidth.of(String(shown)) - after
        text += "\r\n" + status + "\u{1B}[K\u{1B}[1A\r" + (column > 0 ? "\u{1B}[\(column)C" : "")
      } else if after > 0 {
        text += "\u{1B}[\(after)D"
      }
      write(text)
    }
    // After the keys of one read: the live status for the line as it now is, unless more
    // keys are coming (they are handled first) or come while it counts (it stops).
    func updateLive() {
      guard editor.searchPrompt == nil else {
        live.clear()
        return
      }
      guard !live.isCurrent(entry: entry, line: editor.text),
        !TerminalLoop.inputPending(waiting: 15)
      else { return }
      // Keys are looked for at most once a millisecond (the count asks every 1,024 rows).
      var looked = SystemClock.seconds()
      let changed = live.update(entry: entry, line: editor.text) { whole in
        repl.preview(whole) {
          let now = SystemClock.seconds()
          guard now - looked >= 0.001 else { return false }
          looked = now
          return TerminalLoop.inputPending(waiting: 0)
        }
      }
      if changed { draw() }
    }
    guard RawMode.enter() else { return }
    Interrupt.install()
    repl.session.interrupted = { Interrupt.requested }
    draw()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    // A line changed but not drawn yet: keys that change it only are drawn once, when the
    // input pauses, so that a paste is one edit (drawing at every key of a 33 KB paste took
    // over a minute).
    var undrawn = false
    reading: while true {
      if undrawn && !TerminalLoop.inputPending(waiting: 0) {
        draw()
        undrawn = false
        updateLive()
      }
      let count = read(0, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      for key in decoder.feed(buffer[..<count]) {
        // The line as shown before Enter, to draw without the status under it. Kept only
        // for Enter: a copy kept at every key made each key copy the whole line.
        let before = key == .enter ? editor : nil
        let action = editor.handle(key)
        let tabbed = action == .complete
        defer { lastTab = tabbed }
        switch action {
        case .none: continue
        case .redraw: undrawn = true
        case .clearScreen:
          write("\u{1B}[H\u{1B}[2J")
          draw()
        case .cancel:
          clearStatus(&live)
          write("^C\r\n")
          entry = ""
          draw()
        case .endOfInput:
          clearStatus(&live)
          write("\r\n")
          break reading
        case .complete:
          complete(&editor, entry: entry, listing: lastTab)
          draw()
        case .submit(let line):
          // The line as it was shown, without the status under it.
          live.clear()
          draw(entered: before ?? editor)
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
      if !undrawn { updateLive() }
    }
  }

  /// Clears the live status under the line, leaving the line and the cursor as they are.
  private func clearStatus(_ live: inout LiveStatus) {
    // The status line exists, so moving down onto it cannot scroll.
    if live.text != nil { write("\u{1B}7\u{1B}[1B\r\u{1B}[K\u{1B}8") }
    live.clear()
  }

  /// Whether keys are waiting on standard input, after waiting up to `milliseconds` for them.
  static func inputPending(waiting milliseconds: Int32) -> Bool {
    var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, milliseconds) > 0
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
        with: candidates[0] + completion.suffix)
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
      // Under the line, over the live status (cleared first: the list is shorter than it).
      write("\r\n\u{1B}[J" + lines.joined(separator: "\r\n") + "\r\n")
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
