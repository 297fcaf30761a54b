import FilterDSL

/// The line being typed at the REPL, as a pure state machine: keys in, the new line and what
/// the caller should do out. Knows nothing of terminals, so tests feed it keys directly.
package struct LineEditor: Sendable {
  /// The text of the line.
  package private(set) var characters: [Character] = []
  /// The cursor, as an index into ``characters`` (0 is before the first).
  package private(set) var cursor = 0
  /// Earlier entries, oldest first.
  package private(set) var history: [String]
  /// Where up/down have moved in ``history``: `history.count` is the line being typed.
  private var historyIndex: Int
  /// The line being typed, kept while browsing history.
  private var draft: [Character] = []
  /// A Ctrl-R search under way.
  private var search: Search?

  /// A reverse search of the history (readline's Ctrl-R): what was typed, the entry found,
  /// and the line before the search.
  private struct Search: Sendable {
    var query: [Character] = []
    /// The index in ``history`` of the entry shown, if any.
    var found: Int?
    /// Whether the last search found nothing (the entry found before stays shown).
    var failed = false
    var original: [Character]
    var originalCursor: Int
  }

  /// While Ctrl-R searches: what the prompt shows instead of its own, `(search 'pri'): `,
  /// or `(failed search 'xyz'): ` when no entry holds the text.
  package var searchPrompt: String? {
    guard let search else { return nil }
    return "(\(search.failed ? "failed " : "")search '\(String(search.query))'): "
  }

  /// What the caller does after a key.
  package enum Action: Equatable, Sendable {
    /// Show the line again.
    case redraw
    /// The line is done (Enter).
    case submit(String)
    /// Ctrl-C: the line was abandoned.
    case cancel
    /// Ctrl-D on an empty line: the session ends.
    case endOfInput
    /// Tab: complete the word before the cursor.
    case complete
    /// Ctrl-L: clear the screen, then show the line.
    case clearScreen
    /// Nothing changed.
    case none
  }

  package init(history: [String] = []) {
    self.history = history
    historyIndex = history.count
  }

  /// The first character shown when the line is wider than the screen.
  private var scroll = 0

  /// The line as text.
  package var text: String { String(characters) }

  /// What to show of the line in `columns` terminal columns, scrolled so that the cursor is
  /// visible: the text, and how many columns of it lie after the cursor (where the terminal's
  /// cursor goes back to). A line that fits is shown whole.
  package mutating func visible(columns: Int) -> (text: String, columnsAfterCursor: Int) {
    let (range, after) = visibleRange(columns: columns)
    return (String(characters[range]), after)
  }

  /// The characters ``visible(columns:)`` shows, as a range of ``characters``, and how many
  /// columns of them lie after the cursor.
  package mutating func visibleRange(columns: Int) -> (range: Range<Int>, columnsAfterCursor: Int) {
    let columns = Swift.max(columns, 4)
    let widths = characters.map(DisplayWidth.of)
    scroll = Swift.min(scroll, cursor)
    if widths.reduce(0, +) < columns { scroll = 0 }
    // Scrolled right until what lies before the cursor fits: the width summed once and
    // taken from as the start moves (summing it again at each step made a long pasted line
    // quadratic to draw).
    var before = widths[scroll..<cursor].reduce(0, +)
    while scroll < cursor && before >= columns {
      before -= widths[scroll]
      scroll += 1
    }
    var end = scroll
    var used = 0
    while end < characters.count && used + widths[end] < columns {
      used += widths[end]
      end += 1
    }
    let after = widths[Swift.min(cursor, end)..<end].reduce(0, +)
    return (scroll..<end, after)
  }
  /// The text before the cursor.
  package var textBeforeCursor: String { String(characters[..<cursor]) }

  /// Applies `key`.
  package mutating func handle(_ key: Key) -> Action {
    if search != nil, let action = searching(key) { return action }
    switch key {
    case .text(let text):
      insert(text)
    case .enter:
      let line = text
      characters = []
      cursor = 0
      draft = []
      historyIndex = history.count
      return .submit(line)
    case .tab: return .complete
    case .backspace:
      guard cursor > 0 else { return .none }
      cursor -= 1
      characters.remove(at: cursor)
    case .delete:
      guard cursor < characters.count else { return .none }
      characters.remove(at: cursor)
    case .left: cursor = Swift.max(0, cursor - 1)
    case .right: cursor = Swift.min(characters.count, cursor + 1)
    case .home: cursor = 0
    case .end: cursor = characters.count
    case .wordLeft: cursor = wordStart(before: cursor)
    case .wordRight: cursor = wordEnd(after: cursor)
    case .killToEnd: characters.removeSubrange(cursor...)
    case .killToStart:
      characters.removeSubrange(..<cursor)
      cursor = 0
    case .killWordBefore:
      let start = wordStart(before: cursor)
      characters.removeSubrange(start..<cursor)
      cursor = start
    case .up: browse(by: -1)
    case .down: browse(by: 1)
    case .interrupt:
      characters = []
      cursor = 0
      historyIndex = history.count
      return .cancel
    case .endOfInput:
      if characters.isEmpty { return .endOfInput }
      guard cursor < characters.count else { return .none }
      characters.remove(at: cursor)
    case .clearScreen: return .clearScreen
    case .reverseSearch:
      search = Search(original: characters, originalCursor: cursor)
    case .abort, .ignored: return .none
    }
    return .redraw
  }

  /// A key during a search: text narrows it, Ctrl-R finds an older entry, Backspace widens
  /// it, Ctrl-G and Ctrl-C put the line back as it was; Enter runs the entry found, and any
  /// other key keeps it to edit and then does what it does (nil: handle it as usual).
  private mutating func searching(_ key: Key) -> Action? {
    guard var current = search else { return nil }
    switch key {
    case .text(let text):
      current.query += Array(text)
      search = current
      find(before: (current.found ?? history.count) + 1)
    case .reverseSearch:
      find(before: current.found ?? history.count)
    case .backspace:
      guard !current.query.isEmpty else { return Action.none }
      current.query.removeLast()
      search = current
      find(before: history.count)
    case .abort, .interrupt:
      (characters, cursor) = (current.original, current.originalCursor)
      search = nil
    default:
      // Keep what was found, and let the key act on it.
      search = nil
      return nil
    }
    return .redraw
  }

  /// Shows the newest entry before index `limit` that holds the query, the cursor on the
  /// match; when none does, the search has failed and what was shown stays.
  private mutating func find(before limit: Int) {
    guard var current = search else { return }
    let query = String(current.query)
    let candidates = history.indices.prefix(Swift.max(0, Swift.min(limit, history.count)))
    guard !query.isEmpty,
      let index = candidates.last(where: { history[$0].contains(query) }),
      let match = history[index].firstRange(of: query)
    else {
      current.failed = !query.isEmpty
      search = current
      return
    }
    (current.found, current.failed) = (index, false)
    search = current
    characters = Array(history[index])
    cursor = history[index].distance(from: history[index].startIndex, to: match.lowerBound)
    historyIndex = history.count
  }

  /// Inserts text at the cursor (typed, pasted or completed).
  package mutating func insert(_ text: String) {
    let new = Array(text)
    characters.insert(contentsOf: new, at: cursor)
    cursor += new.count
  }

  /// Replaces the `count` characters before the cursor with `text` (a completion).
  package mutating func replace(before count: Int, with text: String) {
    let start = Swift.max(0, cursor - count)
    characters.removeSubrange(start..<cursor)
    cursor = start
    insert(text)
  }

  /// Adds an entry to the history (not blank), dropping an earlier copy of it.
  package mutating func remember(_ entry: String) {
    if !entry.trimmingSpaces.isEmpty {
      history.removeAll { $0 == entry }
      history.append(entry)
    }
    historyIndex = history.count
  }

  private mutating func browse(by step: Int) {
    let target = historyIndex + step
    guard target >= 0, target <= history.count, target != historyIndex else { return }
    if historyIndex == history.count { draft = characters }
    historyIndex = target
    characters = target == history.count ? draft : Array(history[target])
    cursor = characters.count
  }

  private func isWord(_ c: Character) -> Bool {
    c.isLetter || c.isNumber || c == "_" || c == "$"
  }

  /// The start of the word before `index` (skipping spaces and punctuation first).
  private func wordStart(before index: Int) -> Int {
    var i = index
    while i > 0, !isWord(characters[i - 1]) { i -= 1 }
    while i > 0, isWord(characters[i - 1]) { i -= 1 }
    return i
  }

  /// The end of the word after `index`.
  private func wordEnd(after index: Int) -> Int {
    var i = index
    while i < characters.count, !isWord(characters[i]) { i += 1 }
    while i < characters.count, isWord(characters[i]) { i += 1 }
    return i
  }
}
