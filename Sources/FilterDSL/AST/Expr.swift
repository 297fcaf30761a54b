/// A node of a filter: a value, a field, an operation, or a test.
///
/// The tree is a value type; every consumer (printer, checker, compiler, SQL translator...)
/// switches over ``Kind`` exhaustively, so a new consumer never needs to edit these types.
///
/// Equality and hashing compare structure and values, never source ranges:
/// `parse("a==1") == parse("a == 1")`.
///
/// Trees made by ``Parser`` respect its ``ParserLimits``: their nesting depth is bounded, so the
/// recursive passes over them cannot run out of stack.
public struct Expr: Hashable, Sendable {
  /// What the node is.
  public var kind: Kind
  /// Where it was written (not compared).
  @NotCompared public var range: SourceRange

  /// A node of `kind`, written at `range`.
  public init(_ kind: Kind, range: SourceRange = .empty(at: 0)) {
    self.kind = kind
    self.range = range
  }

  /// The kinds of node. Only the cases that hold an `Expr` directly (or are rare) are boxed:
  /// leaves, lists and chains are stored inline, which halves the allocations of a parse.
  public enum Kind: Hashable, Sendable {
    /// A constant: `256`, `"Space Black"`, `Midnight` in value position, `2022-09-16`.
    case literal(Literal)
    /// A field of the record: `price`, `camera.megapixels`, or a name in backquotes (\`screen size\`).
    case field(FieldPath)
    /// A parameter bound at evaluation: `$budget` (the name is stored without `$`).
    indirect case parameter(Name)
    /// A list of values: `(Starlight, "Space Black")`.
    case list([Expr])
    /// A range of values, as the operand of `in` or the value of `let`: `256...1024`, `0..<500`.
    indirect case range(Expr, Expr, RangeKind)
    /// A function call: `lower(name)`.
    indirect case call(Name, [Expr])
    /// Unary minus: `-price`. (A minus before a number literal is folded into the literal.)
    indirect case negate(Expr)
    /// `not x`, `!x`.
    indirect case not(Expr)
    /// `a + b`, `a * b`, ...
    indirect case arithmetic(ArithmeticOperator, Expr, Expr)
    /// `a and b and c`, `a or b`: two or more operands, in order.
    case logical(LogicalOperator, [Expr])
    /// A test on a subject: `price >= 256`, `name contains[c] "pro"`, `x is null`.
    indirect case predicate(Expr, Condition)
    /// A test on the elements of a list: `any tags == "5G"`.
    indirect case quantified(Quantifier, Expr, Condition)
    /// `exists camera.megapixels`.
    case exists(FieldPath)
    /// `children where age > 12` (in a call's parentheses or its own): the records of a list
    /// for which the filter, on their fields, is true, in order.
    indirect case filtered(Expr, Expr)
  }
}

/// The test part of a predicate, after its subject: `>= 256`, `in (a, b)`, `is not null`.
public struct Condition: Hashable, Sendable {
  /// What is tested.
  public var kind: Kind
  /// The operator as written, such as `not in` or `contains[c]` (not compared).
  @NotCompared public var operatorRange: SourceRange

  /// A condition of `kind`; `operatorRange` is where its operator was written.
  public init(_ kind: Kind, operatorRange: SourceRange = .empty(at: 0)) {
    self.kind = kind
    self.operatorRange = operatorRange
  }

  /// The kinds of test. (Indirect, so that a condition is one pointer wide.)
  public indirect enum Kind: Hashable, Sendable {
    /// `== != < <= > >=`, with optional `[c]`/`[d]`.
    case compare(ComparisonOperator, Expr, StringOptions)
    /// `contains`, `startsWith`, `endsWith`, `like`, `matches`; `negated` for `not contains`...
    case text(TextOperator, Expr, StringOptions, negated: Bool)
    /// `in (list)`, `in lower...upper`, `in $param`; `negated` for `not in`.
    case member(Expr, StringOptions, negated: Bool)
    /// `between lower and upper` (inclusive); `negated` for `not between`.
    case between(Expr, Expr, StringOptions, negated: Bool)
    /// `is null`; `negated` for `is not null`.
    case isNull(negated: Bool)
    /// `is empty`: text without characters or a list without elements; `negated` for
    /// `is not empty`. Null is neither: unknown.
    case isEmpty(negated: Bool)
    /// `is value`: equal, or both null (SQL's `IS NOT DISTINCT FROM`), never unknown;
    /// `negated` for `is not value`.
    case same(Expr, negated: Bool)
    /// `(filter)` after a quantifier's list of records: the element, a record, satisfies the
    /// filter, whose names are the element's fields: `any children (age < 18 and name
    /// startsWith A)`.
    case satisfies(Expr)
  }
}
