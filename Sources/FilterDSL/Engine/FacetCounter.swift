/// Counts, for each of some fields, how many matching records have each value: the numbers a
/// catalog shows beside its multi-select options ("Starlight (12)").
///
/// The counts are **disjunctive**. The filter is split at its top-level `and`s; a part that
/// reads only one of the counted fields is that field's own condition, and the field's counts
/// ignore it. With `color in (Starlight, Midnight) and diskSpace >= 256`, the colour counts are
/// those of every colour among phones of 256 GB or more, so a shopper sees what ticking
/// another colour would add; the disk counts respect the colour choice. One pass over the
/// records serves every field.
///
/// ```swift
/// let facets = try FacetCounter([FieldPath("color")], filter: expr, source: source, for: phones)
/// for facet in facets.count(catalog).facets { print(facet.field, facet.counts) }
/// ```
public struct FacetCounter<Root>: @unchecked Sendable {
  /// The counts of one field.
  public typealias Facet = FacetCounts.Facet
  /// A value and how many records have it.
  public typealias Count = FacetCounts.Count
  /// What counting found (the same type whatever the records: counts from a database and
  /// from memory compare equal).
  public typealias Result = FacetCounts

  /// The fields counted.
  public let fields: [FieldPath]
  /// The parts of the filter no counted field owns, bound: every count respects them, so a
  /// back end may narrow the records to those matching it before counting (a database does).
  public let sharedFilter: BoundExpr?
  /// Each counted field, resolved, with its own condition (the parts of the filter that read
  /// only it), if any: what a back end needs to count the facets itself.
  public let counted: [(field: FieldRef, own: BoundExpr?)]
  /// The parts of the filter no counted field owns: every count respects them.
  private var shared: CompiledFilter<Root>?
  /// Each field's own condition, or nil when the filter has none for it.
  var own: [CompiledFilter<Root>?]
  private let values: [(Root, inout EvaluationState) -> Value]
  /// For each field whose records hold it coded (see ``ColumnTable``): counts its values
  /// over records at given positions by code, in a loop of the column's own.
  private let coded: [(@Sendable ([Root], [Int]) -> ValueCounts)?]
  /// When every counted field's records hold it coded: the columns, counted together in one
  /// pass over their codes (``CodeCounting``).
  let codedColumns: [CodedColumn<Root>]?
  /// How many records a segment of the coded path holds (see ``count(_:until:)``): a
  /// segment's candidates stay in cache (counted in one piece, ten million records' 75 MB of
  /// candidates made the facets twice as slow per record as a million's).
  var segment = 1 << 19
  private let layout: ParameterLayout
  private let limits: EvaluationLimits
  /// The types of the parameters the filter may read.
  package var parameterTypes: [String: ValueType] { layout.slots.mapValues(\.type) }
  /// The parameters' values and the clock bound (``binding(_:now:)``).
  private var boundValues: (parameters: [String: Value], now: Instant?) = ([:], nil)
  private let bindings: Bindings

  /// Checks and compiles the counting of `fields` among the records matching `filter` (all
  /// records when nil); `source` is what the ranges point into. Throws the checker's errors,
  /// and an error for a field that holds records.
  public init(
    _ fields: [FieldPath], filter: Expr?, source: SourceText, for type: RecordType<Root>,
    parameters: [String: ValueType] = [:], functions: FunctionRegistry = .builtins
  ) throws(FilterError) {
    self = try FilterEnvironment(type, parameters: parameters, functions: functions)
      .facets(fields, filter: filter, source: source)
  }

  /// ``FilterEnvironment/facets(_:filter:source:)``.
  init(
    counting fields: [FieldPath], filter: Expr?, source: SourceText,
    in environment: FilterEnvironment<Root>
  ) throws(FilterError) {
    let type = environment.recordType
    let parameters = environment.parameters
    var unique: [FieldPath] = []
    for field in fields where !unique.contains(field) { unique.append(field) }
    var diagnostics: [Diagnostic] = []
    var counted: [FieldRef] = []
    for path in unique {
      let expr = Expr(.field(path), range: path.range)
      let checked = Checker.bind(
        expr, schema: type.schema, parameters: parameters, functions: environment.functions)
      diagnostics += checked.diagnostics
      guard case .field(let field) = checked.tree?.kind else { continue }
      switch field.type {
      case .record, .list(.record):
        diagnostics.append(
          .invalidOperand(
            "cannot count the values of '\(path.dotted)': it holds records", at: expr.range,
            help: "count one of its fields instead, such as '\(path.dotted).<name>'"))
      default:
        counted.append(field)
      }
    }
    var bound: BoundExpr? = nil
    if let filter {
      let checked = environment.check(filter)
      diagnostics += checked.diagnostics
      bound = checked.tree
    }
    if diagnostics.hasErrors { throw FilterError(source: source, diagnostics: diagnostics) }

    var sharedParts: [BoundExpr] = []
    var ownParts: [[BoundExpr]] = Array(repeating: [], count: counted.count)
    for part in bound?.conjuncts ?? [] {
      let read = part.fields
      if read.count == 1, let owner = counted.firstIndex(of: read[0]) {
        ownParts[owner].append(part)
      } else {
        sharedParts.append(part)
      }
    }
    func joined(_ parts: [BoundExpr]) -> BoundExpr? {
      parts.count <= 1 ? parts.first : BoundExpr(.logical(.and, parts), type: .bool)
    }
    self.init(
      fields: unique, shared: joined(sharedParts),
      counted: zip(counted, ownParts).map { ($0, joined($1)) }, for: type,
      parameters: parameters, limits: environment.evaluationLimits)
  }

  /// Compiles facets checked already: the fields, the shared part of the filter, and each
  /// counted field with its own condition.
  private init(
    fields: [FieldPath], shared: BoundExpr?, counted: [(field: FieldRef, own: BoundExpr?)],
    for type: RecordType<Root>, parameters: [String: ValueType], limits: EvaluationLimits
  ) {
    func compile(_ expr: BoundExpr?) -> CompiledFilter<Root>? {
      expr.map {
        CompiledFilter(
          $0, as: $0.source, warnings: [], for: type, parameters: parameters, limits: limits)
      }
    }
    self.fields = fields
    sharedFilter = shared
    self.shared = compile(shared)
    own = counted.map { compile($0.own) }
    self.counted = counted
    let layout = ParameterLayout(parameters)
    let compiler = Compiler(recordType: type)
    values = counted.map { compiler.field($0.field).asValue }
    coded = counted.map { type.columns?.countCodes($0.field) }
    let columns = counted.compactMap { type.columns?.codedColumn($0.field) }
    codedColumns = columns.count == counted.count && !columns.isEmpty ? columns : nil
    self.layout = layout
    self.limits = limits
    bindings = layout.bindings(EvaluationContext(), limits: limits)
  }

  /// These facets, as the checker bound them and with the same values bound, compiled for
  /// records of `type`, whose schema is the one they were checked against: a batch of a file
  /// read by column is a record type of its own (as ``CompiledQuery/compiled(for:)`` does for
  /// a query).
  public func compiled<Other>(for type: RecordType<Other>) -> FacetCounter<Other> {
    FacetCounter<Other>(
      fields: fields, shared: sharedFilter, counted: counted, for: type,
      parameters: parameterTypes, limits: limits
    ).binding(boundValues.parameters, now: boundValues.now)
  }

  /// This counter with parameter values (and the clock) bound.
  public func binding(_ parameters: [String: Value], now: Instant? = nil) -> FacetCounter {
    var bound = self
    bound.boundValues = (parameters, now)
    bound.shared = shared?.binding(parameters, now: now)
    bound.own = own.map { $0?.binding(parameters, now: now) }
    return bound
  }

  /// Counts the values of every field over `records`, in one pass. `stop` is asked every
  /// thousand records or so; once it says true the counts stop where they are (partial). A
  /// count over the ``EvaluationLimits`` has no facets and no matches, and its
  /// ``FaultCounts/overLimit`` says which limit.
  ///
  /// The shared part and each field's own condition run as batch filters (each over the
  /// records the shared part kept); then one loop over those records tallies the fields a
  /// record counts for. (The loop walks indices, never `enumerated()` or the filters
  /// themselves: this code is generic over `Root`, so each generic value it touched per
  /// record cost a lookup of type metadata, ten times the work of the counting.)
  public func count(_ records: [Root], until stop: () -> Bool = { false }) -> Result {
    tally(records, until: stop).result(fields)
  }

  /// What ``count(_:until:)`` counts, before its values are ranked: tallies of different
  /// records merge (a scan's batches).
  package func tally(_ records: [Root], until stop: () -> Bool = { false }) -> FacetTally {
    var faults = FaultCounts()
    // The shared part's candidates, when they are counted record by record (below).
    var candidates: [Root] = []
    let overLimit = { (faults: FaultCounts) in FacetTally(faults: faults) }
    // Over coded fields: segment by segment (the shared part's candidates, then their
    // tally), so that what a segment keeps stays in cache however many records there are.
    let segment = codedColumns == nil ? Swift.max(records.count, 1) : Swift.max(self.segment, 1)
    var start = 0
    var counting = codedColumns.map { CodeCounting(columns: $0, facets: self) }
    repeat {
      let end = Swift.min(start + segment, records.count)
      let kept =
        shared?.filter(records, in: start..<end, until: stop, faults: &faults)
        ?? (start == 0 && end == records.count ? records : Array(records[start..<end]))
      if faults.overLimit != nil { return overLimit(faults) }
      if counting?.add(kept, &faults, until: stop) == nil {
        // (Own conditions that fault: counted record by record below, over every candidate.)
        counting = nil
        candidates = candidates.isEmpty ? kept : candidates + kept
      }
      start = end
    } while start < records.count && !stop()
    if let counting { return counting.result(faults) }
    // For each candidate: how many own conditions it fails (0, 1, or 2 for "more"), and the
    // field of the last one.
    var failures = [UInt8](repeating: 0, count: candidates.count)
    var failedField = [Int](repeating: -1, count: candidates.count)
    for field in own.indices {
      guard let filter = own[field] else { continue }
      let passing = filter.selection(candidates, until: stop, faults: &faults)
      if faults.overLimit != nil { return overLimit(faults) }
      // (Through buffer pointers: this generic function is not specialized, and checking
      // the arrays' uniqueness on every write took a tenth of the count.)
      failures.withUnsafeMutableBufferPointer { failures in
        failedField.withUnsafeMutableBufferPointer { failedField in
          var next = 0
          for index in 0..<Swift.min(failures.count, failedField.count) {
            if next < passing.count, passing[next] == index {
              next += 1
            } else {
              failures[index] = Swift.min(failures[index] + 1, 2)
              failedField[index] = field
            }
          }
        }
      }
    }
    // The candidates every field counts (every own condition holds), and for each field
    // those only its own condition fails.
    var passing: [Int] = []
    var failingOnly: [[Int]] = Array(repeating: [], count: fields.count)
    for index in candidates.indices {
      if index & 1023 == 1023, stop() { break }
      switch failures[index] {
      case 0: passing.append(index)
      case 1: failingOnly[failedField[index]].append(index)
      default: break
      }
    }
    var tallies = [ValueCounts](repeating: ValueCounts(), count: fields.count)
    withExtendedLifetime(bindings) {
      let start = faults.cost
      var run = EvaluationState(bindings: bindings, spent: start)
      for field in fields.indices {
        for positions in [passing, failingOnly[field]] {
          if let count = coded[field] {
            tallies[field].merge(count(candidates, positions))
          } else {
            for index in positions {
              run.beginRecord()
              tallies[field].addRecords(holding: values[field](candidates[index], &run))
            }
          }
        }
      }
      faults.merge(run.outcome(since: start))
    }
    if faults.overLimit != nil { return overLimit(faults) }
    return FacetTally(
      counts: tallies, records: fields.indices.map { passing.count + failingOnly[$0].count },
      matches: passing.count, faults: faults)
  }
}

/// Each field's values counted, the records each field counted and those matching the
/// whole filter, and the faults met: the counts before they are ranked.
package struct FacetTally: Sendable {
  /// Per field (none for a count over its limits).
  package var counts: [ValueCounts] = []
  package var records: [Int] = []
  package var matches = 0
  package var faults = FaultCounts()

  /// These counts (none: nothing counted yet).
  package init(
    counts: [ValueCounts] = [], records: [Int] = [], matches: Int = 0,
    faults: FaultCounts = FaultCounts()
  ) {
    (self.counts, self.records, self.matches, self.faults) = (counts, records, matches, faults)
  }

  /// Adds what `other` counted (the same fields, other records).
  package mutating func merge(_ other: FacetTally) {
    if counts.isEmpty {
      (counts, records) = (other.counts, other.records)
    } else {
      for field in counts.indices where field < other.counts.count {
        counts[field].merge(other.counts[field])
        records[field] &+= other.records[field]
      }
    }
    matches &+= other.matches
    faults.merge(other.faults)
  }

  /// The counts of `fields` (those counted), most frequent value first.
  package func result(_ fields: [FieldPath]) -> FacetCounts {
    let facets = zip(fields, zip(counts, records)).map { field, tally in
      FacetCounts.Facet(field: field, counts: tally.0.ranked, records: tally.1)
    }
    return FacetCounts(facets: facets, matches: matches, faults: faults)
  }
}

/// What a ``FacetCounter`` found: each field's value counts, the records matching the whole
/// filter, and the faults met.
public struct FacetCounts: Hashable, Sendable {
  /// The counts of one field.
  public struct Facet: Hashable, Sendable {
    /// The field counted.
    public let field: FieldPath
    /// Each value and the number of records that have it, most frequent first (ties in value
    /// order, null last). A list field counts each element once per record.
    public var counts: [Count]
    /// The records counted for this field: those matching every part of the filter except
    /// this field's own condition.
    public var records: Int

    package init(field: FieldPath, counts: [Count], records: Int) {
      self.field = field
      self.counts = counts
      self.records = records
    }
  }

  /// A value and how many records have it.
  public struct Count: Hashable, Sendable {
    /// The value.
    public var value: Value
    /// How many records counted have it.
    public var count: Int
  }

  /// One per counted field, in the order asked.
  public var facets: [Facet]
  /// The records matching the whole filter.
  public var matches: Int
  /// Faults met while filtering (they count as unknown, so the record does not match).
  public var faults: FaultCounts

  package init(facets: [Facet], matches: Int, faults: FaultCounts) {
    self.facets = facets
    self.matches = matches
    self.faults = faults
  }
}
