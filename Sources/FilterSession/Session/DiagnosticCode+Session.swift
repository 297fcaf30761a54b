import FilterDSL

/// The codes of script and session diagnostics: FLT5xx, owned by the module that raises them.
extension DiagnosticCode {
  /// A `load` whose file cannot be read, or whose data is not valid.
  public static let cannotLoad = DiagnosticCode(501)
  /// A `use` of a name that no `load` gave.
  public static let unknownDataset = DiagnosticCode(502)
  /// A statement that needs data before any was loaded.
  public static let noData = DiagnosticCode(503)
  /// A `set` of an unknown setting, or to a value it does not take.
  public static let invalidSetting = DiagnosticCode(504)
  /// A `let` whose name is already a field of the data.
  public static let nameInUse = DiagnosticCode(505)
  /// Named filters that expand to a filter too deep or too large.
  public static let expansionTooLarge = DiagnosticCode(506)
  /// A file that cannot be written (`:save`), or output that failed.
  public static let cannotWrite = DiagnosticCode(507)
  /// A REPL command (`:name`) that does not exist, or is used wrongly.
  public static let invalidCommand = DiagnosticCode(508)
  /// A statement stopped before it finished (Ctrl-C at the REPL); it changed nothing.
  public static let interrupted = DiagnosticCode(509)
  /// A statement on a database table that the database refused, or a connection that broke.
  public static let databaseError = DiagnosticCode(510)
  /// A `load` the session's ``SessionPolicy`` does not allow (a file outside its folder, a
  /// database).
  public static let notAllowed = DiagnosticCode(511)
  /// A statement that went over the session's evaluation limits; it produced nothing.
  public static let overCostLimit = DiagnosticCode(512)
  /// A `load` without `as` of a file whose name another loaded data set has already.
  public static let datasetNameTaken = DiagnosticCode(513)
  /// A `load` stopped because the process went over the session's memory limit (`set
  /// memory`); the data loaded before is kept.
  public static let overMemoryLimit = DiagnosticCode(514)

  /// Every session code, for documentation and uniqueness tests.
  public static let session: [DiagnosticCode] = [
    cannotLoad, unknownDataset, noData, invalidSetting, nameInUse, expansionTooLarge, cannotWrite,
    invalidCommand, interrupted, databaseError, notAllowed, overCostLimit, datasetNameTaken,
    overMemoryLimit,
  ]
}
