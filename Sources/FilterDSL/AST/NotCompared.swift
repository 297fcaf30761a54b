/// A stored property that takes no part in `==` or hashing.
///
/// AST nodes keep their source range with this wrapper, so that two trees are equal when they
/// say the same thing, wherever and however they were written:
/// `parse("a==1") == parse("a == 1")`.
@propertyWrapper
public struct NotCompared<Value: Sendable>: Hashable, Sendable {
  /// The value, ignored by `==` and hashing.
  public var wrappedValue: Value

  /// Wraps `wrappedValue`.
  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

  /// Always equal: the wrapped value is not compared.
  public static func == (lhs: Self, rhs: Self) -> Bool { true }
  /// Hashes nothing: the wrapped value is not compared.
  public func hash(into hasher: inout Hasher) {}
}
