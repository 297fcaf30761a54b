/// Case and diacritic folding for the `[c]` and `[d]` modifiers, with Unicode rules and no
/// Foundation.
package enum TextFolding {
  /// `text` folded as `options` say: `[c]` maps case (full folding, so `ß` matches `SS`),
  /// `[d]` removes combining marks after canonical decomposition of common Latin, Greek and
  /// Cyrillic letters (`é` matches `e`).
  package static func fold(_ text: String, _ options: StringOptions) -> String {
    var result = text
    if options.contains(.diacriticInsensitive) { result = stripDiacritics(result) }
    if options.contains(.caseInsensitive) { result = result.uppercased().lowercased() }
    return result
  }

  /// A `matches` pattern folded like the text it is matched against, leaving escapes (`\D`,
  /// `\W`...) as they are.
  package static func foldPattern(_ pattern: String, _ options: StringOptions) -> String {
    guard !options.isEmpty else { return pattern }
    var out = ""
    var escaped = false
    for character in pattern {
      if escaped || character == "\\" {
        out.append(character)
        escaped = !escaped && character == "\\"
        continue
      }
      out += fold(String(character), options)
    }
    return out
  }

  static func stripDiacritics(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark: continue
      default: break
      }
      if let base = Diacritics.base(of: scalar) {
        out.append(base)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }
}
