/// A problem found in a filter, query or script: what is wrong, where, and how to fix it.
///
/// Diagnostics are values; ``DiagnosticRenderer`` turns them into text. Each kind of problem
/// has one factory method (see `Diagnostic+Lexical.swift` and `Diagnostic+Syntax.swift`), so the
/// wording of a message lives in one place and tests can assert its exact text.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  /// How serious a diagnostic is.
  public enum Severity: String, Hashable, Sendable {
    /// The input cannot be used.
    case error
    /// The input can be used, but probably does not mean what was intended.
    case warning
  }

  /// Extra information attached to a diagnostic, optionally pointing at another place.
  public struct Note: Hashable, Sendable {
    /// The text of the note.
    public var message: String
    /// The place it refers to, if any.
    public var range: SourceRange?

    /// A note saying `message`, pointing at `range` when given.
    public init(_ message: String, at range: SourceRange? = nil) {
      self.message = message
      self.range = range
    }
  }

  /// The stable code, such as `FLT203`.
  public var code: DiagnosticCode
  /// Error or warning.
  public var severity: Severity
  /// The bytes the diagnostic is about.
  public var range: SourceRange
  /// What is wrong, in lower case, user text quoted.
  public var message: String
  /// A short text shown after the caret run, if any.
  public var label: String?
  /// Further places and facts.
  public var notes: [Note]
  /// How to fix it, when a fix is likely.
  public var help: String?

  /// A diagnostic with code `code` at `range`. Prefer the factories, one per code, which word the
  /// message.
  public init(
    _ code: DiagnosticCode, _ severity: Severity = .error, at range: SourceRange,
    message: String, label: String? = nil, notes: [Note] = [], help: String? = nil
  ) {
    self.code = code
    self.severity = severity
    self.range = range
    self.message = message
    self.label = label
    self.notes = notes
    self.help = help
  }

  /// Whether this is an error (and not a warning).
  public var isError: Bool { severity == .error }

  /// The diagnostic as one line of text with its byte range, then its notes and help
  /// (`error[FLT301]: unknown field 'colr' at bytes 0..<4`). Without its source a diagnostic
  /// cannot say line and column: render it with ``DiagnosticRenderer`` (or print the
  /// ``FilterError`` that carries it) for the line and a caret.
  public var description: String {
    var out = "\(severity.rawValue)[\(code)]: \(message) at bytes \(range)"
    for note in notes { out += "\n  = note: \(note.message)" }
    if let help { out += "\n  = help: \(help)" }
    return out
  }
}

extension Array where Element == Diagnostic {
  /// Whether any of the diagnostics is an error.
  public var hasErrors: Bool { contains { $0.isError } }

  /// The diagnostics in source order (stable for equal positions).
  public func sortedByPosition() -> [Diagnostic] {
    enumerated().sorted { a, b in
      (a.element.range.start, a.offset) < (b.element.range.start, b.offset)
    }.map(\.element)
  }
}

/// Quotes user text for a message: `'text'` (or between `mark`s), with control characters
/// escaped so that a diagnostic can never carry terminal escape sequences, and long text
/// shortened. Every name or value from a filter or from data goes through here.
package func quoted(_ text: String, limit: Int = 40, mark: String = "'") -> String {
  var out = mark
  var count = 0
  for scalar in text.unicodeScalars {
    if count == limit {
      out += "…"
      break
    }
    count += 1
    switch scalar {
    case "\n": out += "\\n"
    case "\t": out += "\\t"
    case "\r": out += "\\r"
    default:
      if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + mark
}
