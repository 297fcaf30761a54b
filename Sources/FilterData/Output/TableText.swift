/// Text made safe for a terminal table: line breaks and other control characters shown as
/// visible symbols, so that no cell can move the cursor or send escape sequences.
package enum TableText {
  /// `text` for a message on a terminal: control characters other than line breaks and tabs
  /// written as `\u{1B}` (a table name, a server's message, a path), so that no message can
  /// send escape sequences.
  /// With `keepingLineBreaks` false, line breaks and tabs are escaped too (`\n`, `\t`,
  /// `\r`), so that a value stays on its line (``RecordWriter/plainValue(_:)``). C1 controls
  /// are escaped either way.
  package static func escapingControls(_ text: String, keepingLineBreaks: Bool = true) -> String {
    func escaped(_ scalar: Unicode.Scalar) -> Bool {
      if scalar == "\n" || scalar == "\t" { return !keepingLineBreaks }
      return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
    guard text.unicodeScalars.contains(where: escaped) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\t" where escaped(scalar): out += "\\t"
      case "\n" where escaped(scalar): out += "\\n"
      case "\r": out += "\\r"
      case _ where escaped(scalar):
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  package static func printable(_ text: String) -> String {
    guard
      text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    else { return text }
    return String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { scalar in
          switch scalar.value {
          case 0x0A: "↵"
          case 0x09: "→"
          case ..<0x20, 0x7F...0x9F: "\u{FFFD}"
          default: scalar
          }
        }))
  }
}
