/// The text operators: `contains`, `startsWith`, `endsWith`, `like`, `matches`.
enum TextMatching {
  static func test(_ op: TextOperator, _ subject: Value, _ operand: Value, _ options: StringOptions)
    -> Truth
  {
    if op == .contains, case .list(let elements) = subject {
      // `tags contains 5G`: membership.
      guard !operand.isNull else { return .unknown }
      return elements.contains { element in
        if case .string(let a) = element, case .string(let b) = operand, !options.isEmpty {
          return TextFolding.fold(a, options) == TextFolding.fold(b, options)
        }
        return ValueOrder.compare(element, operand) == 0
      } ? .true : (elements.contains(where: \.isNull) ? .unknown : .false)
    }
    guard case .string(var text) = subject, case .string(var pattern) = operand else {
      return .unknown
    }
    if !options.isEmpty {
      text = TextFolding.fold(text, options)
      pattern =
        op == .matches
        ? TextFolding.foldPattern(pattern, options) : TextFolding.fold(pattern, options)
    }
    switch op {
    case .contains: return Truth(pattern.isEmpty || text.contains(pattern))
    case .startsWith: return Truth(text.hasPrefix(pattern))
    case .endsWith: return Truth(text.hasSuffix(pattern))
    case .like: return Truth(Glob.matches(Array(text), pattern: Array(pattern)))
    case .matches:
      guard let regex = try? RegexProgram(pattern) else { return .unknown }
      return Truth(regex.matches(text))
    }
  }
}

/// `like` patterns: `*` matches any run of characters, `?` one character, `\` escapes the next
/// character. Matching is linear in the text for each star (no exponential backtracking).
enum Glob {
  static func matches(_ text: [Character], pattern: [Character]) -> Bool {
    var t = 0
    var p = 0
    var starPattern = -1
    var starText = 0
    while t < text.count {
      if p < pattern.count {
        let c = pattern[p]
        if c == "*" {
          starPattern = p
          starText = t
          p += 1
          continue
        }
        if c == "\\", p + 1 < pattern.count {
          if pattern[p + 1] == text[t] {
            p += 2
            t += 1
            continue
          }
        } else if c == "?" || c == text[t] {
          p += 1
          t += 1
          continue
        }
      }
      guard starPattern >= 0 else { return false }
      // Let the last star take one more character, and try again after it.
      p = starPattern + 1
      starText += 1
      t = starText
    }
    while p < pattern.count, pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }
}
