/// Typed strategies for a field (or any typed value) tested against constants: no boxing, no
/// type switch, no allocation per record. Anything else takes the general form.
extension Compiler {
  func typedCondition(
    _ condition: BoundCondition, _ operands: ConditionOperands, _ subject: Operand<Root>,
    _ subjectText: String
  ) -> CompiledTest<Root>? {
    switch condition.kind {
    case .compare(let op, let operandExpr, let options):
      guard let constant = operands.first.constant else { return nil }
      let plan = Plan(
        Compiler.name(op) + options.spelling,
        [.text(subjectText), .text(Compiler.text(operandExpr))])
      // (`guard let`, not `Optional.map`: a closure passed through a generic function comes
      // back wrapped in two reabstraction thunks, called on every record.)
      guard let test = compare(op, subject, constant, options) else { return nil }
      return CompiledTest(test: test, plan: plan)
    case .member(let operandExpr, let options, let negated):
      let plan = Plan(
        (negated ? "NotIn" : "In") + options.spelling,
        [.text(subjectText), .text(setText(operandExpr))])
      guard let test = member(subject, operandExpr, operands, options) else { return nil }
      return CompiledTest(test: negated ? { r, run in !test(r, &run) } : test, plan: plan)
    case .text(let op, _, let options, let negated):
      guard case .string(let read) = subject,
        case .constant(.string(let pattern)) = operands.first
      else {
        return nil
      }
      let plan = Plan(
        Compiler.name(op, negated: negated) + options.spelling,
        [.text(subjectText), .text(pattern)])
      let matcher = TextMatcher(op, pattern: pattern, options: options)
      if op == .matches && matcher.regex == nil { return nil }  // the general form says unknown
      return CompiledTest(
        test: { r, run in
          guard let text = read(r, &run), run.charge(matcher.cost(text)) else { return .unknown }
          return Truth(matcher.matches(text) != negated)
        }, plan: plan)
    case .isNull(let negated):
      return isNull(
        subject, negated: negated,
        plan: Plan(negated ? "IsNotNull" : "IsNull", [.text(subjectText)]))
    case .between, .isEmpty, .same, .satisfies:
      return nil
    }
  }

  /// `subject op constant` for typed subjects.
  private func compare(
    _ op: ComparisonOperator, _ subject: Operand<Root>, _ constant: Value, _ options: StringOptions
  ) -> ((Root, inout EvaluationState) -> Truth)? {
    var constant = constant
    if case .decimal(let d) = constant {
      // As the double that compares the same, for the loops on doubles.
      let type: ValueType
      switch subject {
      case .int: type = .int
      case .double: type = .double
      default: return nil
      }
      guard let double = d.standIn(against: type) else { return nil }
      constant = .double(double)
    }
    switch (subject, constant) {
    case (.int(let read), .int(let k)) where options.isEmpty:
      return Compiler.intTest(op, read, k)
    case (.int(let read), .double(let d)) where options.isEmpty:
      return { r, run in
        guard let v = read(r, &run), let order = NumberComparison.compare(v, d) else {
          return .unknown
        }
        return ValueComparison.holds(op, order)
      }
    case (.double(let read), .double(let k)) where options.isEmpty:
      // NaN, on either side, is unknown.
      guard !k.isNaN else { return { _, _ in .unknown } }
      let test = op.test(against: k)
      return { r, run in
        guard let v = read(r, &run), !v.isNaN else { return .unknown }
        return Truth(test(v))
      }
    case (.double(let read), .int(let k)) where options.isEmpty:
      return { r, run in
        guard let v = read(r, &run), let order = NumberComparison.compare(v, k) else {
          return .unknown
        }
        return ValueComparison.holds(op, order)
      }
    case (.string(let read), .string(let k)):
      if options.isEmpty {
        let test = op.test(against: k)
        return { r, run in read(r, &run).map { Truth(test($0)) } ?? .unknown }
      }
      let test = op.test(against: TextFolding.fold(k, options))
      return { r, run in
        guard let text = read(r, &run), run.charge(Cost.fold(text)) else { return .unknown }
        return Truth(test(TextFolding.fold(text, options)))
      }
    default:
      return nil
    }
  }

  /// `subject op k` for an integer subject, the commonest test: one closure per operator with
  /// its kernel inlined, so that the operator is not tested per record. (Written out per
  /// operator: code generic over the kernel, ``ComparisonOperator/specialized(_:)``, is not
  /// specialized inside this engine, generic over the embedder's record type, and measured
  /// 10 ns a record slower.) Other types call the kernel's closure
  /// (``ComparisonOperator/test(against:)``).
  static func intTest(
    _ op: ComparisonOperator, _ read: @escaping (Root, inout EvaluationState) -> Int64?, _ k: Int64
  ) -> (Root, inout EvaluationState) -> Truth {
    switch op {
    case .equal: { r, run in read(r, &run).map { Truth(EqualKernel.holds($0, k)) } ?? .unknown }
    case .notEqual:
      { r, run in read(r, &run).map { Truth(NotEqualKernel.holds($0, k)) } ?? .unknown }
    case .less: { r, run in read(r, &run).map { Truth(LessKernel.holds($0, k)) } ?? .unknown }
    case .lessOrEqual:
      { r, run in read(r, &run).map { Truth(LessOrEqualKernel.holds($0, k)) } ?? .unknown }
    case .greater:
      { r, run in read(r, &run).map { Truth(GreaterKernel.holds($0, k)) } ?? .unknown }
    case .greaterOrEqual:
      { r, run in read(r, &run).map { Truth(GreaterOrEqualKernel.holds($0, k)) } ?? .unknown }
    }
  }

  /// `subject in (constants)` and `subject in constant...constant`: a set for long lists, a
  /// linear scan for short ones.
  private func member(
    _ subject: Operand<Root>, _ operandExpr: BoundExpr, _ operands: ConditionOperands,
    _ options: StringOptions
  ) -> ((Root, inout EvaluationState) -> Truth)? {
    if case .range(_, _, let kind) = operandExpr.kind {
      guard case .int(let read) = subject, options.isEmpty,
        case .constant(.int(let low)) = operands.first,
        case .constant(.int(let high)) = operands.second
      else { return nil }
      if kind == .closed {
        return { r, run in read(r, &run).map { Truth($0 >= low && $0 <= high) } ?? .unknown }
      }
      return { r, run in read(r, &run).map { Truth($0 >= low && $0 < high) } ?? .unknown }
    }
    guard case .constant(.list(let elements)) = operands.first else { return nil }
    switch subject {
    case .string(let read):
      var collected: [String] = []
      for element in elements {
        guard case .string(let s) = element else { return nil }
        collected.append(options.isEmpty ? s : TextFolding.fold(s, options))
      }
      // Captured as constants: a captured `var` would be checked for exclusive access on
      // every read.
      let strings = collected
      if !options.isEmpty {
        let set = Set(strings)
        return { r, run in
          guard let text = read(r, &run), run.charge(Cost.fold(text)) else { return .unknown }
          return Truth(set.contains(TextFolding.fold(text, options)))
        }
      }
      if strings.count <= Compiler.linearScanLimit {
        return { r, run in read(r, &run).map { Truth(strings.contains($0)) } ?? .unknown }
      }
      let set = Set(strings)
      return { r, run in read(r, &run).map { Truth(set.contains($0)) } ?? .unknown }
    case .int(let read) where options.isEmpty:
      var collected: [Int64] = []
      for element in elements {
        guard case .int(let i) = element else { return nil }
        collected.append(i)
      }
      let ints = collected
      if ints.count <= Compiler.linearScanLimit {
        return { r, run in read(r, &run).map { Truth(ints.contains($0)) } ?? .unknown }
      }
      let set = Set(ints)
      return { r, run in read(r, &run).map { Truth(set.contains($0)) } ?? .unknown }
    default:
      return nil
    }
  }

  /// Lists up to this long are scanned; longer ones hashed.
  static var linearScanLimit: Int { 8 }
}

/// A text test against a constant pattern, prepared once: folded pattern, glob characters or
/// compiled regular expression.
struct TextMatcher {
  let op: TextOperator
  let options: StringOptions
  let pattern: String
  let glob: Glob?
  let regex: RegexProgram?

  init(_ op: TextOperator, pattern: String, options: StringOptions) {
    self.op = op
    self.options = options
    let folded =
      options.isEmpty
      ? pattern
      : op == .matches
        ? TextFolding.foldPattern(pattern, options) : TextFolding.fold(pattern, options)
    self.pattern = folded
    glob = op == .like ? Glob(folded) : nil
    regex = op == .matches ? try? RegexProgram(folded) : nil
  }

  /// What testing `text` costs (see ``EvaluationLimits``).
  func cost(_ text: String) -> Int {
    Cost.text(
      op, textBytes: text.utf8.count, patternBytes: pattern.utf8.count,
      patternSize: regex?.size ?? 0, folds: !options.isEmpty)
  }

  func matches(_ text: String) -> Bool {
    let text = options.isEmpty ? text : TextFolding.fold(text, options)
    switch op {
    case .contains: return pattern.isEmpty || text.contains(pattern)
    case .startsWith: return text.hasPrefix(pattern)
    case .endsWith: return text.hasSuffix(pattern)
    case .like: return glob?.matches(text) ?? false
    case .matches: return regex?.matches(text) ?? false
    }
  }
}
