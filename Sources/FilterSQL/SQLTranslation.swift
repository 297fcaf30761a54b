import FilterDSL

/// A query translated for a database: the statements to run there, and what flt must still do
/// with the rows that come back. Running ``select`` and then keeping the rows where
/// ``residual`` is true (then sorting and paging them, unless the database did) gives exactly
/// the records flt would give in memory.
public struct SQLTranslation: Sendable {
  /// The dialect the statements are in.
  public let dialect: SQLDialect
  /// Every column of the rows the database narrows the query to, sorted and paged there
  /// when ``sortsInDatabase`` and ``pagesInDatabase`` say so.
  public let select: SQLStatement
  /// `SELECT count(*)` of the rows ``select`` returns before paging: the query's count when
  /// there is no ``residual``.
  public let count: SQLStatement
  /// The parts of the filter (conjuncts of its top-level `and`) the database answers exactly.
  public let pushed: [BoundExpr]
  /// The parts the database narrows (it drops rows where they are false) but flt checks again.
  public let narrowed: [BoundExpr]
  /// What flt evaluates on each row that comes back (nil when the database answers the whole
  /// filter): the conjuncts not pushed, in their order.
  public let residual: BoundExpr?
  /// Whether the rows come back in the query's order (else flt sorts them).
  public let sortsInDatabase: Bool
  /// Whether `limit` and `offset` are applied by the database (else by flt, after the
  /// residual).
  public let pagesInDatabase: Bool
  /// What flt does with the rows ``select`` returns: the residual filter, and the sorting and
  /// paging the database did not do.
  public let remainder: BoundQuery
  /// The partitions each asked for its own count, facets and sorted page (see
  /// `SQLTable/answersByPartition`); empty when the table is asked whole.
  public let partitions: [SQLTable.Partition]

  init(
    dialect: SQLDialect, select: SQLStatement, count: SQLStatement, pushed: [BoundExpr],
    narrowed: [BoundExpr], residual: [BoundExpr], sortsInDatabase: Bool, pagesInDatabase: Bool,
    query: BoundQuery, partitions: [SQLTable.Partition] = []
  ) {
    self.partitions = partitions
    self.dialect = dialect
    self.select = select
    self.count = count
    self.pushed = pushed
    self.narrowed = narrowed
    self.residual =
      residual.count <= 1
      ? residual.first
      : BoundExpr(
        .logical(.and, residual), type: .bool,
        range: SourceRange(
          start: residual[0].range.start, end: residual[residual.count - 1].range.end))
    self.sortsInDatabase = sortsInDatabase
    self.pagesInDatabase = pagesInDatabase
    remainder = BoundQuery(
      filter: self.residual, ordering: sortsInDatabase ? [] : query.ordering,
      limit: pagesInDatabase ? nil : query.limit, offset: pagesInDatabase ? nil : query.offset)
  }

  /// What runs where, for `explain`: the statement, then what flt does after it.
  public var explanation: String {
    var lines = ["in \(dialect.rawValue): \(select)"]
    if !narrowed.isEmpty {
      lines.append(
        "narrowed there, checked again in flt: "
          + narrowed.map(\.description).joined(separator: " and "))
    }
    if let residual { lines.append("in flt: \(residual)") }
    if !sortsInDatabase { lines.append("sorted in flt") }
    if !pagesInDatabase { lines.append("limit and offset in flt") }
    if !partitions.isEmpty {
      let foreign = partitions.filter(\.isForeign).count
      lines.append(
        "by partition: each of \(partitions.count) (\(foreign) foreign: "
          + partitions.map { "\($0.schema).\($0.name)" }.joined(separator: ", ")
          + ") counts, groups and sorts a page of its own rows; the coordinator merges them")
      if residual == nil { lines.append("a count: \(count)") }
    }
    return lines.joined(separator: "\n")
  }
}
