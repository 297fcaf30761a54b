import FilterDSL
import Foundation

#if canImport(Glibc)
  import Glibc
  private let systemRead = Glibc.read
#elseif canImport(Darwin)
  import Darwin
  private let systemRead = Darwin.read
#endif

/// Reading `.flt` scripts and other source text from disk.
public enum SourceFile {
  /// The contents of the file at `path` as source text named after the path. `-` reads
  /// standard input.
  public static func read(_ path: String) throws(SourceFileError) -> SourceText {
    let name = path == "-" ? "<stdin>" : path
    let bytes: [UInt8]
    if path == "-" {
      bytes = try readLimited(0, name: name)
    } else {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw SourceFileError(path: path, reason: "no such file")
      }
      guard !isDirectory.boolValue else {
        throw SourceFileError(path: path, reason: "is a directory, not a file")
      }
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        let reason = String(cString: strerror(errno))
        throw SourceFileError(path: path, reason: "cannot be read (\(reason))")
      }
      defer { close(fd) }
      bytes = try readLimited(fd, name: name)
    }
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

  /// The most a script may hold: what the parser takes (`ParserLimits.maxSourceBytes`).
  public static let maxBytes = ParserLimits.default.maxSourceBytes

  /// Everything `fd` holds, read with `read(2)` up to ``maxBytes``: more is an error, before
  /// it is all in memory (`/dev/zero` as a script, or a stream that never ends); a closed
  /// standard input, or one that is a directory, is an error to report (Foundation's
  /// `readDataToEndOfFile` traps on both).
  private static func readLimited(_ fd: Int32, name: String) throws(SourceFileError) -> [UInt8] {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return systemRead(fd, base, raw.count)
      }
      if count == 0 { return data }
      if count < 0 {
        if errno == EINTR { continue }
        let reason = String(cString: strerror(errno))
        throw SourceFileError(path: name, reason: "cannot be read (\(reason))")
      }
      data.append(contentsOf: buffer[..<count])
      if data.count > maxBytes {
        throw SourceFileError(
          path: name,
          reason: "is larger than \(maxBytes >> 20) MiB, the most a script may hold")
      }
    }
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
