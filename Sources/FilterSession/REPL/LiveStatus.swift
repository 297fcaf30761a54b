import FilterDSL

/// Live results: the line under the REPL's input that says, after each key, how many records
/// the filter typed so far matches, or its first error (also underlined in the input). Pure
/// apart from the preview it is given, so tests feed it entries.
package struct LiveStatus {
  /// The text shown under the input, without colours; nil when nothing is shown.
  package private(set) var text: String?
  /// Whether ``text`` is an error.
  package private(set) var isError = false
  /// The UTF-8 byte range of the error in the line being edited (not earlier lines of the
  /// entry), to underline.
  package private(set) var errorRange: Range<Int>?
  /// The entry the status was made for: the same entry is not previewed twice.
  private var shownFor: String?

  package init() {}

  /// Whether the status is already that of `entry` and `line`.
  package func isCurrent(entry: String, line: String) -> Bool {
    (entry.isEmpty ? line : entry + "\n" + line) == shownFor
  }

  /// Updates the status for `entry` (earlier lines of a multi-line entry, then the line being
  /// edited, `line`) with `preview`, which runs it and returns nil when it was stopped. Returns
  /// whether the status changed.
  package mutating func update(
    entry: String, line: String, _ preview: (String) -> LivePreview?
  ) -> Bool {
    let whole = entry.isEmpty ? line : entry + "\n" + line
    guard whole != shownFor else { return false }
    guard let result = preview(whole) else { return false }
    shownFor = whole
    let before = (text, isError, errorRange)
    (text, isError, errorRange) = (nil, false, nil)
    switch result {
    case .nothing: break
    case .checked: text = "checks (the database counts slower than you type): runs on Enter"
    case .matches(let count, let total):
      text = "\(count) of \(total) record\(total == 1 ? "" : "s") match\(count == 1 ? "es" : "")"
    case .problem(let diagnostic):
      isError = true
      text =
        "error[\(diagnostic.code)]: \(diagnostic.message)"
        + (diagnostic.help.map { "; \($0)" } ?? "")
      let offset = whole.utf8.count - line.utf8.count
      if diagnostic.range.start >= offset {
        errorRange = (diagnostic.range.start - offset)..<(diagnostic.range.end - offset)
      }
    }
    return before.0 != text || before.1 != isError || before.2 != errorRange
  }

  /// Forgets the status (after Enter, Ctrl-C, or while searching history).
  package mutating func clear() {
    self = LiveStatus()
  }

  /// The status as shown in `columns` terminal columns: cut with `…` when longer, dimmed
  /// (red for an error) when `colored`.
  package func line(columns: Int, colored: Bool) -> String? {
    guard let text else { return nil }
    // A diagnostic may quote the line: control characters would move the cursor.
    let printable = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    let shown = DisplayWidth.fit(printable, Swift.max(1, columns)).text
    guard colored else { return shown }
    return (isError ? "\u{1B}[31m" : "\u{1B}[2m") + shown + "\u{1B}[0m"
  }
}
