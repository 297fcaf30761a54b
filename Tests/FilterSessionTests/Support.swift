import FilterDSL
import FilterData
import Foundation

@testable import FilterSession

/// A session over the example data, printing to memory.
final class SessionHarness {
  let output = OutputSink()
  var warnings = ""
  lazy var session: Session = {
    let session = Session(output: output) { [unowned self] in self.warnings += $0 }
    session.baseDirectory = SessionHarness.examples
    return session
  }()

  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")
    .path

  /// Runs `text` as a script; returns what it printed, or the rendered error.
  @discardableResult
  func run(_ text: String, name: String = "test.flt") -> Result<String, SessionFailure> {
    let before = output.text.count
    do {
      try session.run(SourceText(text, name: name))
      return .success(String(output.text.dropFirst(before)))
    } catch {
      return .failure(SessionFailure(error: error, rendered: error.rendered()))
    }
  }

  /// What `text` printed; the empty string when it failed.
  func printed(_ text: String) -> String {
    (try? run(text).get()) ?? ""
  }

  /// The error `text` fails with.
  func failure(_ text: String) -> SessionFailure? {
    if case .failure(let failure) = run(text) { return failure }
    return nil
  }

  /// A REPL over the session, and what it has reported as errors so far.
  func repl() -> (Repl, () -> String) {
    final class Box: @unchecked Sendable { var text = "" }
    let box = Box()
    let repl = Repl(session: session) { box.text += $0 }
    return (repl, { box.text })
  }
}

struct SessionFailure: Error {
  var error: SessionError
  var rendered: String
  var codes: [DiagnosticCode] { error.diagnostics.map(\.code) }
}
