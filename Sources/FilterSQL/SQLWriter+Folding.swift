import FilterDSL

/// Text tests with `[c]` and `[d]`: exact on printable ASCII (see `SQLWriter+Narrowing.swift`).
///
/// flt folds case with Unicode's full folding (`ß` matches `SS`) and strips diacritics from
/// whole characters; SQL's `lower` follows the database's locale. On text made only of
/// printable ASCII (space to `~`) the two agree: folding case is lowering `A` to `Z`, and no
/// character there has a diacritic. So the test written is the folded test on such text (the
/// text lowered by `lower` under the "C" collation, the value folded by flt itself, so that
/// `ß` becomes `ss` as flt has it).
extension SQLWriter {
  /// `subject` tested by a `==`, `!=`, `in` or text test with `[c]` / `[d]` on text, its text
  /// noted as ASCII-only; nil for any other test, or one with no translation.
  mutating func folded(_ subject: SQLSubject, _ condition: BoundCondition) -> SQLFragment? {
    guard case .expr(let expr) = subject, expr.type == .string, let x = value(expr) else {
      return nil
    }
    let test: (String) -> String
    // A `like` pattern only narrows (`?` and a set become `_%`), whatever the text: not only
    // where the text may be outside ASCII (a constant subject notes nothing there).
    var exact = true
    let writer = self
    switch condition.kind {
    case .compare(let op, let operand, let options)
    where !options.isEmpty && (op == .equal || op == .notEqual):
      guard let k = text(operand), let folded = bind(.string(TextFolding.fold(k, options)), .string)
      else { return nil }
      test = { x in "(\(writer.lowered(x, options)) \(Self.spelling(op)) \(folded))" }
    case .member(let operand, let options, let negated) where !options.isEmpty:
      guard case .list(let items) = operand.constantValue ?? values(operand), !items.isEmpty
      else { return nil }
      var elements: [String] = []
      for item in items {
        guard case .string(let k) = item,
          let element = bind(.string(TextFolding.fold(k, options)), .string)
        else { return nil }
        elements.append(element)
      }
      let list = elements.joined(separator: ", ")
      test = { x in "(\(writer.lowered(x, options)) \(negated ? "NOT IN" : "IN") (\(list)))" }
    case .text(let op, let operand, let options, negated: false)
    where !options.isEmpty && op != .matches:
      guard let k = text(operand) else { return nil }
      let folded = TextFolding.fold(k, options)
      guard
        let pattern = bind(
          .string(op == .like ? Self.likePattern(folded) : folded), .string)
      else { return nil }
      test = { x in writer.narrowing(op, writer.lowered(x, options), pattern) }
      exact = op != .like
    default:
      return nil
    }
    guard requireASCII(expr) else { return nil }
    return SQLFragment(once(x, test), exact: exact)
  }

  /// The text of a constant or parameter operand.
  private func text(_ operand: BoundExpr) -> String? {
    if case .string(let k) = operand.constantValue ?? values(operand) { return k }
    return nil
  }

  /// The value of a parameter operand (null for anything else).
  private func values(_ operand: BoundExpr) -> Value {
    if case .parameter(let parameter) = operand.kind { return values[parameter.name] ?? .null }
    return .null
  }

  /// `x` as `[c]` folds printable ASCII: lowered under the "C" collation (only `A` to `Z`,
  /// whatever the database's locale); `[d]` alone changes nothing there.
  private func lowered(_ x: String, _ options: StringOptions) -> String {
    guard options.contains(.caseInsensitive) else { return x }
    return dialect == .postgresql ? "lower(\(byteOrdered(x)))" : "lower(\(x))"
  }
}
