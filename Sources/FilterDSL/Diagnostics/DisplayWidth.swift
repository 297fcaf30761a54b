/// How many terminal columns text takes: 2 for wide East Asian characters and emoji,
/// 0 for combining marks and other zero-width characters, 1 otherwise.
public enum DisplayWidth {
  /// The number of columns `character` takes in a terminal.
  public static func of(_ character: Character) -> Int {
    var width = 0
    var first = true
    for scalar in character.unicodeScalars {
      let w = of(scalar)
      if first {
        width = w
        first = false
      } else if w == 2 || (scalar == "\u{FE0F}" && width == 1) {
        // A wide part, or an emoji presentation selector, widens the whole cluster.
        width = 2
      }
    }
    return width
  }

  /// The number of columns `text` takes in a terminal.
  public static func of(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + of($1) }
  }

  /// `text` cut to at most `maxWidth` columns, ending in `…` when it was cut, and its width.
  public static func fit(_ text: String, _ maxWidth: Int) -> (text: String, width: Int) {
    let widths = text.map(DisplayWidth.of)
    let total = widths.reduce(0, +)
    guard total > maxWidth else { return (text, total) }
    var cut = ""
    var width = 0
    for (character, w) in zip(text, widths) {
      if width + w >= maxWidth { break }
      cut.append(character)
      width += w
    }
    return (cut + "…", width + 1)
  }

  static func of(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x7F { return v < 0x20 ? 0 : 1 }
    if v < 0xA0 { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if scalar.properties.isEmojiPresentation { return 2 }
    for range in wideRanges where range.contains(v) { return 2 }
    return 1
  }

  /// East Asian Wide and Fullwidth blocks.
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD,
    0x30000...0x3FFFD,
  ]
}
