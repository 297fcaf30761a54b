/// A compiled regular expression for `matches`: the whole text must match. Matching simulates
/// the pattern's automaton on all paths at once (Thompson's construction, as in RE2), so it
/// takes time proportional to the text length times the pattern size, whatever the pattern:
/// `(a+)+$` cannot hang it.
///
/// Syntax: literal characters; `.` (any character but a line break); classes `[abc]`, `[a-z]`,
/// `[^...]`; escapes `\d \w \s \D \W \S` and `\` before any punctuation; anchors `^` `$`;
/// quantifiers `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}` (lazy forms accepted, same result); `|`;
/// groups `(...)`, `(?:...)`. No backreferences or lookaround. Characters are Swift
/// `Character`s (grapheme clusters).
public struct RegexProgram: Sendable {
  /// At most this many instructions after expanding counted repetitions.
  public static let maxInstructions = 10_000
  /// At most this many characters in a pattern.
  public static let maxPatternLength = 1_000

  let instructions: [RegexInstruction]

  /// The number of instructions: matching takes at most this many steps per character.
  public var size: Int { instructions.count }

  /// Compiles `pattern`, or throws what is wrong and where.
  public init(_ pattern: String) throws(RegexError) {
    var parser = RegexParser(pattern: Array(pattern))
    let node = try parser.parse()
    var compiler = RegexCompiler()
    try compiler.emit(node)
    compiler.append(.match)
    instructions = compiler.instructions
  }

  /// Whether the whole of `text` matches.
  public func matches(_ text: String) -> Bool {
    matches(Array(text))
  }

  func matches(_ text: [Character]) -> Bool {
    var current = StateSet(capacity: instructions.count)
    var next = StateSet(capacity: instructions.count)
    var stack: [Int] = []
    addState(0, to: &current, at: 0, length: text.count, stack: &stack)
    for (position, character) in text.enumerated() {
      if current.isEmpty { return false }
      next.clear()
      for pc in current.members {
        if accepts(instructions[pc], character) {
          addState(pc + 1, to: &next, at: position + 1, length: text.count, stack: &stack)
        }
      }
      swap(&current, &next)
    }
    return current.members.contains { instructions[$0] == .match }
  }

  private func accepts(_ instruction: RegexInstruction, _ character: Character) -> Bool {
    switch instruction {
    case .character(let c): c == character
    case .any: character != "\n"
    case .set(let set): set.contains(character)
    default: false
    }
  }

  /// Adds `pc` and every state reachable from it without reading a character.
  private func addState(
    _ pc: Int, to set: inout StateSet, at position: Int, length: Int, stack: inout [Int]
  ) {
    stack.append(pc)
    while let pc = stack.popLast() {
      guard pc < instructions.count, set.insert(pc) else { continue }
      switch instructions[pc] {
      case .jump(let target):
        stack.append(target)
      case .split(let first, let second):
        stack.append(second)
        stack.append(first)
      case .assertStart:
        if position == 0 { stack.append(pc + 1) }
      case .assertEnd:
        if position == length { stack.append(pc + 1) }
      default:
        break
      }
    }
  }
}

/// What a pattern is wrong about, and where (a character offset into the pattern).
public struct RegexError: Error, Sendable, Equatable {
  /// What is wrong with the pattern.
  public let message: String
  /// The byte offset in the pattern where it goes wrong.
  public let offset: Int
}

enum RegexInstruction: Equatable, Sendable {
  case character(Character)
  case any
  case set(RegexCharacterClass)
  case split(Int, Int)
  case jump(Int)
  case assertStart
  case assertEnd
  case match
}

/// A set of instruction indices with O(1) insert, clear and iteration in insertion order.
struct StateSet {
  private var dense: [Int]
  private var sparse: [Int]
  private(set) var count = 0

  init(capacity: Int) {
    dense = [Int](repeating: 0, count: capacity)
    sparse = [Int](repeating: 0, count: capacity)
  }

  var isEmpty: Bool { count == 0 }
  var members: ArraySlice<Int> { dense[0..<count] }

  mutating func clear() { count = 0 }

  /// Inserts `value`; false if it was already there.
  mutating func insert(_ value: Int) -> Bool {
    let slot = sparse[value]
    if slot < count && dense[slot] == value { return false }
    sparse[value] = count
    dense[count] = value
    count += 1
    return true
  }
}
