/// A half-open range of UTF-8 byte offsets into a ``SourceText``.
///
/// Positions are byte offsets so that the lexer never has to count characters; lines and
/// columns are computed only when a diagnostic is shown (see ``SourceText/location(of:)``).
///
/// Offsets are stored in 32 bits, which keeps tokens and tree nodes small; offsets beyond
/// 4 GiB (far past ``ParserLimits/maxSourceBytes``) are clamped.
public struct SourceRange: Hashable, Sendable, CustomStringConvertible {
  private var lower: UInt32
  private var upper: UInt32

  /// The offset of the first byte.
  public var start: Int {
    get { Int(lower) }
    set { lower = SourceRange.clamp(newValue) }
  }

  /// The offset one past the last byte.
  public var end: Int {
    get { Int(upper) }
    set { upper = SourceRange.clamp(newValue) }
  }

  /// A range from `start` to `end`; an `end` before `start` is clamped to `start`, and
  /// negative offsets to 0.
  public init(start: Int, end: Int) {
    lower = SourceRange.clamp(start)
    upper = Swift.max(lower, SourceRange.clamp(end))
  }

  private static func clamp(_ offset: Int) -> UInt32 {
    UInt32(Swift.min(Swift.max(offset, 0), Int(UInt32.max)))
  }

  /// An empty range at `offset`, for "something is missing here" diagnostics.
  public static func empty(at offset: Int) -> SourceRange {
    SourceRange(start: offset, end: offset)
  }

  /// The number of bytes covered.
  public var length: Int { end - start }

  /// Whether the range covers no byte.
  public var isEmpty: Bool { lower == upper }

  /// The smallest range covering both `self` and `other`.
  public func union(_ other: SourceRange) -> SourceRange {
    var range = self
    range.lower = Swift.min(lower, other.lower)
    range.upper = Swift.max(upper, other.upper)
    return range
  }

  /// `start..<end`.
  public var description: String { "\(start)..<\(end)" }
}

/// A 1-based line and column, for display. Columns count characters, not bytes.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  /// The line, starting at 1.
  public var line: Int
  /// The column in characters (extended grapheme clusters), starting at 1.
  public var column: Int

  /// Line `line`, column `column`, both from 1.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// `line:column`.
  public var description: String { "\(line):\(column)" }
}
