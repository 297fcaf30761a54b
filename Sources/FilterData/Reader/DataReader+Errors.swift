import FilterDSL

/// The reader's warnings and errors: each placed at its line and column, with the line shown
/// (around the place, for a long line), whatever the block size the input was read in.
extension DataReader {
  /// How much of the current line, before the record being read, the buffer keeps, so that an
  /// error shows the same text of a long line whatever the block size.
  static let keptLineBytes = 4096

  /// How much of a long line an error shows on each side of the place it points at.
  static let shownLineBytes = 2048

  /// The number of characters in UTF-8 `bytes`, counted as code points: a fast count, off
  /// only where characters combine.
  static func codePoints(_ bytes: ArraySlice<UInt8>) -> Int {
    var count = 0
    for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
    return count
  }

  /// Warnings about values of fields whose type the user fixed that did not convert: the
  /// first of each field, with its place, since the last call.
  public func takeWarnings() -> [DataError] {
    defer { warnings.removeAll() }
    return warnings
  }

  /// How many values of each field whose type the user fixed did not convert (and are null).
  public var conversionFailures: [String: Int] { growth.failures.mapValues(\.count) }

  /// The counts of ``conversionFailures`` as warnings, one line per field, for the end of a
  /// read: "warning: scores.csv: 2 values of 'n' did not convert to integers and were read as
  /// null".
  public var conversionSummary: [String] {
    conversionFailures.sorted { $0.key < $1.key }.map { field, count in
      let type = options.types[field]?.plural ?? "its type"
      return
        "warning: \(name): \(count) value\(count == 1 ? "" : "s") of '\(field)' did not convert to \(type) and \(count == 1 ? "was" : "were") read as null\n"
    }
  }

  func reportFailures() {
    for value in growth.unreported {
      let field = value.path.joined(separator: ".")
      let type = options.types[field] ?? .null
      let problem = DataProblem(
        code: .unexpectedType,
        message: "'\(field)' holds \(value.found) here, where its type is set to \(type)",
        label: "read as null",
        help: "values of '\(field)' that are not \(type.plural) are null, and counted",
        offset: value.offset)
      warnings.append(
        error(problem, newlines: value.line - line, lineStart: value.lineStart, severity: .warning))
    }
    growth.unreported.removeAll()
  }

  /// The error for `problem`, after reading on to the end of its line (up to a few kilobytes)
  /// so that the error shows the line whole.
  func failure(_ problem: DataProblem, newlines: Int, lineStart: Int) throws(DataError)
    -> DataError
  {
    var problem = problem
    var lineStart = lineStart
    while !atEnd, problem.offset >= 0, problem.offset <= buffer.count,
      !buffer[problem.offset...].contains(0x0A),
      buffer.count - problem.offset < DataReader.shownLineBytes
    {
      let shift = try fill(minimum: 0)
      problem.offset -= shift
      lineStart -= shift
    }
    return error(problem, newlines: newlines, lineStart: lineStart)
  }

  /// The diagnostic for `problem` at the line `newlines` after the current one, which starts
  /// at `start` in the buffer.
  func error(
    _ problem: DataProblem, newlines: Int, lineStart start: Int,
    severity: Diagnostic.Severity = .error
  ) -> DataError {
    let offset = Swift.min(Swift.max(problem.offset, 0), buffer.count)
    let lineBegin = Swift.min(Swift.max(start, 0), offset)
    // A long line is shown around the place: from `shownLineBytes` before it (at a character
    // boundary), with the column where that part begins.
    var from = lineBegin
    var firstColumn = 1
    if start < 0 || offset - lineBegin > DataReader.shownLineBytes {
      from = Swift.max(lineBegin, offset - DataReader.shownLineBytes)
      while from < offset, buffer[from] & 0xC0 == 0x80 { from += 1 }
      firstColumn =
        (start < 0 ? droppedColumns : 0) + DataReader.codePoints(buffer[lineBegin..<from]) + 1
    }
    var lineEnd = offset
    let cap = Swift.min(buffer.count, offset + DataReader.shownLineBytes)
    while lineEnd < cap && buffer[lineEnd] != 0x0A { lineEnd += 1 }
    let text = String(decoding: buffer[from..<lineEnd], as: UTF8.self)
    let column = String(decoding: buffer[from..<offset], as: UTF8.self).utf8.count
    var diagnostic = Diagnostic(
      problem.code, severity, at: SourceRange(start: column, end: column + 1),
      message: problem.message, label: problem.label, help: problem.help)
    if problem.truncated {
      diagnostic.label = problem.label ?? "the input ends here"
    }
    var error = DataError(
      path: name, diagnostic: diagnostic, line: line + newlines, lineText: text)
    error.firstColumn = firstColumn
    return error
  }
}
