import FilterDSL
import FilterData
import FilterDatabase
import Foundation

/// Tab completion: what can follow the text before the cursor. Keywords and statements at
/// the start, field names and named filters in a filter, a field's known values after a
/// comparison (`color == Sp` completes to `"Space Black"`), settings after `set`, data names
/// after `use`, data files and folders after `load`, commands after `:`. Pure: the REPL gives
/// it the text, the names it knows and a way to list a folder.
package struct Completer {
  /// Field paths of the current data as a filter writes them (`camera.megapixels`,
  /// `` `Province / Territory` ``), in schema order.
  package var fields: [String] = []
  /// The known values of a field, by path.
  package var values: (String) -> [Value] = { _ in [] }
  /// Named filters and parameters defined with `let`.
  package var filters: [String] = []
  package var parameters: [String] = []
  /// Names of loaded data.
  package var datasets: [String] = []
  /// The entries of a folder (as `load` would resolve it; "" is the current folder): names,
  /// folders ending in `/`.
  package var folder: (String) -> [String] = { _ in [] }

  package init() {}

  /// The names a session knows.
  package init(_ session: Session) {
    var fields: [String] = []
    var pending: [(prefix: String, schema: Schema)] = [("", session.current?.schema ?? Schema([]))]
    while let (prefix, schema) = pending.popLast() {
      for field in schema.fields {
        let path = prefix + Name.written(field.name, step: !prefix.isEmpty)
        fields.append(path)
        if case .record(let inner) = field.type { pending.append((path + ".", inner)) }
      }
    }
    self.fields = fields
    if let data = session.current { values = data.values(of:) }
    filters = session.definitions.filters.keys.sorted()
    parameters = session.definitions.parameters.keys.sorted()
    datasets = session.datasets.map { Name.written($0.name, statement: true) }
    folder = { path in Completer.entries(of: session.resolve(path.isEmpty ? "." : path)) }
  }

  /// What Tab offers.
  package struct Completion: Equatable, Sendable {
    /// How many characters before the cursor the candidates replace.
    package var replacing: Int
    /// The texts that can replace them, sorted.
    package var candidates: [String]
    /// Whether a space follows a unique candidate.
    package var appendsSpace: Bool
    /// Whether the candidate is a value in a list (`in (Starlight, `): a comma and a space
    /// follow it, ready for the next value.
    package var inList = false

    /// What a unique candidate is followed by.
    package var suffix: String { inList ? ", " : appendsSpace ? " " : "" }
  }

  /// The REPL's commands.
  package static var commands: [String] { ReplCommands.all.map(\.name) }

  /// The completions of the word that ends at the end of `text`.
  package func complete(_ text: String) -> Completion {
    let line =
      text.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? text
    if line.hasPrefix(":") && !line.contains(" ") {
      return Completion(line.count, Completer.commands.filter { $0.hasPrefix(line) }, space: true)
    }
    if line.hasPrefix(":run ") {
      // Scripts, as typed after the command (no quotes).
      let typed = String(line.dropFirst(5).drop { $0 == " " })
      return files(typed, replacing: typed.count, extensions: ["flt"], quoted: false)
    }
    if let quote = openQuote(line) {
      let prefix = String(line[line.index(after: quote)...])
      let before = String(line[..<quote])
      if Completer.words(before) == ["load"] {
        return files(prefix, replacing: prefix.count + 1)
      }
      // Inside a string: the texts of the field compared.
      let candidates = valueCandidates(before, prefix: prefix, inQuotes: true)
      var completion = Completion(prefix.count + 1, candidates, space: true)
      completion.inList = [.comma, .leftParen].contains(Completer.tokens(before).last?.kind)
      return completion
    }
    // The word being typed: from an open backtick (`` `Province / T ``) or a name's start.
    // A path before the backtick (`` stats.`2024 ``) is part of the word.
    var start = Completer.openBacktick(line) ?? line.endIndex
    while start > line.startIndex {
      let previous = line[line.index(before: start)]
      guard previous.isLetter || previous.isNumber || "_.$`".contains(previous) else { break }
      start = line.index(before: start)
    }
    let prefix = String(line[start...])
    let before = String(line[..<start])
    let words = Completer.words(before)
    if words == ["load"] { return files(prefix, replacing: prefix.count) }
    if words.count == 1, words[0] == "use" {
      return Completion(prefix.count, matching(datasets, prefix), space: false)
    }
    if words.first == "set" {
      switch words.count {
      case 1:
        return Completion(prefix.count, matching(Settings.names.map(\.name), prefix), space: true)
      case 2:
        let choices: [String: [String]] = [
          "format": OutputFormat.allCases.map(\.rawValue), "time": ["on", "off"],
          "live": ["on", "off"], "pager": ["on", "off"],
          "limit": ["none"],
        ]
        return Completion(prefix.count, matching(choices[words[1]] ?? [], prefix), space: false)
      default: return Completion(prefix.count, [], space: false)
      }
    }
    if prefix.hasPrefix("$") {
      return Completion(prefix.count, matching(parameters.map { "$" + $0 }, prefix), space: true)
    }
    let values = valueCandidates(before, prefix: prefix, inQuotes: false)
    if !values.isEmpty {
      // In a list (`in (Starlight, `) the comma comes next, then a space.
      let inList = [.comma, .leftParen].contains(Completer.tokens(before).last?.kind)
      var completion = Completion(prefix.count, values, space: !inList)
      completion.inList = inList
      return completion
    }
    if let last = words.last, last == "by" || (last == "," && words.contains("by")) {
      // Sort keys: fields (and what they compute from).
      let candidates = matching(fields, prefix)
      let isField = candidates.count == 1 && fields.contains { $0.hasPrefix(candidates[0] + ".") }
      return Completion(prefix.count, candidates, space: !isField)
    }
    var names = fields + filters + Vocabulary.keywords + Vocabulary.clauses
    if words.isEmpty { names += Vocabulary.statements }
    let candidates = matching(names, prefix)
    let isField = candidates.count == 1 && fields.contains { $0.hasPrefix(candidates[0] + ".") }
    return Completion(prefix.count, candidates, space: !isField)
  }

  /// `choices` laid out in columns for a terminal `width` wide, down then across as `ls`
  /// does: every column as wide as the widest choice and two spaces, no choice broken across
  /// lines.
  package static func columns(_ choices: [String], width: Int) -> [String] {
    guard !choices.isEmpty else { return [] }
    let column = (choices.map { DisplayWidth.of($0) }.max() ?? 0) + 2
    let perLine = Swift.max(1, (width + 2) / column)
    let lines = (choices.count + perLine - 1) / perLine
    return (0..<lines).map { line in
      var text = ""
      for index in stride(from: line, to: choices.count, by: lines) {
        let choice = choices[index]
        text += choice + String(repeating: " ", count: column - DisplayWidth.of(choice))
      }
      while text.last == " " { text.removeLast() }
      return text
    }
  }

  /// The files (with one of `extensions`: data files after `load`) and folders whose path
  /// starts with `typed`, quoted as a string unless `quoted` is false; a file closes its
  /// quote, a folder stays open for the next Tab.
  private func files(
    _ typed: String, replacing count: Int,
    extensions: [String] = DataFormat.all.flatMap(\.extensions)
      + DataFormat.compressionExtensions + DatabaseTable.fileExtensions, quoted: Bool = true
  ) -> Completion {
    let slash = typed.lastIndex(of: "/").map { typed.index(after: $0) } ?? typed.startIndex
    let directory = String(typed[..<slash])
    let name = typed[slash...]
    let candidates = folder(directory).filter { entry in
      guard entry.hasPrefix(name), entry.hasPrefix(".") == name.hasPrefix(".") else {
        return false
      }
      let suffix = entry.split(separator: ".").last.map { $0.lowercased() } ?? ""
      return entry.hasSuffix("/") || (entry.contains(".") && extensions.contains(suffix))
    }.sorted().map { entry in
      guard quoted else { return directory + entry }
      let text = Completer.quoted(directory + entry)
      return entry.hasSuffix("/") ? String(text.dropLast()) : text
    }
    return Completion(
      count, candidates, space: candidates.count == 1 && !candidates[0].hasSuffix("/"))
  }

  /// The entries of the folder at `path`, folders ending in `/`; none when it cannot be read.
  static func entries(of path: String) -> [String] {
    let manager = FileManager.default
    guard let names = try? manager.contentsOfDirectory(atPath: path) else { return [] }
    return names.map { name in
      var isFolder: ObjCBool = false
      let full = path.hasSuffix("/") ? path + name : path + "/" + name
      return manager.fileExists(atPath: full, isDirectory: &isFolder) && isFolder.boolValue
        ? name + "/" : name
    }
  }

  /// The known values of the field compared before `text`'s end that start with `prefix`,
  /// as a filter writes them: texts (in alphabetical order) bare or quoted (only texts, and
  /// quoted, `inQuotes`), then numbers and true/false in their order (`64`, `128`, ...).
  private func valueCandidates(_ text: String, prefix: String, inQuotes: Bool) -> [String] {
    guard let field = subjectOfValue(text) else { return [] }
    let known = values(field)
    let texts = known.compactMap { value -> String? in
      if case .string(let text) = value { text } else { nil }
    }
    let written = matching(texts, prefix).map(inQuotes ? Completer.quoted : Completer.bareOrQuoted)
    guard !inQuotes else { return written }
    let literals = known.compactMap { value -> String? in
      switch value {
      case .int(let n): String(n)
      case .double(let d) where d.isFinite: String(d)
      case .bool(let b): String(b)
      default: nil
      }
    }
    return written + literals.filter { $0.hasPrefix(prefix) }
  }

  /// The field whose value comes next: `color == `, `color in (Starlight, `, `name contains `.
  func subjectOfValue(_ text: String) -> String? {
    var tokens = Completer.tokens(text)
    // Inside `in (a, b, `: back to the parenthesis.
    if let last = tokens.last, last.kind == .comma || last.kind == .leftParen {
      var depth = 0
      while let token = tokens.popLast() {
        if token.kind == .rightParen { depth += 1 }
        if token.kind == .leftParen {
          if depth == 0 { break }
          depth -= 1
        }
      }
    }
    guard let op = tokens.popLast() else { return nil }
    var opKind = op.kind
    if opKind == .modifier, let real = tokens.popLast() { opKind = real.kind }
    guard
      opKind == .in || TokenKind.comparisons.contains(opKind)
        || TextOperator(token: opKind).map(Self.offersValues(after:)) == true
    else { return nil }
    if tokens.last?.kind == .not { tokens.removeLast() }
    // The field: names joined by dots.
    var parts: [String] = []
    while let token = tokens.last, token.kind == .identifier || token.kind == .quotedIdentifier {
      parts.insert(token.kind == .quotedIdentifier ? Name.unquoted(token.text) : token.text, at: 0)
      tokens.removeLast()
      guard tokens.last?.kind == .dot else { break }
      tokens.removeLast()
    }
    return parts.isEmpty ? nil : parts.joined(separator: ".")
  }

  /// The names that start with `prefix` (case aside); a name in backticks also when what is
  /// typed leaves its backtick out (`Prov` offers `` `Province / Territory` ``).
  private func matching(_ names: [String], _ prefix: String) -> [String] {
    let lower = prefix.lowercased()
    var seen: Set<String> = []
    return names.filter { name in
      let candidate = name.lowercased()
      let matches =
        candidate.hasPrefix(lower)
        || (!lower.hasPrefix("`") && candidate.hasPrefix("`")
          && candidate.dropFirst().hasPrefix(lower))
      return matches && seen.insert(name).inserted
    }.sorted()
  }

  /// The position of a backtick still open at the end of `line` (outside strings and
  /// comments): a name in backticks being typed.
  static func openBacktick(_ line: String) -> String.Index? {
    unclosed(line).flatMap { $0.mark == "`" ? $0.at : nil }
  }

  /// The position of a `"` that is still open at the end of `line`.
  private func openQuote(_ line: String) -> String.Index? {
    Completer.unclosed(line).flatMap { $0.mark == "\"" ? $0.at : nil }
  }

  /// The quote (`"`) or backtick still open at the end of `line`, outside comments, and where
  /// it is: a text or a name in backticks being typed. (A backslash escapes inside either.)
  private static func unclosed(_ line: String) -> (mark: Character, at: String.Index)? {
    var open: (mark: Character, at: String.Index)?
    var index = line.startIndex
    while index < line.endIndex {
      let c = line[index]
      if let mark = open?.mark {
        if c == "\\" {
          index = line.index(after: index)
          if index == line.endIndex { break }
        } else if c == mark {
          open = nil
        }
      } else if c == "\"" || c == "`" {
        open = (c, index)
      } else if c == "#" {
        return nil
      }
      index = line.index(after: index)
    }
    return open
  }

  private struct Word {
    var kind: TokenKind
    var text: String
  }

  /// The tokens of `text`, without line breaks.
  private static func tokens(_ text: String) -> [Word] {
    let source = SourceText(text)
    return Lexer.tokenize(source).tokens.filter { $0.kind != .endOfFile && $0.kind != .newline }
      .map { Word(kind: $0.kind, text: source.slice($0.range)) }
  }

  /// The words of the statement so far, lower-cased.
  private static func words(_ text: String) -> [String] {
    tokens(text).map { $0.text.lowercased() }
  }

  /// A value as it is typed: a bare word when the lexer reads it back as one word (not a
  /// keyword such as `and` or `nil`), otherwise a quoted string.
  static func bareOrQuoted(_ value: String) -> String {
    let lexed = Lexer.tokenize(SourceText(value))
    let words = lexed.tokens.filter { $0.kind != .endOfFile }
    let bare =
      lexed.diagnostics.isEmpty && words.count == 1 && words[0].kind == .identifier
      && words[0].range.end - words[0].range.start == value.utf8.count
    return bare ? value : quoted(value)
  }

  /// A value as a string literal, escaped as the printer writes it.
  /// Whether a field's values make sense after `op` (not after `matches`, which takes a
  /// regular expression).
  static func offersValues(after op: TextOperator) -> Bool {
    switch op {
    case .contains, .startsWith, .endsWith, .like: true
    case .matches: false
    }
  }

  static func quoted(_ value: String) -> String {
    Literal.string(value).description
  }
}

extension Completer.Completion {
  init(_ replacing: Int, _ candidates: [String], space: Bool) {
    self.init(replacing: replacing, candidates: candidates, appendsSpace: space)
  }
}
