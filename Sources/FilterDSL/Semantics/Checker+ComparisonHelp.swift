/// The help a comparison of mismatched kinds gets: the fix that gives the answer meant (a
/// number written with a unit, text compared with numbers or dates, a time of day with an
/// hour, the file's null marker).
extension Checker {
  /// Help for a comparison of mismatched kinds (`op`, nil for `is`): the likely fix, the one
  /// that gives the answer meant.
  func comparisonHelp(
    _ subject: Expr, _ type: ValueType, _ operand: Expr, _ other: ValueType,
    _ op: ComparisonOperator?
  ) -> String? {
    if case .literal(.string(let text)) = subject.kind {
      // `"Price" > 1`: quoting the number would make a comparison of two constants.
      let field =
        schema.field(named: text) != nil
        ? text : Suggestion.closest(to: text, among: schema.names)
      return field.map { "to read the field '\($0)', write its name without quotes: \($0)" }
        ?? "put a field on the left, as in \(exampleComparison)"
    }
    if case .literal(.string(let text)) = operand.kind, schema.field(named: text) != nil {
      return "on the right of an operator a word is text; to name the field, write `\(text)`"
    }
    if let text = nullText(subject, operand), op == .equal || op == .notEqual || op == nil {
      let not = op == .notEqual ? "not " : ""
      return "\(quoted(text)) is read as null in this file: write \(subject) is \(not)null"
    }
    if type.isNumeric, case .literal(.string(let text)) = operand.kind {
      if Double(text.filter { $0 != "_" }) != nil { return "remove the quotes: \(text)" }
      let digits = text.prefix { $0.isNumber }
      if !digits.isEmpty { return "write the number without a unit: \(digits)" }
      return "compare with a number"
    }
    if type == .string && other.isNumeric {
      return numberAsTextHelp(subject, operand, other, op)
    }
    if type == .string && (other == .date || other == .dateTime) {
      let (function, format) =
        other == .date ? ("date", "%d/%m/%Y") : ("datetime", "%d/%m/%Y %H:%M")
      return "\(subject) is text: convert it to compare as \(other.plural): "
        + "\(function)(\(subject)) \(op?.rawValue ?? "is") \(operand) "
        + "(or \(function)(\(subject), \"\(format)\") for another format)"
    }
    if type == .string && other == .time {
      return "\(subject) is text: convert it to compare as times of day: "
        + "time(\(subject)) \(op?.rawValue ?? "is") \(operand)"
    }
    if type == .time, let help = timeOfDayHelp(subject, operand, other) { return help }
    if case .list = type, !Checker.isList(other) {
      return "test its elements with any, all or none: any \(subject) ..."
    }
    if Checker.isList(type) && Checker.isList(other) {
      return "lists compare with == and != alone: equal in length, element by element in order"
    }
    if case .call(let name, _) = subject.kind, name.text == "distance", other == .duration {
      // `distance(...) < 500m`: m is minutes.
      return "a distance is a number of metres: write 500 for 500 metres, 5km for 5000"
    }
    if case .literal(.string) = operand.kind, type == .date || type == .dateTime {
      return "write dates without quotes: 2022-09-16"
    }
    return nil
  }

  /// Help for a time of day compared with a number, a duration or quoted text: `22`, `22h`
  /// and `"22:00"` all mean 22:00.
  private func timeOfDayHelp(_ subject: Expr, _ operand: Expr, _ other: ValueType) -> String? {
    let hour: Int64?
    switch operand.kind {
    case .literal(.int(let h)): hour = h
    case .literal(.duration(let span)):
      hour = span.nanoseconds % 3_600_000_000_000 == 0 ? span.nanoseconds / 3_600_000_000_000 : nil
    case .literal(.string(let text)) where Value.isoTime(Array(text.utf8)) != nil:
      return "write times of day without quotes: \(text)"
    default: hour = nil
    }
    guard other.isNumeric || other == .duration || other == .string else { return nil }
    let example = hour.map { (0...23).contains($0) ? pad(Int($0), 2) + ":00" : "22:00" } ?? "22:00"
    return "\(subject) is a time of day: compare it with a time such as \(example), "
      + "or its hour with hour(\(subject))"
  }

  /// Help for text compared with a number. Quoting the number would compare text (`"9" >
  /// "100"`), which is seldom meant: the help converts the text, or, when a few other texts
  /// made a column of numbers text, reads them as null. Quoting is offered only for `==` and
  /// `!=` on text not known to hold numbers (codes such as zip codes).
  private func numberAsTextHelp(
    _ subject: Expr, _ operand: Expr, _ other: ValueType, _ op: ComparisonOperator?
  ) -> String {
    let name = "\(subject)"
    let hint = numericText(of: subject)
    let cast = hint?.integers == true && other == .int ? "int" : "double"
    let converted = "\(cast)(\(name)) \(op?.rawValue ?? "is") \(operand)"
    if let hint, !hint.others.isEmpty {
      let others = hint.others.map { quoted($0, mark: "\"") }
      let options = others.map { "--null \($0)" }.joined(separator: " ")
      let list = others.joined(separator: ", ")
      return "\(name) holds numbers and \(list), which made it text: read "
        + (hint.others.count == 1 ? "it" : "them")
        + " as null when loading (\(options), or load ... null \(list)) and compare "
        + "numbers, or convert the text: \(converted)"
    }
    if hint != nil || (op != .equal && op != .notEqual) {
      return "\(name) is text: to compare it as a number, convert it: \(converted)"
    }
    return "\(name) is text: to compare it as a number, convert it: \(converted); "
      + "to compare text, quote the value: \"\(operand)\""
  }

  /// The hint of the field `subject` names, when its values were numbers written as text.
  private func numericText(of subject: Expr) -> NumericText? {
    schemaField(of: subject)?.numericText
  }

  /// The schema's field that `subject` names, if it names one.
  private func schemaField(of subject: Expr) -> Schema.Field? {
    guard case .field(let path) = subject.kind else { return nil }
    var fields = schema
    var found: Schema.Field?
    for name in path.components {
      if let current = found {
        switch current.type {
        case .record(let inner), .list(.record(let inner)): fields = inner
        default: return nil
        }
      }
      guard let (_, field) = fields.field(named: name.text) else { return nil }
      found = field
    }
    return found
  }

  /// The text `operand` spells when the field `subject` reads it as null (`NA`, the file's
  /// null marker): no record has it, whatever the comparison.
  func nullText(_ subject: Expr, _ operand: Expr) -> String? {
    guard case .literal(.string(let text)) = operand.kind,
      schemaField(of: subject)?.nullTexts?.contains(text) == true
    else { return nil }
    return text
  }
}
