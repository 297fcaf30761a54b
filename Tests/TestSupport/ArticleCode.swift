import Foundation

/// The code of a DocC catalog's articles, held to a test file: every line of their `swift`
/// code blocks must be a line of the test (spaces around it aside), so the articles show
/// only code that a test compiles and checks.
public enum ArticleCode {
  /// The package's folder.
  public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The lines of code in the articles of `catalog` (relative to the package), and those of
  /// them that `testFile` (a `#filePath`) does not have, each with its article.
  public static func lines(of catalog: String, missingFrom testFile: String) throws -> (
    quoted: Int, missing: [String]
  ) {
    let folder = root.appendingPathComponent(catalog)
    let lines = Set(
      try String(contentsOfFile: testFile, encoding: .utf8).split(separator: "\n").map {
        $0.trimmingCharacters(in: .whitespaces)
      })
    var (quoted, missing) = (0, [String]())
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    where name.hasSuffix(".md") {
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      var inSwift = false
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("```") {
          inSwift = !inSwift && trimmed == "```swift"
          continue
        }
        guard inSwift, !trimmed.isEmpty else { continue }
        quoted += 1
        if !lines.contains(trimmed) { missing.append("\(name): \(trimmed)") }
      }
    }
    return (quoted, missing)
  }
}
