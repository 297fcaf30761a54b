/// Arithmetic over columns: `price * 2 + memory > 2500` computes each operation for a whole
/// batch of rows, one loop per operation over plain arrays, instead of a chain of closures per
/// row. The numbers and faults are the row engine's: the same ``Arithmetic`` functions, both
/// operands of an operation computed on every row (as the row engine computes both before it
/// combines them), a fault counted where it happens and leaving that row without a value.
extension VectorCompiler {
  /// Numbers for a batch of rows: the value of each row, and whether it has one (null, a row
  /// outside the table and a fault give none; the value is then 0).
  struct Numbers<T: Numeric> {
    var values: [T]
    var valid: [Bool]

    init(values: [T], valid: [Bool]) {
      self.values = values
      self.valid = valid
    }

    /// `self op= y` row by row where both have a value, through `operation`: a fault is
    /// counted and leaves the row without one.
    mutating func combine(
      _ y: Numbers, _ run: inout EvaluationState, _ operation: (T, T) -> Result<T, Fault>
    ) {
      for i in values.indices {
        guard valid[i] && i < y.valid.count && y.valid[i] else {
          valid[i] = false
          continue
        }
        let result: T? = run.apply(operation(values[i], y.values[i]))
        values[i] = result ?? 0
        valid[i] = result != nil
      }
    }

    /// `k` (no value when nil) for each of `count` rows.
    init(repeating k: T?, count: Int) {
      values = [T](repeating: k ?? 0, count: count)
      valid = [Bool](repeating: k != nil, count: count)
    }
  }

  /// Computes an integer expression for the rows given.
  typealias IntKernel = (_ rows: [Int], _ run: inout EvaluationState) -> Numbers<Int64>
  /// Computes a decimal expression for the rows given.
  typealias DoubleKernel = (_ rows: [Int], _ run: inout EvaluationState) -> Numbers<Double>

  /// `expr op k` where `expr` is arithmetic over number columns, constants and integer
  /// parameters, and `k` a constant or integer parameter; nil for anything else (a plain field
  /// compared with a constant has ``numberKernel(_:)``).
  func arithmeticKernel(_ expr: BoundExpr) -> Select? {
    guard case .predicate(let subject, let condition) = expr.kind,
      case .compare(let op, let operand, let options) = condition.kind, options.isEmpty
    else { return nil }
    switch subject.kind {
    case .arithmetic, .negate: break
    default: return nil
    }
    guard var read = VectorCompiler.runValue(operand) else { return nil }
    switch (subject.type, operand.type) {
    case (.int, .int), (.int, .double), (.double, .int), (.double, .double): break
    case (.int, .decimal), (.double, .decimal):
      // The double that compares the same (once a batch, not a decimal compared each row);
      // with integers, where none does, the decimal itself.
      let (decimal, type) = (read, subject.type)
      read = { run in
        let value = decimal(run)
        guard case .decimal(let d) = value, let k = d.standIn(against: type) else { return value }
        return .double(k)
      }
    default: return nil
    }
    if subject.type == .int, let ints = intKernel(subject) {
      return VectorCompiler.compare(ints, read) { value, k in
        switch k {
        case .int(let k): ValueComparison.holds(op, NumberComparison.compareSame(value, k))
        case .double(let k):
          NumberComparison.compare(value, k).map { ValueComparison.holds(op, $0) }
        case .decimal(let k): ValueComparison.holds(op, ExactDecimal.compare(value, k))
        default: nil
        }
      }
    }
    if subject.type == .double, let doubles = doubleKernel(subject) {
      return VectorCompiler.compare(doubles, read) { value, k in
        switch k {
        case .double(let k):
          value.isNaN || k.isNaN
            ? nil : ValueComparison.holds(op, NumberComparison.compareSame(value, k))
        case .int(let k): NumberComparison.compare(value, k).map { ValueComparison.holds(op, $0) }
        default: nil
        }
      }
    }
    return nil
  }

  /// The selection of `kernel op k`: for each position, true, false or (no value, or a
  /// comparison that cannot say) unknown; `holds` compares one value with `k`.
  private static func compare<T>(
    _ kernel: @escaping (_ rows: [Int], _ run: inout EvaluationState) -> Numbers<T>,
    _ read: @escaping (EvaluationState) -> Value,
    _ holds: @escaping (T, Value) -> Truth?
  ) -> Select {
    return { rows, selection, falses, wantFalses, run in
      // The rows of the positions in range; positions outside `rows` are dropped, as `scan`
      // drops them.
      var kept: [Int] = []
      var batch: [Int] = []
      kept.reserveCapacity(selection.count)
      batch.reserveCapacity(selection.count)
      for position in selection where position >= 0 && position < rows.count {
        kept.append(position)
        batch.append(rows[position])
      }
      let numbers = kernel(batch, &run)
      let k = read(run)
      selection.removeAll(keepingCapacity: true)
      for index in kept.indices {
        let truth: Truth =
          numbers.valid[index] ? holds(numbers.values[index], k) ?? .unknown : .unknown
        if truth == .true {
          selection.append(kept[index])
        } else if wantFalses && truth == .false {
          falses.append(kept[index])
        }
      }
    }
  }

  /// The kernel of an integer expression: integer columns, constants and parameters, and
  /// arithmetic on them; nil for anything else.
  func intKernel(_ expr: BoundExpr) -> IntKernel? {
    guard expr.type == .int else { return nil }
    switch expr.kind {
    case .constant(.int(let k)):
      return { rows, _ in Numbers(repeating: k, count: rows.count) }
    case .parameter(let parameter):
      let slot = parameter.slot
      return { rows, run in
        let k: Int64? =
          if slot < run.parameters.count, case .int(let k) = run.parameters[slot] { k } else { nil }
        return Numbers(repeating: k, count: rows.count)
      }
    case .field(let field):
      return columnInts(field)
    case .negate(let operand):
      guard let inner = intKernel(operand) else { return nil }
      return { rows, run in
        var numbers = inner(rows, &run)
        for i in numbers.values.indices where numbers.valid[i] {
          let (value, overflow) = Int64(0).subtractingReportingOverflow(numbers.values[i])
          numbers.values[i] = overflow ? 0 : value
          if overflow {
            numbers.valid[i] = false
            run.faults.record(.integerOverflow)
          }
        }
        return numbers
      }
    case .arithmetic(let op, let left, let right):
      guard let a = intKernel(left), let b = intKernel(right) else { return nil }
      return { rows, run in
        var x = a(rows, &run)
        let y = b(rows, &run)
        VectorCompiler.combine(op, &x, y, &run)
        return x
      }
    default:
      return nil
    }
  }

  /// `x op= y` on integers, row by row where both have a value: overflow and division by
  /// zero are faults, as in the row engine.
  private static func combine(
    _ op: ArithmeticOperator, _ x: inout Numbers<Int64>, _ y: Numbers<Int64>,
    _ run: inout EvaluationState
  ) {
    // The common operations inline; division and remainder through the row engine's own.
    func each(_ operation: (Int64, Int64) -> (Int64, Bool)) {
      x.values.withUnsafeMutableBufferPointer { values in
        x.valid.withUnsafeMutableBufferPointer { valid in
          for i in 0..<Swift.min(values.count, y.values.count) {
            guard valid[i] && y.valid[i] else {
              valid[i] = false
              continue
            }
            let (value, overflow) = operation(values[i], y.values[i])
            values[i] = value
            if overflow {
              valid[i] = false
              run.faults.record(.integerOverflow)
            }
          }
        }
      }
    }
    switch op {
    case .add: each { $0.addingReportingOverflow($1) }
    case .subtract: each { $0.subtractingReportingOverflow($1) }
    case .multiply: each { $0.multipliedReportingOverflow(by: $1) }
    case .bitAnd: each { ($0 & $1, false) }
    case .bitOr: each { ($0 | $1, false) }
    case .bitXor: each { ($0 ^ $1, false) }
    case .shiftLeft: each { ($0 << $1, false) }
    case .shiftRight: each { ($0 >> $1, false) }
    case .divide, .integerDivide, .remainder:
      x.combine(y, &run) { Arithmetic.int(op, $0, $1) }
    }
  }

  /// The kernel of a decimal expression: decimal columns, decimal constants, integer
  /// expressions (converted as the row engine converts them), and arithmetic on them; nil
  /// for anything else.
  func doubleKernel(_ expr: BoundExpr) -> DoubleKernel? {
    if expr.type == .int {
      guard let ints = intKernel(expr) else { return nil }
      return { rows, run in
        let numbers = ints(rows, &run)
        return Numbers(values: numbers.values.map(Double.init), valid: numbers.valid)
      }
    }
    // A decimal constant in arithmetic on doubles is its nearest double.
    if case .constant(.decimal(let k)) = expr.kind {
      return { rows, _ in Numbers(repeating: k.doubleValue, count: rows.count) }
    }
    guard expr.type == .double else { return nil }
    switch expr.kind {
    case .constant(.double(let k)):
      return { rows, _ in Numbers(repeating: k, count: rows.count) }
    case .field(let field):
      return columnDoubles(field)
    case .negate(let operand):
      guard let inner = doubleKernel(operand) else { return nil }
      return { rows, run in
        var numbers = inner(rows, &run)
        for i in numbers.values.indices { numbers.values[i] = -numbers.values[i] }
        return numbers
      }
    case .arithmetic(let op, let left, let right):
      guard !op.isBitwise, let a = doubleKernel(left), let b = doubleKernel(right) else {
        return nil
      }
      return { rows, run in
        var x = a(rows, &run)
        x.combine(b(rows, &run), &run) { Arithmetic.double(op, $0, $1) }
        return x
      }
    default:
      return nil
    }
  }

  /// The values of a top-level integer field held flat, or coded with only integers.
  private func columnInts(_ field: FieldRef) -> IntKernel? {
    column(field) { storage in
      if case .int(let values, let nulls) = storage { (values, nulls) } else { nil }
    } number: { value in
      if case .int(let int) = value { int } else { nil }
    }
  }

  /// The values of a top-level decimal field held flat, or coded with only decimals.
  private func columnDoubles(_ field: FieldRef) -> DoubleKernel? {
    column(field) { storage in
      if case .double(let values, let nulls) = storage { (values, nulls) } else { nil }
    } number: { value in
      if case .double(let double) = value { double } else { nil }
    }
  }

  /// The values of a top-level field: held flat (`flat` finds the buffer), or coded with only
  /// numbers of the kind (`number` reads one).
  private func column<T: Numeric>(
    _ field: FieldRef, flat: (Column.Storage) -> ([T], NullMask)?, number: (Value) -> T?
  ) -> ((_ rows: [Int], _ run: inout EvaluationState) -> Numbers<T>)? {
    guard field.isTopLevel, field.slot < table.columns.count else { return nil }
    let storage = table.columns[field.slot].storage
    if let (values, nulls) = flat(storage) {
      return { rows, _ in VectorCompiler.gather(rows, values, nulls) }
    }
    guard case .coded(let codes, let dictionary) = storage,
      let decoded = VectorCompiler.decode(dictionary, number)
    else { return nil }
    return { rows, _ in VectorCompiler.gather(rows, codes, decoded) }
  }

  /// A coded column's values by code (nil for null), or nil when one is not of the kind.
  private static func decode<T>(_ dictionary: Column.Dictionary, _ kind: (Value) -> T?)
    -> [T?]?
  {
    var decoded: [T?] = []
    for value in dictionary.values {
      if case .null = value {
        decoded.append(nil)
      } else if let number = kind(value) {
        decoded.append(number)
      } else {
        return nil
      }
    }
    return decoded
  }

  /// The values of `rows` in a flat column (0 and no value for null and rows outside it).
  private static func gather<T: Numeric>(_ rows: [Int], _ values: [T], _ nulls: NullMask)
    -> Numbers<T>
  {
    var numbers = Numbers(
      values: [T](repeating: 0, count: rows.count),
      valid: [Bool](repeating: false, count: rows.count))
    let noNulls = nulls.words.isEmpty
    values.withUnsafeBufferPointer { values in
      for (i, row) in rows.enumerated() where row >= 0 && row < values.count {
        guard noNulls || !nulls.isNull(row) else { continue }
        numbers.values[i] = values[row]
        numbers.valid[i] = true
      }
    }
    return numbers
  }

  /// The values of `rows` in a coded column, through its decoded values.
  private static func gather<T: Numeric>(_ rows: [Int], _ codes: Codes, _ decoded: [T?])
    -> Numbers<T>
  {
    var numbers = Numbers(
      values: [T](repeating: 0, count: rows.count),
      valid: [Bool](repeating: false, count: rows.count))
    func gather<Code: FixedWidthInteger>(_ codes: UnsafeBufferPointer<Code>) {
      for (i, row) in rows.enumerated() where row >= 0 && row < codes.count {
        let code = Int(codes[row])
        guard code < decoded.count, let value = decoded[code] else { continue }
        numbers.values[i] = value
        numbers.valid[i] = true
      }
    }
    codes.withBuffer(gather, gather, gather)
    return numbers
  }
}
