import Foundation

/// The files tests write: all in one folder of this test process, removed when the process
/// exits, so a run leaves nothing behind in the temporary folder, and nothing a run before
/// left (a stray `phones.json`) can be read by mistake.
public enum TemporaryFiles {
  /// The folder, made on first use.
  public static let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flt-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { TemporaryFiles.removeFolder() }
    return url
  }()

  /// A path in the folder that no other test uses, ending in `name`.
  public static func url(_ name: String) -> URL {
    folder.appendingPathComponent("\(UUID().uuidString.prefix(8))-\(name)")
  }

  /// Writes `bytes` to a new file whose name ends in `name`.
  public static func write(_ bytes: [UInt8], _ name: String) throws -> URL {
    let url = url(name)
    try Data(bytes).write(to: url)
    return url
  }

  /// Writes `text` to a new file whose name ends in `name`.
  public static func write(_ text: String, _ name: String) throws -> URL {
    try write(Array(text.utf8), name)
  }

  /// A new, empty folder inside the folder.
  public static func makeFolder(_ name: String) throws -> URL {
    let url = url(name)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  private static func removeFolder() {
    try? FileManager.default.removeItem(at: folder)
  }
}
