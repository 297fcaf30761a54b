/// Compiles a bound filter over a ``ColumnTable`` into one selection over its columns, in the
/// manner of DuckDB's `Select` over selection vectors: every node narrows a batch of row
/// positions to those where it is true, and hands back, when asked, those where it is false
/// (what is in neither is unknown).
///
/// - `and` narrows child after child; `or` gives each child only what is not true yet;
///   `not` swaps true and false. (So the children run on the rows the row engine would
///   evaluate them on, and faults count the same.)
/// - A part that reads only one coded column (text, true-or-false values, and integers, dates,
///   lists or nested records with few distinct values), or fields nested in it, is evaluated
///   once per distinct value of the column, on the first row holding it, by the row engine;
///   rows then look their code up. `color in (Starlight, Midnight)`, `lower(model) contains "pro"` and
///   `color == Gold or color == Silver` each cost one lookup per row.
/// - A number field compared with a constant or parameter runs as a loop over its buffer, and
///   arithmetic on number fields compared with one computes each operation over the batch.
/// - Anything else runs the row engine on each row of the batch.
///
/// Functions are taken to be pure (the same arguments give the same result), as DuckDB takes
/// them: a test on a coded column calls them once per distinct value.
final class VectorCompiler {
  /// Narrows `selection` (ascending positions in `rows`) to the positions whose rows make
  /// the test true; with `wantFalses`, appends to `falses` (empty on entry) those that make it
  /// false, ascending.
  typealias Select = (
    _ rows: [Int], _ selection: inout [Int], _ falses: inout [Int], _ wantFalses: Bool,
    _ run: inout EvaluationState
  ) -> Void

  /// A memo entry's key, for the faults of an evaluation that faulted.
  struct MemoKey: Hashable {
    let slot: Int
    let code: Int
  }

  /// A compiled part, or a part that reads one coded column, kept whole until its parent
  /// knows whether it reads only that column too.
  private enum Piece {
    case coded(slot: Int, BoundExpr)
    case compiled(Select)
  }

  let table: ColumnTable
  private let rowEngine: Compiler<Int>
  private var memoSlots = 0

  init(table: ColumnTable) {
    self.table = table
    rowEngine = Compiler(recordType: table.recordType)
  }

  /// The selector of `filter`, as compiled filters call it.
  func selector(_ filter: BoundExpr) -> Selector<Int> {
    let select = self.select(piece(filter))
    return { rows, selection, run in
      var falses: [Int] = []
      select(rows, &selection, &falses, false, &run)
    }
  }

  private func piece(_ expr: BoundExpr) -> Piece {
    switch expr.kind {
    case .logical(let op, let operands):
      let pieces = operands.map(piece)
      if let slot = codedSlot(pieces) { return .coded(slot: slot, expr) }
      let selects = pieces.map(select)
      return .compiled(
        op == .and
          ? VectorCompiler.and(selects, mayFault: operands.map { $0.mayFault })
          : VectorCompiler.or(selects))
    case .not(let operand):
      let inner = piece(operand)
      if case .coded(let slot, _) = inner { return .coded(slot: slot, expr) }
      return .compiled(VectorCompiler.not(select(inner)))
    default:
      // (A test that asks whether rows have a field though it is null asks each row: the
      // rows of one code differ there.)
      if !asksPresence(expr), let slot = codedSlot(expr.fields) { return .coded(slot: slot, expr) }
      return .compiled(numberKernel(expr) ?? arithmeticKernel(expr) ?? rowTest(expr))
    }
  }

  private func select(_ piece: Piece) -> Select {
    switch piece {
    case .compiled(let select): select
    case .coded(let slot, let expr): memo(slot, expr)
    }
  }

  /// The slot of the coded column that every piece reads, if they all read the same one.
  private func codedSlot(_ pieces: [Piece]) -> Int? {
    var common: Int?
    for piece in pieces {
      guard case .coded(let slot, _) = piece, common == nil || common == slot else { return nil }
      common = slot
    }
    return common
  }

  /// The slot of the coded column that `fields` all read (a top-level field, or fields
  /// nested in it), if they read one.
  private func codedSlot(_ fields: [FieldRef]) -> Int? {
    guard let slot = fields.first?.slot, fields.allSatisfy({ $0.slot == slot }),
      slot < table.columns.count, case .coded = table.columns[slot].storage
    else { return nil }
    return slot
  }

  /// Whether `expr` has an `exists` that asks the table's rows whether they have a field
  /// though its value is null (see ``FieldPresence``).
  private func asksPresence(_ expr: BoundExpr) -> Bool {
    guard table.presence.asksRecords else { return false }
    var pending = [expr]
    while let next = pending.popLast() {
      if case .exists(let field) = next.kind, table.presence.test(field, in: table) != nil {
        return true
      }
      pending += next.children
    }
    return false
  }

  // MARK: Kernels

  /// The row engine's test of `expr`, on each row of the batch.
  private func rowTest(_ expr: BoundExpr) -> Select {
    let test = rowEngine.node(expr).test
    return { rows, selection, falses, wantFalses, run in
      VectorCompiler.scan(rows, &selection, &falses, wantFalses) {
        run.beginRecord()
        return test($0, &run)
      }
    }
  }

  /// `expr`, which reads only the coded column at `slot`, evaluated once per distinct value
  /// (on the first row holding it) and looked up by code.
  private func memo(_ slot: Int, _ expr: BoundExpr) -> Select {
    guard case .coded(let codes, let dictionary) = table.columns[slot].storage else {
      return rowTest(expr)
    }
    let test = rowEngine.node(expr).test
    let memoSlot = memoSlots
    memoSlots += 1
    let firstRows = dictionary.firstRows
    let table = table
    return { rows, selection, falses, wantFalses, run in
      // (A state made without one keeps nothing from batch to batch: right, but slower.)
      let memos = run.memo ?? VectorMemo()
      while memos.truths.count <= memoSlot { memos.truths.append([]) }
      var memo = memos.truths[memoSlot]
      memos.truths[memoSlot] = []
      if memo.isEmpty { memo = [UInt8](repeating: 0, count: firstRows.count) }
      // The hot loop of most filters: one code and one memo entry per row, on buffers, and
      // no branch on the truth (which rows pass is data: a branch on it was mispredicted
      // for a quarter of the rows of `color in (Starlight, "Space Black")`). Written out rather
      // than through `scan` and a closure: a count took 2.0 ms so, 2.2-3.1 ms through `scan`.
      var kept = 0
      let identity = table.isEveryRow(rows)
      // (One loop for each width of the codes.)
      func loop<Code: FixedWidthInteger>(_ codes: UnsafeBufferPointer<Code>) {
        rows.withUnsafeBufferPointer { rows in
          selection.withUnsafeMutableBufferPointer { selection in
            memo.withUnsafeMutableBufferPointer { memo in
              for index in 0..<selection.count {
                let position = selection[index]
                guard position >= 0, position < rows.count else { continue }
                let row = identity ? position : rows[position]
                let entry: UInt8
                if row >= 0, row < codes.count {
                  let code = Int(codes[row])
                  var known = memo[code]
                  if known == 0 {
                    known = VectorCompiler.evaluate(
                      test, firstRows[code], memoSlot, code, &run, memos)
                    memo[code] = known
                  }
                  if known & VectorCompiler.faulted != 0,
                    let faults = memos.faults[MemoKey(slot: memoSlot, code: code)]
                  {
                    run.faults.merge(faults)
                  }
                  entry = known & 3
                } else {
                  run.beginRecord()
                  entry = 1 + test(row, &run).rawValue
                }
                // Written always, kept when true (`kept` never passes `index`); the entry is
                // 1 + the truth: 3 is true, 1 false.
                selection[kept] = position
                kept &+= Int(truncatingIfNeeded: (entry &>> 1) & entry & 1)
                if wantFalses, entry == 1 { falses.append(position) }
              }
            }
          }
        }
      }
      codes.withBuffer(loop, loop, loop)
      selection.removeLast(selection.count - kept)
      memos.truths[memoSlot] = memo
    }
  }

  /// The memo entry of a test on the first row of a code: 1 + its truth, flagged when it
  /// faulted (its faults are kept, to count them for every row of the code).
  private static func evaluate(
    _ test: (Int, inout EvaluationState) -> Truth, _ row: Int, _ slot: Int, _ code: Int,
    _ run: inout EvaluationState, _ memos: VectorMemo
  ) -> UInt8 {
    // A fresh state, so that the faults of this evaluation are the value's own; it spends
    // from the run's cost.
    var own = EvaluationState(bindings: run.bindings, spent: run.spent)
    var entry = 1 + test(row, &own).rawValue
    run.spent = own.spent
    if !own.faults.isEmpty {
      entry |= faulted
      memos.faults[MemoKey(slot: slot, code: code)] = own.faults
    }
    return entry
  }

  /// The flag of a memo entry whose evaluation faulted.
  private static let faulted: UInt8 = 4

  /// A top-level number field compared with a constant or parameter, or tested for null, as
  /// a loop over its buffer; nil for anything else.
  private func numberKernel(_ expr: BoundExpr) -> Select? {
    let field: FieldRef
    let condition: BoundCondition
    switch expr.kind {
    case .predicate(let subject, let test):
      guard case .field(let ref) = subject.kind else { return nil }
      (field, condition) = (ref, test)
    case .exists(let ref):
      // (A row whose value is null may have the field all the same: the row engine asks.)
      guard table.presence.test(ref, in: table) == nil else { return nil }
      (field, condition) = (ref, BoundCondition(.isNull(negated: true)))
    default:
      return nil
    }
    guard field.isTopLevel, field.slot < table.columns.count else { return nil }
    let storage = table.columns[field.slot].storage
    switch (field.type, storage) {
    case (.int, .int), (.double, .double): break
    default: return nil
    }
    switch condition.kind {
    case .isNull(let negated):
      return VectorCompiler.nullTest(storage, negated: negated)
    case .compare(let op, let operand, let options) where options.isEmpty:
      guard let read = VectorCompiler.runValue(operand) else { return nil }
      let fallback = rowTest(expr)
      return { rows, selection, falses, wantFalses, run in
        if case .null = read(run) {
          // Unknown for every row: true for none, false for none.
          selection.removeAll()
        } else if !VectorCompiler.compare(
          storage, op, read(run), rows, &selection, &falses, wantFalses)
        {
          fallback(rows, &selection, &falses, wantFalses, &run)
        }
      }
    case .member(let operand, let options, let negated) where options.isEmpty:
      guard case .int(let values, let nulls) = storage,
        case .constant(.list(let elements)) = operand.kind
      else { return nil }
      let ints = elements.compactMap { element -> Int64? in
        if case .int(let i) = element { i } else { nil }
      }
      guard ints.count == elements.count else { return nil }
      if ints.count <= 8 {
        return { rows, selection, falses, wantFalses, _ in
          VectorCompiler.loop(values, nulls, rows, &selection, &falses, wantFalses) {
            ints.contains($0) != negated
          }
        }
      }
      let set = Set(ints)
      return { rows, selection, falses, wantFalses, _ in
        VectorCompiler.loop(values, nulls, rows, &selection, &falses, wantFalses) {
          set.contains($0) != negated
        }
      }
    default:
      return nil
    }
  }

  /// How a constant or parameter operand reads its value at run time; nil for others.
  static func runValue(_ operand: BoundExpr) -> ((EvaluationState) -> Value)? {
    switch operand.kind {
    case .constant(let value): return { _ in value }
    case .parameter(let parameter):
      let slot = parameter.slot
      return { run in slot < run.parameters.count ? run.parameters[slot] : .null }
    default: return nil
    }
  }

  private static func nullTest(_ storage: Column.Storage, negated: Bool) -> Select {
    let (count, nulls): (Int, NullMask)
    switch storage {
    case .int(let values, let mask): (count, nulls) = (values.count, mask)
    case .double(let values, let mask): (count, nulls) = (values.count, mask)
    default: (count, nulls) = (0, NullMask())
    }
    return { rows, selection, falses, wantFalses, _ in
      scan(rows, &selection, &falses, wantFalses) { row in
        let isNull = row < 0 || row >= count || nulls.isNull(row)
        return Truth(isNull != negated)
      }
    }
  }

  /// `column op k` over the batch, with the row engine's semantics for these types (exact
  /// integer-decimal comparison; NaN unknown); false when the types have no loop here.
  private static func compare(
    _ storage: Column.Storage, _ op: ComparisonOperator, _ k: Value, _ rows: [Int],
    _ selection: inout [Int], _ falses: inout [Int], _ wantFalses: Bool
  ) -> Bool {
    switch (storage, k) {
    case (.int(let values, let nulls), .decimal(let d)):
      if let k = d.standIn(against: .int) {
        return compare(storage, op, .double(k), rows, &selection, &falses, wantFalses)
      }
      scan(rows, &selection, &falses, wantFalses) { row in
        guard row >= 0, row < values.count, !nulls.isNull(row) else { return .unknown }
        return ValueComparison.holds(op, ExactDecimal.compare(values[row], d))
      }
    case (.double, .decimal(let d)):
      return compare(storage, op, .double(d.doubleValue), rows, &selection, &falses, wantFalses)
    case (.int(let values, let nulls), .int(let k)):
      // The commonest test: one loop per operator, so that the comparison is inlined.
      compareLoop(op, values, nulls, k, rows, &selection, &falses, wantFalses)
    case (.int(let values, let nulls), .double(let k)):
      scan(rows, &selection, &falses, wantFalses) { row in
        guard row >= 0, row < values.count, !nulls.isNull(row),
          let order = NumberComparison.compare(values[row], k)
        else { return .unknown }
        return ValueComparison.holds(op, order)
      }
    case (.double(let values, let nulls), .double(let k)) where !wantFalses && !k.isNaN:
      // Only what is true is wanted, so NaN (unknown) may fail like false.
      compareLoop(op, values, nulls, k, rows, &selection, &falses, false)
    case (.double(let values, let nulls), .double(let k)):
      scan(rows, &selection, &falses, wantFalses) { row in
        guard row >= 0, row < values.count, !nulls.isNull(row), !values[row].isNaN, !k.isNaN
        else { return .unknown }
        return ValueComparison.holds(op, NumberComparison.compareSame(values[row], k))
      }
    case (.double(let values, let nulls), .int(let k)):
      scan(rows, &selection, &falses, wantFalses) { row in
        guard row >= 0, row < values.count, !nulls.isNull(row),
          let order = NumberComparison.compare(values[row], k)
        else { return .unknown }
        return ValueComparison.holds(op, order)
      }
    default:
      return false
    }
    return true
  }

  /// `column op k` as one loop per operator (the comparison ``ComparisonKernel`` inlined). A
  /// value unequal to itself (NaN) fails every operator, `!=` included: only right where
  /// NaN's unknown may be dropped like false.
  @inline(__always)
  static func compareLoop<T: Comparable>(
    _ op: ComparisonOperator, _ values: [T], _ nulls: NullMask, _ k: T, _ rows: [Int],
    _ selection: inout [Int], _ falses: inout [Int], _ wantFalses: Bool
  ) {
    op.specialized(
      CompareLoop(values: values, nulls: nulls, k: k, rows: rows, wantFalses: wantFalses))(
        &selection, &falses)
  }

  /// Keeps the positions whose rows' values pass `keep` (null rows, and rows outside the
  /// column, are unknown); with `wantFalses`, appends those that fail it. On buffers.
  @inline(__always)
  static func loop<T>(
    _ values: [T], _ nulls: NullMask, _ rows: [Int], _ selection: inout [Int],
    _ falses: inout [Int], _ wantFalses: Bool, _ keep: (T) -> Bool
  ) {
    let noNulls = nulls.words.isEmpty
    values.withUnsafeBufferPointer { values in
      scan(rows, &selection, &falses, wantFalses) { row in
        guard row >= 0, row < values.count, noNulls || !nulls.isNull(row) else { return .unknown }
        return keep(values[row]) ? .true : .false
      }
    }
  }

  /// Keeps the positions whose rows are true; with `wantFalses`, appends those false. The
  /// loop every kernel runs, on buffers, keeping a position without a branch on its truth.
  @inline(__always)
  static func scan(
    _ rows: [Int], _ selection: inout [Int], _ falses: inout [Int], _ wantFalses: Bool,
    _ truth: (Int) -> Truth
  ) {
    var kept = 0
    rows.withUnsafeBufferPointer { rows in
      selection.withUnsafeMutableBufferPointer { selection in
        for index in 0..<selection.count {
          let position = selection[index]
          guard position >= 0, position < rows.count else { continue }
          let truth = truth(rows[position])
          // Written always, kept when true (`kept` never passes `index`).
          selection[kept] = position
          kept &+= Int(truncatingIfNeeded: truth.rawValue &>> 1)  // (true is 2: no branch)
          if wantFalses, truth == .false { falses.append(position) }
        }
      }
    }
    selection.removeLast(selection.count - kept)
  }
}

/// `column op k` over a batch's rows, for one operator's kernel.
private struct CompareLoop<T: Comparable>: ComparisonSpecialization {
  let values: [T]
  let nulls: NullMask
  let k: T
  let rows: [Int]
  let wantFalses: Bool
  func make<Kernel: ComparisonKernel>(_ kernel: Kernel.Type) -> (inout [Int], inout [Int]) -> Void {
    { [self] selection, falses in
      VectorCompiler.loop(values, nulls, rows, &selection, &falses, wantFalses) {
        Kernel.holds($0, k)
      }
    }
  }
}
