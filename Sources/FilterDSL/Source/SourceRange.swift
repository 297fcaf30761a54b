/// A half-open range of UTF-8 byte offsets into a ``SourceText``.
///
/// Positions are byte offsets so that the lexer never has to count characters; lines and
/// columns are computed only when a diagnostic is shown (see ``SourceText/location(of:)``).
public struct SourceRange: Hashable, Sendable, CustomStringConvertible {
  /// The offset of the first byte.
  public var start: Int
  /// The offset one past the last byte.
  public var end: Int

  /// A range from `start` to `end`; an `end` before `start` is clamped to `start`.
  public init(start: Int, end: Int) {
    self.start = start
    self.end = Swift.max(start, end)
  }

  /// An empty range at `offset`, for "something is missing here" diagnostics.
  public static func empty(at offset: Int) -> SourceRange {
    SourceRange(start: offset, end: offset)
  }

  /// The number of bytes covered.
  public var length: Int { end - start }

  /// Whether the range covers no byte.
  public var isEmpty: Bool { start == end }

  /// The smallest range covering both `self` and `other`.
  public func union(_ other: SourceRange) -> SourceRange {
    SourceRange(start: Swift.min(start, other.start), end: Swift.max(end, other.end))
  }

  public var description: String { "\(start)..<\(end)" }
}

/// A 1-based line and column, for display. Columns count characters, not bytes.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  /// The line, starting at 1.
  public var line: Int
  /// The column in characters (extended grapheme clusters), starting at 1.
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public var description: String { "\(line):\(column)" }
}
