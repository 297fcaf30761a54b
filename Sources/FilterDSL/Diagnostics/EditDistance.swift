/// Suggestions for misspelled names ("did you mean 'color'?").
public enum Suggestion {
  /// The candidate closest to `word`, if it is close enough to be a likely typo. A candidate
  /// that differs only in case (the commonest slip: `Price` for `price`) comes first; then
  /// the fewest edits ignoring case, at most one for short words and two for longer ones;
  /// ties go to the candidate nearest in case too.
  public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
    let target = Array(word.lowercased().unicodeScalars)
    let exact = Array(word.unicodeScalars)
    guard !target.isEmpty, target.count <= 64 else { return nil }
    let allowed = target.count <= 4 ? 1 : 2
    var best: (candidate: String, distance: Int, caseDistance: Int)?
    for candidate in candidates where candidate != word {
      let other = Array(candidate.lowercased().unicodeScalars)
      guard abs(other.count - target.count) <= allowed, other.count <= 64 else { continue }
      let distance = editDistance(target, other)
      guard distance <= allowed else { continue }
      let caseDistance = editDistance(exact, Array(candidate.unicodeScalars))
      if let best, (best.distance, best.caseDistance) <= (distance, caseDistance) { continue }
      best = (candidate, distance, caseDistance)
    }
    return best?.candidate
  }

  /// All of `candidates`, nearest to `word` first (fewest edits ignoring case, then fewest
  /// counting case, then alphabetically): for lists of what exists.
  public static func ranked(_ word: String, among candidates: some Sequence<String>) -> [String] {
    let target = Array(word.lowercased().unicodeScalars.prefix(64))
    return candidates.map { candidate in
      let other = Array(candidate.lowercased().unicodeScalars.prefix(64))
      return (candidate, editDistance(target, other))
    }
    .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    .map(\.0)
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
