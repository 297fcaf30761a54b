import Foundation
import Testing

/// Golden files: expected output kept next to the tests that read it.
///
/// `FLT_RECORD_GOLDEN=1 swift test` rewrites every golden file from the actual output, and the
/// test still fails, so that a recording is always looked at before it is committed.
enum Golden {
  /// The folder holding golden files, next to this source file.
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden")

  static var recording: Bool { ProcessInfo.processInfo.environment["FLT_RECORD_GOLDEN"] == "1" }

  /// The files in `folder` (under ``directory``) with extension `ext`, sorted by name.
  static func inputs(_ folder: String, ext: String) -> [URL] {
    let url = directory.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { $0.hasSuffix("." + ext) }.sorted().map { url.appendingPathComponent($0) }
  }

  static func read(_ url: URL) -> String {
    (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }

  /// Compares `actual` with the golden file at `url`; in record mode, writes it and fails.
  static func check(
    _ actual: String, against url: URL, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if recording {
      try? actual.write(to: url, atomically: true, encoding: .utf8)
      Issue.record(
        "recorded \(url.lastPathComponent); unset FLT_RECORD_GOLDEN and run again",
        sourceLocation: sourceLocation)
      return
    }
    guard FileManager.default.fileExists(atPath: url.path) else {
      Issue.record(
        "missing golden file \(url.path); run with FLT_RECORD_GOLDEN=1 to create it",
        sourceLocation: sourceLocation)
      return
    }
    let expected = read(url)
    #expect(
      actual == expected, "\(url.lastPathComponent) differs from its golden file",
      sourceLocation: sourceLocation)
  }
}

extension Golden {
  /// The bundled example scripts, `examples/*.flt`.
  static var examples: [URL] {
    let folder = directory.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".flt") }.sorted().map { folder.appendingPathComponent($0) }
  }
}
