/// Suggestions for misspelled names ("did you mean 'color'?").
public enum Suggestion {
  /// The candidate closest to `word` by edit distance, if it is close enough to be a likely
  /// typo: at most one edit for short words, two for longer ones, ignoring case.
  public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
    let target = Array(word.lowercased().unicodeScalars)
    guard !target.isEmpty, target.count <= 64 else { return nil }
    let allowed = target.count <= 4 ? 1 : 2
    var best: (String, Int)?
    for candidate in candidates {
      let other = Array(candidate.lowercased().unicodeScalars)
      guard abs(other.count - target.count) <= allowed, other.count <= 64 else { continue }
      let distance = editDistance(target, other)
      if distance <= allowed, distance < (best?.1 ?? Int.max), other != target {
        best = (candidate, distance)
      }
    }
    return best?.0
  }

  /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
  /// neighbours each cost one.
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = Swift.min(value, previous2[j - 2] + 1)
        }
        current[j] = value
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
