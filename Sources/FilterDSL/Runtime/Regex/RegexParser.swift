/// A parsed pattern.
package indirect enum RegexNode: Sendable {
  case empty
  case character(Character)
  case any
  case set(RegexCharacterClass)
  case start
  case end
  case sequence([RegexNode])
  case alternation([RegexNode])
  case repeated(RegexNode, min: Int, max: Int?)
}

extension RegexNode {
  /// The tree of `pattern`, when it compiles as `matches` compiles it (nil when flt would
  /// find it invalid or too large): for back ends that translate patterns (the SQL writer).
  package static func tree(of pattern: String) -> RegexNode? {
    guard (try? RegexProgram(pattern)) != nil else { return nil }
    var parser = RegexParser(pattern: Array(pattern))
    return try? parser.parse()
  }
}

/// A class of characters: `[a-z0-9_]`, `\d`, `[^ ]`.
package struct RegexCharacterClass: Equatable, Sendable {
  package var ranges: [ClosedRange<Character>] = []
  package var predicates: [Predicate] = []
  package var negated = false

  /// A class by a property of the whole character (a letter with its accents is a letter):
  /// the shorthands `\d \w \s` and the POSIX classes `[[:alpha:]]`, Unicode-aware.
  package enum Predicate: String, Equatable, Sendable, CaseIterable {
    case digit, word, space
    case alpha, alnum, upper, lower, punct, xdigit, blank, cntrl, print, graph

    package func contains(_ c: Character) -> Bool {
      switch self {
      case .digit: c.isASCII && c.isNumber
      case .word: c == "_" || c.isLetter || c.isNumber
      case .space: c.isWhitespace
      case .alpha: c.isLetter
      case .alnum: c.isLetter || c.isNumber
      case .upper: c.isUppercase
      case .lower: c.isLowercase
      // ASCII's punctuation includes its symbols ($ + < = > ^ ` | ~), as in POSIX.
      case .punct: c.isPunctuation || (c.isASCII && c.isSymbol)
      case .xdigit: c.isHexDigit
      case .blank: c == " " || c == "\t"
      case .cntrl: c.unicodeScalars.first.map { $0.properties.generalCategory == .control } ?? false
      case .print: !Predicate.cntrl.contains(c)
      case .graph: !Predicate.cntrl.contains(c) && !c.isWhitespace
      }
    }

    /// The POSIX class called `name` (`[:digit:]` is ``digit``, `[:space:]` ``space``).
    static func posix(_ name: String) -> Predicate? {
      Predicate(rawValue: name)
    }
  }

  func contains(_ c: Character) -> Bool {
    let inside =
      ranges.contains { RegexCharacterClass.range($0, contains: c) }
      || predicates.contains { $0.contains(c) }
    return inside != negated
  }

  /// The one rule for a character in a set, in `matches` and `like` alike: a listed character
  /// matches a character equal to it (`[é]` matches `é` however it is encoded); a range
  /// matches characters of one code point between its bounds, so that `[A-Z]` no more takes
  /// `H̱` (H and a combining mark) than `[H]` does.
  static func range(_ range: ClosedRange<Character>, contains c: Character) -> Bool {
    if range.lowerBound == range.upperBound { return c == range.lowerBound }
    return c.unicodeScalars.count == 1 && range.contains(c)
  }
}

/// Recursive descent over the pattern, with a nesting limit.
struct RegexParser {
  let pattern: [Character]
  var index = 0
  var depth = 0

  init(pattern: [Character]) { self.pattern = pattern }

  mutating func parse() throws(RegexError) -> RegexNode {
    guard pattern.count <= RegexProgram.maxPatternLength else {
      throw RegexError(
        message: "the pattern is longer than \(RegexProgram.maxPatternLength) characters", offset: 0
      )
    }
    let node = try alternation()
    if index < pattern.count {
      throw RegexError(message: "unmatched ')'", offset: index)
    }
    return node
  }

  private var current: Character? { index < pattern.count ? pattern[index] : nil }

  // alternation = sequence { "|" sequence } ;
  private mutating func alternation() throws(RegexError) -> RegexNode {
    var branches = [try sequence()]
    while current == "|" {
      index += 1
      branches.append(try sequence())
    }
    return branches.count == 1 ? branches[0] : .alternation(branches)
  }

  // sequence = { repeat } ;
  private mutating func sequence() throws(RegexError) -> RegexNode {
    var items: [RegexNode] = []
    while let c = current, c != "|", c != ")" {
      items.append(try repeated())
    }
    return items.count == 1 ? items[0] : items.isEmpty ? .empty : .sequence(items)
  }

  // repeat = atom { "*" | "+" | "?" | "{" m [ "," [ n ] ] "}" } [ "?" ] ;
  private mutating func repeated() throws(RegexError) -> RegexNode {
    var node = try atom()
    while let c = current, c == "*" || c == "+" || c == "?" || c == "{" {
      if case .start = node {
        throw RegexError(message: "nothing to repeat before '\(c)'", offset: index)
      }
      if case .end = node {
        throw RegexError(message: "nothing to repeat before '\(c)'", offset: index)
      }
      let (min, max) = try quantifier()
      node = .repeated(node, min: min, max: max)
      if current == "?" { index += 1 }  // lazy: the same set of whole-text matches
    }
    return node
  }

  private mutating func quantifier() throws(RegexError) -> (Int, Int?) {
    let c = pattern[index]
    index += 1
    switch c {
    case "*": return (0, nil)
    case "+": return (1, nil)
    case "?": return (0, 1)
    default:
      let open = index - 1
      guard let min = try number() else {
        throw RegexError(message: "expected a number after '{'", offset: index)
      }
      var max: Int? = min
      if current == "," {
        index += 1
        max = try number()
      }
      guard current == "}" else {
        throw RegexError(message: "expected '}' to close '{'", offset: open)
      }
      index += 1
      if let max, max < min {
        throw RegexError(
          message: "{\(min),\(max)}: the maximum is less than the minimum", offset: open)
      }
      return (min, max)
    }
  }

  private mutating func number() throws(RegexError) -> Int? {
    var value = 0
    var digits = 0
    while let c = current, let digit = c.wholeNumberValue, c.isASCII {
      value = value * 10 + digit
      digits += 1
      index += 1
      if value > 1000 {
        throw RegexError(message: "repetition counts go up to 1000", offset: index - digits)
      }
    }
    return digits > 0 ? value : nil
  }

  // atom = character | "." | "^" | "$" | class | escape | "(" [ "?:" ] alternation ")" ;
  private mutating func atom() throws(RegexError) -> RegexNode {
    guard let c = current else {
      throw RegexError(message: "unexpected end of pattern", offset: index)
    }
    let start = index
    index += 1
    switch c {
    case ".": return .any
    case "^": return .start
    case "$": return .end
    case "[": return .set(try characterClass(openedAt: start))
    case "\\": return try escape()
    case "(":
      depth += 1
      defer { depth -= 1 }
      if depth > 100 {
        throw RegexError(message: "groups are nested more than 100 deep", offset: start)
      }
      if current == "?" {
        guard index + 1 < pattern.count, pattern[index + 1] == ":" else {
          throw RegexError(
            message: "only (?:...) groups are supported; lookaround and named groups are not",
            offset: start)
        }
        index += 2
      }
      let inner = try alternation()
      guard current == ")" else { throw RegexError(message: "'(' is never closed", offset: start) }
      index += 1
      return inner
    case "*", "+", "?", "{":
      throw RegexError(message: "nothing to repeat before '\(c)'", offset: start)
    default:
      return .character(c)
    }
  }

  private mutating func escape() throws(RegexError) -> RegexNode {
    guard let c = current else {
      throw RegexError(message: "'\\' at the end of the pattern", offset: index - 1)
    }
    index += 1
    switch c {
    case "d", "w", "s", "D", "W", "S": return .set(Self.shorthand(c))
    case "n": return .character("\n")
    case "t": return .character("\t")
    default:
      if c.isLetter || c.isNumber {
        throw RegexError(
          message: "unknown escape '\\\(c)'; backreferences are not supported", offset: index - 2)
      }
      return .character(c)
    }
  }

  static func shorthand(_ c: Character) -> RegexCharacterClass {
    var set = RegexCharacterClass()
    switch c.lowercased() {
    case "d": set.predicates = [.digit]
    case "w": set.predicates = [.word]
    default: set.predicates = [.space]
    }
    set.negated = c.isUppercase
    return set
  }

  private mutating func characterClass(openedAt start: Int) throws(RegexError)
    -> RegexCharacterClass
  {
    var set = RegexCharacterClass()
    if current == "^" {
      set.negated = true
      index += 1
    }
    // `[:alpha:]` alone is a set of ':', 'a', 'l', ...: almost always meant as [[:alpha:]].
    if current == ":", let close = pattern[index...].firstIndex(of: "]"), close > index + 1,
      pattern[close - 1] == ":"
    {
      let name = String(pattern[(index + 1)..<(close - 1)])
      throw RegexError(
        message: "write a class such as [:\(name):] inside brackets: [[:\(name):]]",
        offset: start)
    }
    var first = true
    while let c = current, c != "]" || first {
      first = false
      index += 1
      if c == "[", current == ":" {
        set.predicates.append(try posixClass(openedAt: index - 1))
        continue
      }
      var low = c
      if c == "\\" {
        guard let escaped = current else { break }
        index += 1
        if "dwsDWS".contains(escaped) {
          let inner = Self.shorthand(escaped)
          if inner.negated {
            throw RegexError(
              message: "\\\(escaped) inside [...] is not supported", offset: index - 2)
          }
          set.predicates += inner.predicates
          continue
        }
        low = escaped == "n" ? "\n" : escaped == "t" ? "\t" : escaped
      }
      if current == "-", index + 1 < pattern.count, pattern[index + 1] != "]" {
        index += 1
        var high = pattern[index]
        index += 1
        if high == "\\", let escaped = current {
          index += 1
          high = escaped
        }
        guard low <= high else {
          throw RegexError(message: "range \(low)-\(high) is out of order", offset: index - 3)
        }
        set.ranges.append(low...high)
      } else {
        set.ranges.append(low...low)
      }
    }
    guard current == "]" else { throw RegexError(message: "'[' is never closed", offset: start) }
    index += 1
    return set
  }

  /// `[:name:]` inside a bracket expression, from its `[` at `start`.
  private mutating func posixClass(openedAt start: Int) throws(RegexError)
    -> RegexCharacterClass.Predicate
  {
    index += 1  // the ':'
    var name = ""
    while let c = current, c != ":", c != "]" {
      name.append(c)
      index += 1
    }
    let names = RegexCharacterClass.Predicate.allCases.map { "[:\($0.rawValue):]" }
    guard current == ":", index + 1 < pattern.count, pattern[index + 1] == "]" else {
      throw RegexError(
        message: "'[:' begins a class such as [:alpha:] and is never closed with ':]'",
        offset: start)
    }
    index += 2
    guard let predicate = RegexCharacterClass.Predicate.posix(name) else {
      throw RegexError(
        message: "unknown class [:\(name):]; the classes are \(names.joined(separator: " "))",
        offset: start)
    }
    return predicate
  }
}

/// Turns a parsed pattern into instructions.
struct RegexCompiler {
  var instructions: [RegexInstruction] = []

  mutating func append(_ instruction: RegexInstruction) {
    instructions.append(instruction)
  }

  mutating func emit(_ node: RegexNode) throws(RegexError) {
    guard instructions.count < RegexProgram.maxInstructions else {
      throw RegexError(
        message: "the pattern is too large once its repetitions are expanded", offset: 0)
    }
    switch node {
    case .empty: break
    case .character(let c): append(.character(c))
    case .any: append(.any)
    case .set(let set): append(.set(set))
    case .start: append(.assertStart)
    case .end: append(.assertEnd)
    case .sequence(let items):
      for item in items { try emit(item) }
    case .alternation(let branches):
      // split L1, next; L1: branch; jump end; next: split ...
      var jumps: [Int] = []
      for (i, branch) in branches.enumerated() {
        if i < branches.count - 1 {
          let split = instructions.count
          append(.split(split + 1, 0))
          try emit(branch)
          jumps.append(instructions.count)
          append(.jump(0))
          instructions[split] = .split(split + 1, instructions.count)
        } else {
          try emit(branch)
        }
      }
      for jump in jumps { instructions[jump] = .jump(instructions.count) }
    case .repeated(let inner, let min, let max):
      for _ in 0..<min { try emit(inner) }
      if let max {
        // Up to max - min optional copies.
        var splits: [Int] = []
        for _ in min..<max {
          splits.append(instructions.count)
          append(.split(instructions.count + 1, 0))
          try emit(inner)
        }
        for split in splits { instructions[split] = .split(split + 1, instructions.count) }
      } else {
        // L: split body, end; body; jump L
        let loop = instructions.count
        append(.split(loop + 1, 0))
        try emit(inner)
        append(.jump(loop))
        instructions[loop] = .split(loop + 1, instructions.count)
      }
    }
  }
}
