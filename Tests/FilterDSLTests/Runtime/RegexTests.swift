import TestSupport
import Testing

@testable import FilterDSL

/// The linear-time regular expressions of `matches`: whole-text matching.
@Suite struct RegexTests {
  @Test(arguments: [
    ("abc", "abc", true), ("abc", "abcd", false), ("abc", "ab", false),
    ("a.c", "abc", true), ("a.c", "a\nc", false),
    ("a*", "", true), ("a*", "aaaa", true), ("a+", "", false), ("a+b", "aaab", true),
    ("colou?r", "color", true), ("colou?r", "colour", true), ("colou?r", "colouur", false),
    ("a{3}", "aaa", true), ("a{3}", "aa", false), ("a{2,}", "aaaaa", true),
    ("a{2,3}", "aaaa", false),
    ("a{0,2}b", "b", true),
    ("[a-c]+", "abcabc", true), ("[a-c]+", "abd", false), ("[^0-9]+", "abc", true),
    ("[^0-9]+", "a1", false),
    ("[-a]", "-", true), ("[a-]", "-", true), ("[]a]", "]", true),
    ("\\d+", "2022", true), ("\\d+", "20x", false), ("\\w+", "naïve_1", true), ("\\s", " ", true),
    ("\\D\\W\\S", "a!b", true), ("\\.", ".", true), ("\\.", "x", false), ("a\\+", "a+", true),
    ("cat|dog", "dog", true), ("cat|dog", "cow", false), ("(ab)+", "ababab", true),
    ("(?:ab)+c", "ababc", true),
    ("iPhone 1[45]( Pro)?", "iPhone 14 Pro", true), ("iPhone 1[45]( Pro)?", "iPhone 13", false),
    ("^abc$", "abc", true), ("a^b", "ab", false), ("(a|)", "", true), ("()*", "", true),
    ("(a*)*", "aaa", true),
    ("é", "é", true), ("e", "é", false), (".", "👍🏽", true), ("a*?b", "aab", true),
    // POSIX classes, Unicode-aware (a city's name with accents is letters and spaces).
    ("[[:alpha:] ]+", "São Paulo", true), ("[[:alpha:] ]+", "Zürich 2", false),
    ("[[:alpha:]]+", "Ærøskøbing", true), ("[[:digit:]]+", "2022", true),
    ("[[:digit:]]", "٣", false), ("[[:alnum:]_]+", "a1_b", true),
    ("[[:upper:]][[:lower:]]+", "Oslo", true),
    ("[[:upper:]]", "o", false), ("[[:space:]]+", " \t", true), ("[[:blank:]]", "\n", false),
    ("[[:punct:]]+", "!?$+", true), ("[[:punct:]]", "a", false), ("[[:xdigit:]]+", "c0FFee", true),
    ("[^[:digit:]]+", "abc", true), ("[^[:digit:]]+", "ab1", false), ("[[:cntrl:]]", "\u{7}", true),
    ("[[:print:]]+", "a b", true), ("[[:graph:]]", " ", false), ("[[:alpha:]-]+", "x-y", true),
    // One rule for a character in a set: a listed character matches what equals it, a range
    // what is one code point between its bounds, so [A-Z] takes H̱ no more than [H] does.
    ("[H]", "H\u{331}", false), ("[A-Z]", "H\u{331}", false), ("[A-Z]", "H", true),
    ("[é]", "e\u{301}", true), ("[à-ÿ]", "é", true), ("[[:alpha:]]", "H\u{331}", true),
  ])
  func matches(pattern: String, text: String, expected: Bool) throws {
    let regex = try RegexProgram(pattern)
    #expect(regex.matches(text) == expected, "\(pattern) on \(text)")
  }

  @Test(arguments: [
    ("(a", "'(' is never closed", 0), ("a)", "unmatched ')'", 1), ("[a", "'[' is never closed", 0),
    ("*a", "nothing to repeat before '*'", 0), ("a{2", "expected '}' to close '{'", 1),
    ("a{3,2}", "{3,2}: the maximum is less than the minimum", 1),
    ("a{5000}", "repetition counts go up to 1000", 2),
    ("\\1", "unknown escape '\\1'; backreferences are not supported", 0),
    ("(?=a)", "only (?:...) groups are supported; lookaround and named groups are not", 0),
    ("[z-a]", "range z-a is out of order", 1), ("a\\", "'\\' at the end of the pattern", 1),
    ("[:alpha:]+", "write a class such as [:alpha:] inside brackets: [[:alpha:]]", 0),
    (
      "x[[:alfa:]]",
      "unknown class [:alfa:]; the classes are [:digit:] [:word:] [:space:] [:alpha:] [:alnum:] [:upper:] [:lower:] [:punct:] [:xdigit:] [:blank:] [:cntrl:] [:print:] [:graph:]",
      2
    ),
    ("[[:alpha]", "'[:' begins a class such as [:alpha:] and is never closed with ':]'", 1),
    ("(a{1000}){1000}", "the pattern is too large once its repetitions are expanded", 0),
  ])
  func errors(pattern: String, message: String, offset: Int) {
    #expect(throws: RegexError(message: message, offset: offset)) { try RegexProgram(pattern) }
  }

  /// Patterns that make backtracking engines take exponential time finish at once here. (No
  /// timing: the algorithm is linear; a hang would be a failure of the test run.)
  @Test func pathologicalPatternsAreLinear() throws {
    let text = String(repeating: "a", count: 5_000) + "b"
    #expect(try RegexProgram("(a+)+$").matches(text) == false)
    #expect(try RegexProgram("(a|a)*c").matches(text) == false)
    #expect(try RegexProgram("(a*)*b").matches(text) == true)
    #expect(try RegexProgram("(.*){10}x").matches(text) == false)
  }

  @Test func deeplyNestedGroupsAreAnError() {
    let pattern = String(repeating: "(", count: 200) + "a" + String(repeating: ")", count: 200)
    #expect(throws: RegexError.self) { try RegexProgram(pattern) }
  }

  @Test(arguments: [
    ("iPhone*", "iPhone 14", true), ("iPhone*", "Pixel", false), ("*Pro", "iPhone 14 Pro", true),
    ("?ixel*", "Pixel 7", true), ("a*b*c", "aXXbYYc", true), ("a*b*c", "aXXbYY", false),
    ("", "", true), ("*", "", true), ("a\\*", "a*", true), ("a\\*", "ab", false),
    ("**a", "ba", true),
    // Character classes: a set, a range, negated with ! or ^, ] first is a member.
    ("Pixel [0-9]*", "Pixel 7a", true), ("Pixel [0-9]*", "Pixel X", false),
    ("[!0-9]*", "x1", true), ("[!0-9]*", "1x", false), ("[^a-c]", "d", true),
    ("[abc]", "b", true), ("[abc]", "d", false), ("[]x]", "]", true), ("[!]]", "]", false),
    ("a[", "a[", true), ("a[b", "a[b", true), ("[z-a]", "m", false), ("[a-]", "-", true),
    ("\\[a]", "[a]", true), ("[é-ë]", "ê", true),
  ])
  func glob(pattern: String, text: String, expected: Bool) {
    #expect(Glob(pattern).matches(text) == expected, "\(pattern) on \(text)")
  }

  /// The glob matcher agrees with a plain backtracking matcher (the definition) on random
  /// patterns and texts over a small alphabet, where stars interact most.
  @Test func globAgreesWithBacktracking() {
    func reference(_ pieces: ArraySlice<Glob.Piece>, _ text: ArraySlice<Character>) -> Bool {
      guard let piece = pieces.first else { return text.isEmpty }
      if case .star = piece {
        return (0...text.count).contains { reference(pieces.dropFirst(), text.dropFirst($0)) }
      }
      guard let c = text.first, piece.matches(c) else { return false }
      return reference(pieces.dropFirst(), text.dropFirst())
    }
    var random = SplitMix64(seed: 42)
    let patternAlphabet: [String] = ["a", "b", "*", "?", "[ab]", "[!a]", "\\*"]
    let textAlphabet: [Character] = ["a", "b", "c", "*"]
    for _ in 0..<20_000 {
      let pattern = (0..<Int.random(in: 0...7, using: &random)).map { _ in
        patternAlphabet.randomElement(using: &random) ?? "a"
      }.joined()
      let text = String(
        (0..<Int.random(in: 0...9, using: &random)).map { _ in
          textAlphabet.randomElement(using: &random) ?? "a"
        })
      let glob = Glob(pattern)
      var pieces: [Glob.Piece] = []
      for (i, segment) in glob.segments.enumerated() {
        if i > 0 { pieces.append(.star) }
        pieces += segment.pieces
      }
      #expect(
        glob.matches(text) == reference(pieces[...], Array(text)[...]), "\(pattern) on \(text)")
    }
  }

  /// Each character of the text is read once per segment: a long pattern against a long text
  /// is fast (it took 15 s with backtracking; run time is not asserted, the test would hang).
  @Test func globIsLinearForLongPatterns() {
    let text = String(repeating: "a", count: 200_000)
    #expect(!Glob("*" + String(repeating: "a", count: 8_000) + "b").matches(text))
    #expect(Glob("*" + String(repeating: "a", count: 8_000) + "*").matches(text))
    #expect(!Glob("*" + String(repeating: "?", count: 8_000) + "b*").matches(text))
  }

  @Test func globIsNotExponential() {
    let text = String(repeating: "a", count: 2_000)
    #expect(!Glob(String(repeating: "*a", count: 50) + "b").matches(text))
    #expect(!Glob(String(repeating: "*[a-z]", count: 50) + "b").matches(text))
  }
}
