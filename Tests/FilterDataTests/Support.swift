import FilterDSL
import Foundation
import TestSupport

@testable import FilterData

/// Data files for tests: written to a temporary folder, read back whole.
enum DataFiles {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static func write(_ bytes: [UInt8], _ name: String) throws -> String {
    try TemporaryFiles.write(bytes, name).path
  }

  static func write(_ text: String, _ name: String) throws -> String {
    try write(Array(text.utf8), name)
  }

  /// Everything a reader gives for a file: schema and records, or the error.
  struct Contents: Equatable {
    var schema: Schema
    var values: [[Value]]
    var texts: [[UInt8]]
  }

  static func read(
    _ path: String, format: DataFormat? = nil, blockSize: Int = 4 << 20, inParts: Bool = true
  ) throws(DataError) -> Contents {
    let reader = try DataReader(path: path, format: format, blockSize: blockSize)
    reader.readsInParts = inParts
    var contents = Contents(schema: reader.schema, values: [], texts: [])
    while let block = try reader.next() {
      for record in block {
        contents.values.append(record.values)
        contents.texts.append(Array(record.text))
      }
    }
    return contents
  }

  /// The outcome of reading, as something tests can compare: the contents, or the error's
  /// rendering.
  static func outcome(_ path: String, blockSize: Int, inParts: Bool = true) -> Result<
    Contents, String
  > {
    do {
      return .success(try read(path, blockSize: blockSize, inParts: inParts))
    } catch {
      return .failure(error.description)
    }
  }
}

extension String: @retroactive Error {}
