/// What a writer of a typed file format (Parquet, Arrow) could not write as it was, counted
/// as it writes and said once it is done: values written as null because they did not fit
/// their field's type, exact decimals written as text, times cut to the microsecond.
struct WrittenValues {
  var unstorable = 0
  var decimalsAsText = 0
  var cutTimes = 0

  /// The warnings, as complete lines, for a file of `format` (`Parquet`), whose decimals
  /// are not written yet as `decimals` says (`Parquet's DECIMAL`).
  func warnings(format: String, decimals: String) -> [String] {
    var lines: [String] = []
    if unstorable > 0 {
      lines.append(
        "warning: \(unstorable) value\(unstorable == 1 ? "" : "s") did not fit the type of \(unstorable == 1 ? "its" : "their") field and \(unstorable == 1 ? "was" : "were") written to \(format) as null\n"
      )
    }
    if decimalsAsText > 0 {
      lines.append(
        "warning: \(decimalsAsText) exact decimal\(decimalsAsText == 1 ? " was" : "s were") written to \(format) as text, digits kept (flt does not write \(decimals) yet)\n"
      )
    }
    if cutTimes > 0 {
      lines.append(
        "warning: \(cutTimes) time\(cutTimes == 1 ? "" : "s") had fractions finer than a microsecond, cut to the microsecond in \(format)\n"
      )
    }
    return lines
  }
}
