/// Bounds on what the parser accepts, so that no input can exhaust the stack or memory.
///
/// Every later pass over a tree (checker, compiler, printer, even freeing it) recurses over its
/// nesting, so the depth limit here is what keeps all of them safe. Exceeding a limit is a
/// diagnostic (`FLT29x`), never a crash.
public struct ParserLimits: Hashable, Sendable {
  /// The deepest nesting. Each parenthesis, list, call, `not`, unary minus, arithmetic
  /// operator, comparison, quantifier and `and`/`or` chain nests one level:
  /// `not (a == 1 or b)` is 4 deep at `1`. Clamped to 1...``ParserLimits/maximumDepth``.
  public var maxDepth: Int
  /// The most syntax nodes in one parse.
  public var maxNodes: Int
  /// The longest source text, in UTF-8 bytes (at most 4 GiB whatever is set).
  public var maxSourceBytes: Int
  /// The most items in one list.
  public var maxListItems: Int
  /// The most diagnostics reported before the parser stops.
  public var maxDiagnostics: Int
  /// Limits of these sizes; the depth is clamped to ``maximumDepth``.
  public init(
    maxDepth: Int = 100, maxNodes: Int = 1_000_000, maxSourceBytes: Int = 16 << 20,
    maxListItems: Int = 100_000, maxDiagnostics: Int = 50
  ) {
    self.maxDepth = maxDepth
    self.maxNodes = maxNodes
    self.maxSourceBytes = maxSourceBytes
    self.maxListItems = maxListItems
    self.maxDiagnostics = maxDiagnostics
  }

  /// Generous limits for filters and scripts written by the people running them.
  public static let `default` = ParserLimits()

  /// Tight limits for filters from untrusted users, such as a web form's query parameter.
  public static let untrusted = ParserLimits(
    maxDepth: 32, maxNodes: 5_000, maxSourceBytes: 16 << 10, maxListItems: 1_000,
    maxDiagnostics: 10)

  /// The largest depth the parser allows whatever ``maxDepth`` says: deep enough for any real
  /// filter, and shallow enough that parsing and every later pass over the tree (printing,
  /// comparing, hashing, freeing; each recurses once per level) fit a 512 KiB thread even in a
  /// debug build, where every level costs up to about 4 KiB of stack. (Release builds use far
  /// less, but a filter must not be valid in one build and invalid in another.)
  public static let maximumDepth = 100

  package var effectiveMaxDepth: Int {
    Swift.min(Swift.max(maxDepth, 1), ParserLimits.maximumDepth)
  }

  /// Source offsets are 32-bit (see ``SourceRange``), so no source may be longer than 4 GiB.
  var effectiveMaxSourceBytes: Int { Swift.min(maxSourceBytes, Int(UInt32.max)) }
}
