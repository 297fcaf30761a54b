/// A piece of user text with its position: a field name component, a function or parameter
/// name, a statement's name, or a file path in `load`.
public struct Name: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The text, with quotes and escapes removed.
  public var text: String
  /// Where it was written (not compared).
  @NotCompared public var range: SourceRange

  /// A name of `text`, written at `range`.
  public init(_ text: String, range: SourceRange = .empty(at: 0)) {
    self.text = text
    self.range = range
  }

  /// A name of `text`, at no particular place.
  public init(stringLiteral text: String) { self.init(text) }

  /// The text.
  public var description: String { text }
}

/// A field, possibly nested: `price`, `camera.megapixels`, or a name in backquotes (\`screen size\`).
public struct FieldPath: Hashable, Sendable, CustomStringConvertible {
  /// The names from the outermost record inwards. Never empty.
  ///
  /// (An array rather than a first name plus the rest: that would save an allocation per
  /// field, but widen every `Expr` from 40 to 64 bytes, and deep nesting would no longer fit a
  /// 512 KiB stack in a debug build.)
  public var components: [Name]

  /// A path of one or more names; an empty list makes the path `""`.
  public init(_ components: [Name]) {
    self.components = components.isEmpty ? [Name("")] : components
  }

  /// A path from dotted text, split at every `.`: `FieldPath("camera.megapixels")`.
  public init(_ dotted: String) {
    self.init(
      dotted.split(separator: ".", omittingEmptySubsequences: false).map { Name(String($0)) })
  }

  /// The components joined by dots, unquoted: `camera.megapixels`.
  public var dotted: String { components.map(\.text).joined(separator: ".") }

  /// From the first component's start to the last one's end.
  public var range: SourceRange {
    guard let first = components.first, let last = components.last else { return .empty(at: 0) }
    return first.range.union(last.range)
  }

  /// The path, dotted.
  public var description: String { dotted }
}
