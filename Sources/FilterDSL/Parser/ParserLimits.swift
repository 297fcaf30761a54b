/// Bounds on what the parser accepts, so that no input can exhaust the stack or memory.
///
/// Every later pass over a tree (checker, compiler, printer, even freeing it) recurses over its
/// nesting, so the depth limit here is what keeps all of them safe. Exceeding a limit is a
/// diagnostic (`FLT29x`), never a crash.
public struct ParserLimits: Hashable, Sendable {
  /// The deepest nesting. Each parenthesis, list, call, `not`, unary minus, arithmetic
  /// operator, comparison, quantifier and `and`/`or` chain nests one level:
  /// `not (a == 1 or b)` is 4 deep at `1`. Clamped to 1...``ParserLimits/maximumDepth``.
  ///
  /// In a debug build each level can take up to about 2.5 KiB of stack (far less in release),
  /// so the default of 100 fits a 512 KiB thread (what Apple platforms give secondary threads)
  /// with room to spare.
  public var maxDepth: Int
  /// The most syntax nodes in one parse.
  public var maxNodes: Int
  /// The longest source text, in UTF-8 bytes.
  public var maxSourceBytes: Int
  /// The most items in one list.
  public var maxListItems: Int
  /// The most diagnostics reported before the parser stops.
  public var maxDiagnostics: Int

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
  /// filter; in a debug build it needs about 1 MiB of stack, which main threads have.
  public static let maximumDepth = 200

  var effectiveMaxDepth: Int { Swift.min(Swift.max(maxDepth, 1), ParserLimits.maximumDepth) }
}
