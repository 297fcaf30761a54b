/// A translation as text, for people and scripts (`flt sql`).
extension SQLTranslation {
  /// The statement and what flt does after it, as `flt sql` prints them: the statement (with
  /// its values written in when `inline`), then comments: its parameters' values, and what
  /// flt does to the rows.
  package func text(inline: Bool = false) -> String {
    var lines = [(inline ? select.inlined(dialect) : select.text) + ";"]
    if !select.parameters.isEmpty && !inline {
      let marker = dialect == .postgresql ? "$" : "?"
      lines.append(
        "-- parameters: "
          + select.parameters.enumerated().map { "\(marker)\($0.offset + 1) = \($0.element)" }
          .joined(separator: ", "))
    }
    if let residual { lines.append("-- then flt keeps the rows where: \(residual)") }
    if !sortsInDatabase { lines.append("-- then flt sorts them") }
    if !pagesInDatabase { lines.append("-- then flt applies limit and offset") }
    return lines.joined(separator: "\n")
  }
}

extension SQLStatement {
  /// The statement with each placeholder (`$1`, `?1`) replaced by its value as a literal of
  /// `dialect` (text quoted safely for either `standard_conforming_strings` and for psql).
  /// Placeholders are found outside quoted names and literals only.
  package func inlined(_ dialect: SQLDialect) -> String {
    let marker: Character = dialect == .postgresql ? "$" : "?"
    var out = ""
    var characters = Array(text)[...]
    var quote: Character? = nil
    while let c = characters.popFirst() {
      if let open = quote {
        out.append(c)
        if c == open { quote = nil }
        continue
      }
      if c == "\"" || c == "'" {
        quote = c
        out.append(c)
        continue
      }
      let digits = characters.prefix { $0.isASCII && $0.isNumber }
      guard c == marker, !digits.isEmpty, let number = Int(String(digits)), number >= 1,
        number <= parameters.count
      else {
        out.append(c)
        continue
      }
      characters = characters.dropFirst(digits.count)
      out += parameters[number - 1].literal(dialect)
    }
    return out
  }
}
