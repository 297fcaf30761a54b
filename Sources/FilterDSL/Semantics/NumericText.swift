/// What the values of a text field looked like when they were mostly numbers: a column stored
/// as text (`sqlite3 .import`, JSON's `"533"`), or numbers among which a few other texts (a
/// marker such as `-` or `unknown`) made the field text. A comparison of such a field with a
/// number is then met with the fix that gives the right answer (convert the text, or read the
/// marker as null), never with quoting the number, which would compare text.
public struct NumericText: Hashable, Sendable {
  /// Whether every number seen was an integer (`int(x)` converts them all).
  public var integers: Bool
  /// The other texts seen, at most a few (empty when every value read as a number).
  public var others: [String]

  /// A hint that the values were numbers (`integers` when all of them were integers), but for
  /// the texts `others`.
  public init(integers: Bool, others: [String] = []) {
    self.integers = integers
    self.others = others
  }

  /// The most other texts a field may hold for its values to count as numbers.
  public static let othersLimit = 3
}
