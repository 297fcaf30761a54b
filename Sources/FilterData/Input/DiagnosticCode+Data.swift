import FilterDSL

/// The codes of data-file diagnostics: FLT4xx, owned by the module that raises them.
extension DiagnosticCode {
  /// JSON that is not well formed.
  public static let invalidJSON = DiagnosticCode(401)
  /// CSV that is not well formed (an unterminated quote, a stray quote).
  public static let invalidCSV = DiagnosticCode(402)
  /// A CSV row whose number of fields differs from the header's.
  public static let raggedRow = DiagnosticCode(403)
  /// Bytes that are not UTF-8.
  public static let invalidUTF8 = DiagnosticCode(404)
  /// JSON nested deeper than the reader allows.
  public static let dataTooDeep = DiagnosticCode(405)
  /// A value whose type differs from the one inferred for its column (a warning).
  public static let unexpectedType = DiagnosticCode(406)
  /// A file whose records are not objects, or a format that cannot be read.
  public static let invalidRecord = DiagnosticCode(407)
  /// Two output columns of one name (`--select 'a, b as a'`).
  public static let duplicateColumn = DiagnosticCode(408)

  /// Every data-file code, for documentation and uniqueness tests.
  public static let data: [DiagnosticCode] = [
    invalidJSON, invalidCSV, raggedRow, invalidUTF8, dataTooDeep, unexpectedType, invalidRecord,
    duplicateColumn,
  ]
}
