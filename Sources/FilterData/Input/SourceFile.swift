import FilterDSL
import Foundation

/// Reading `.flt` scripts and other source text from disk.
public enum SourceFile {
  /// The contents of the file at `path` as source text named after the path. `-` reads
  /// standard input.
  public static func read(_ path: String) throws(SourceFileError) -> SourceText {
    let data: Data
    if path == "-" {
      data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw SourceFileError(path: path, reason: "no such file")
      }
      guard !isDirectory.boolValue else {
        throw SourceFileError(path: path, reason: "is a directory, not a file")
      }
      do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
      } catch {
        throw SourceFileError(path: path, reason: "cannot be read (\(error.localizedDescription))")
      }
    }
    let name = path == "-" ? "<stdin>" : path
    let bytes = [UInt8](data)
    if let offset = firstInvalidUTF8(bytes) {
      let (line, column) = position(of: offset, in: bytes)
      throw SourceFileError(
        path: name,
        reason:
          "is not UTF-8 text: invalid byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) at \(line):\(column)"
      )
    }
    return SourceText(String(decoding: bytes, as: UTF8.self), name: name)
  }

  /// The offset of the first byte that is not part of valid UTF-8, if any.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        offset += UTF8.width(scalar)
      case .emptyInput:
        return nil
      case .error:
        return offset
      }
    }
  }

  private static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
    let before = bytes[..<offset]
    let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
    let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
    let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
    return (line, column)
  }
}

/// A source file that could not be read.
public struct SourceFileError: Error, CustomStringConvertible {
  /// The path as given.
  public let path: String
  /// What is wrong, in lower case.
  public let reason: String

  /// `error: PATH: REASON`.
  public var description: String { "error: \(path): \(reason)" }
}
