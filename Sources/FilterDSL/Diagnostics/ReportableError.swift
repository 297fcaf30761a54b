/// An error flt says to a person as it stands: where it is (a diagnostic's file, line and
/// caret, or a data file's line), what went wrong, and what to do.
///
/// Every error the libraries throw at a user's input conforms, so that a program embedding
/// them prints any of them one way:
///
/// ```swift
/// do { try run() } catch let error as any ReportableError {
///   FileHandle.standardError.write(Data(error.rendered(colored: false).utf8))
/// }
/// ```
public protocol ReportableError: Error {
  /// The error as flt prints it: complete lines (each ending in a newline), with ANSI colours
  /// for a terminal when `colored`.
  func rendered(colored: Bool) -> String
}

extension FilterError: ReportableError {}
