import FilterDSL

/// A problem found while reading data, at a byte offset of the buffer being read. The reader
/// turns it into a ``DataError`` that names the file, line and column.
struct DataProblem: Error {
  var code: DiagnosticCode
  var message: String
  var label: String?
  var help: String?
  /// Where, as an offset into the buffer being parsed.
  var offset: Int
  /// Whether the input ended in the middle of a record: with more input to read, the record
  /// is read again once more bytes have arrived.
  var truncated = false

  static func truncated(_ offset: Int, _ message: String, help: String? = nil) -> DataProblem {
    DataProblem(
      code: .invalidJSON, message: message, help: help, offset: offset, truncated: true)
  }
}

/// A data file that cannot be read as what it claims to be, or a warning about one of its
/// values: a diagnostic with the file's name and the line where it happened.
public struct DataError: ReportableError, CustomStringConvertible, Sendable {
  /// The file, or `<stdin>`.
  public let path: String
  /// The diagnostic; its range points into ``lineText``.
  public var diagnostic: Diagnostic
  /// The line number of the line the diagnostic is on, from 1.
  public let line: Int
  /// That line (cut to at most a few kilobytes).
  public let lineText: String
  /// The column where ``lineText`` begins: 1, or more when the beginning of a very long line
  /// was no longer in memory.
  public var firstColumn = 1

  /// `file:line:column`, the line and a caret, as filter diagnostics are shown.
  public var description: String { placed(colored: false) }

  private func placed(colored: Bool) -> String {
    var renderer = DiagnosticRenderer(
      source: SourceText(lineText, name: path, firstLine: line, firstColumn: firstColumn))
    renderer.colored = colored
    return renderer.render(diagnostic)
  }

  /// What `flt` prints (see ``rendered``), with ANSI colours for a terminal when `colored`.
  public func rendered(colored: Bool) -> String {
    isWholeFile ? "error: \(path): \(diagnostic.message)\n" : placed(colored: colored)
  }

  /// An error about the file as a whole (it cannot be opened, say), with no line to show.
  public static func file(_ path: String, _ message: String) -> DataError {
    DataError(
      path: path,
      diagnostic: Diagnostic(.invalidRecord, at: .empty(at: 0), message: message),
      line: 1, lineText: "")
  }

  /// The error with nothing of the data in it: its code, the file called `name`, the line
  /// and column (for people who may not see the data: ``rendered`` quotes the line, and
  /// messages may quote values).
  public func withoutData(name: String) -> String {
    let source = SourceText(lineText, name: path, firstLine: line, firstColumn: firstColumn)
    let place = source.location(of: diagnostic.range.start)
    let kind = diagnostic.severity == .warning ? "warning" : "error"
    return
      "\(kind)[\(diagnostic.code)]: \(name):\(place.line):\(place.column): the data is not valid here\n"
  }

  /// Whether this is an error about the file as a whole.
  public var isWholeFile: Bool { lineText.isEmpty && diagnostic.code == .invalidRecord }

  /// What `flt` prints.
  public var rendered: String { rendered(colored: false) }
}
