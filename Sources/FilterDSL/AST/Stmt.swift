/// A query: an optional filter followed by `order by`, `limit` and `offset` clauses.
///
/// `color == Gold order by price desc limit 5`. A filter alone is a query; so is
/// `order by price limit 5` (every record, sorted).
public struct Query: Hashable, Sendable {
  /// The filter, or nil for every record.
  public var filter: Expr?
  /// The sort keys, most significant first.
  public var ordering: [SortKey]
  /// `limit n`, if given.
  public var limit: Expr?
  /// `offset n`, if given.
  public var offset: Expr?

  /// A query of these parts.
  public init(
    filter: Expr?, ordering: [SortKey] = [], limit: Expr? = nil, offset: Expr? = nil
  ) {
    self.filter = filter
    self.ordering = ordering
    self.limit = limit
    self.offset = offset
  }
}

/// One key of `order by`: `price desc nulls last`.
public struct SortKey: Hashable, Sendable {
  /// What to sort by: usually a field.
  public var key: Expr
  /// Ascending or descending.
  public var direction: SortDirection
  /// Where nulls go, when written; nil means the default (first ascending, last descending).
  public var nulls: NullsOrder?

  /// A key sorting by `key` in `direction`, nulls where `nulls` says (nil: SQL's default).
  public init(_ key: Expr, _ direction: SortDirection = .ascending, nulls: NullsOrder? = nil) {
    self.key = key
    self.direction = direction
    self.nulls = nulls
  }
}

/// One column of output as `--select` names it: a field (`model`, `camera.megapixels`) or an
/// expression over fields (`price - discount`), with the name it is shown under (`as net`).
public struct SelectItem: Hashable, Sendable {
  /// What the column shows.
  public var expr: Expr
  /// The column's name, when written (`as NAME`).
  public var alias: Name?

  /// A column showing `expr`, named `alias` when given.
  public init(_ expr: Expr, as alias: Name? = nil) {
    self.expr = expr
    self.alias = alias
  }

  /// The field it shows as it is, when it is a field with no new name.
  public var field: FieldPath? {
    guard alias == nil, case .field(let path) = expr.kind else { return nil }
    return path
  }

  /// The column's name: its alias, a field's path as the data names it (no backticks:
  /// `Country Code`), or the expression as written in canonical form.
  public var name: String { alias?.text ?? field?.dotted ?? expr.description }
}

/// A statement of a `.flt` script or REPL session.
public struct Stmt: Hashable, Sendable {
  /// What the statement is.
  public var kind: Kind
  /// Where it was written (not compared).
  @NotCompared public var range: SourceRange

  /// A statement of `kind`, written at `range`.
  public init(_ kind: Kind, range: SourceRange = .empty(at: 0)) {
    self.kind = kind
    self.range = range
  }

  /// The kinds of statement.
  public enum Kind: Hashable, Sendable {
    /// `load "phones.json" as phones`: the path, the name to use for the data, and options
    /// such as `null "NA"` or `type zip=string` (the session gives them their meaning).
    case load(Name, alias: Name?, options: [LoadOption] = [])
    /// `use phones`: make loaded data current.
    case use(Name)
    /// `let big = diskSpace >= 256` (a named filter) or `let budget = 1000` (a parameter).
    case `let`(Name, Expr)
    /// A query, whose matches are printed.
    case query(Query)
    /// `count` or `count <filter>`.
    case count(Expr?)
    /// `facets color, diskSpace where <filter>`.
    case facets([FieldPath], filter: Expr?)
    /// `stats mean(price), max(price) by color where <filter>` (see ``StatsQuery``).
    case stats(StatsQuery)
    /// `explain <query>`: show the compiled chain.
    case explain(Query)
    /// `show model, price`; an empty list (`show *`) shows every field.
    case show([FieldPath])
    /// `set format json`.
    case set(Name, Expr)
    /// `set` alone: list every setting and its value.
    case settings
  }
}

/// An option of `load`: its name and its values, as written (`null "NA", "-"` is the option
/// `null` with the values `NA` and `-`; `type zip=string` has the value `zip=string`).
public struct LoadOption: Hashable, Sendable {
  /// The option's name: `null`, `type`, `root`, `format`.
  public var name: Name
  /// Its values, as written.
  public var values: [Name]

  /// The option `name` with `values`.
  public init(_ name: Name, _ values: [Name]) {
    self.name = name
    self.values = values
  }
}

/// A parsed `.flt` script: its statements in order.
public struct Script: Hashable, Sendable {
  /// The statements, in order.
  public var statements: [Stmt]

  /// A script of `statements`.
  public init(_ statements: [Stmt]) { self.statements = statements }
}
