import FilterDSL
import Foundation

/// A folder given where a data file goes (`flt -c 'price < 500' sales/`): the data files under
/// it, at any depth, in the order of their paths, read as one input by their format
/// (``DataFormat/open(folder:name:)``: a ``ParquetFolder`` for Parquet files). Names starting
/// with `.` or `_` (`_SUCCESS`, `.crc` files) and files of no registered format are passed
/// over. Folders
/// named `key=value` on the way to a file (hive-style partitions, as Spark, DuckDB and Polars
/// write them: `year=2024/month=3/part-0.parquet`) give each record of a Parquet file under
/// them the field `key` with that value: an integer where every file's value is one, a date
/// where every one is a date, else text (`__HIVE_DEFAULT_PARTITION__` is null).
public struct DataFolder: Sendable {
  /// A data file, and the values of the partitions it lies in.
  public struct File: Sendable {
    /// The file's path (the folder's, then the file's under it).
    public var path: String
    /// The fields its folders give, in the order they were first met.
    public var partitions: [Partition]
  }

  /// A field a folder's name gives the records under it.
  public struct Partition: Sendable, Equatable {
    /// The field's name: `year` in `year=2024`.
    public var name: String
    /// Its value under this folder (null where a file lies under no such folder).
    public var value: Value
    /// Its type, from its values in every file.
    public var type: ValueType
  }

  /// The data files, in the order of their paths.
  public let files: [File]

  /// Whether `path` names a folder.
  public static func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }

  /// The data files under the folder at `path`; an error when it holds none.
  public init(_ path: String) throws(DataError) {
    guard let enumerator = FileManager.default.enumerator(atPath: path) else {
      throw DataError.file(path, "cannot be read as a folder")
    }
    var found: [(path: String, segments: [(String, String)])] = []
    while let next = enumerator.nextObject() as? String {
      let parts = next.split(separator: "/").map(String.init)
      guard let name = parts.last else { continue }
      if name.hasPrefix(".") || name.hasPrefix("_") {
        enumerator.skipDescendants()
        continue
      }
      let full = (path.hasSuffix("/") ? path : path + "/") + next
      guard DataFormat(path: name) != nil, !Self.isFolder(full) else { continue }
      let segments = parts.dropLast().compactMap { part -> (String, String)? in
        guard let equals = part.firstIndex(of: "="), equals != part.startIndex else { return nil }
        let value = String(part[part.index(after: equals)...])
        return (String(part[..<equals]), value.removingPercentEncoding ?? value)
      }
      found.append((full, segments))
    }
    guard !found.isEmpty else {
      throw DataError.file(
        path, "is a folder with no data files (\(DataFormat.extensionList)) in it")
    }
    found.sort { $0.path < $1.path }
    // Each partition's type, from its values in every file.
    var names: [String] = []
    var texts: [String: [String]] = [:]
    for file in found {
      for (name, value) in file.segments {
        if texts[name] == nil { names.append(name) }
        texts[name, default: []].append(value)
      }
    }
    let types = texts.mapValues(Self.type)
    files = found.map { file in
      File(
        path: file.path,
        partitions: names.map { name in
          let type = types[name] ?? .string
          let text = file.segments.last { $0.0 == name }?.1
          return Partition(
            name: name, value: text.map { Self.value($0, type) } ?? .null, type: type)
        })
    }
  }

  private static let nullText = "__HIVE_DEFAULT_PARTITION__"

  /// The type every one of `texts` is written in (nulls aside).
  private static func type(_ texts: [String]) -> ValueType {
    let values = texts.filter { $0 != nullText }
    if values.allSatisfy({ Int64($0) != nil }) { return .int }
    if values.allSatisfy({ date($0) != nil }) { return .date }
    return .string
  }

  private static func value(_ text: String, _ type: ValueType) -> Value {
    guard text != nullText else { return .null }
    switch type {
    case .int: return Int64(text).map(Value.int) ?? .null
    case .date: return date(text).map(Value.date) ?? .null
    default: return .string(text)
    }
  }

  /// The day `text` spells (`2024-03-01`, as filters write dates), or nil.
  private static func date(_ text: String) -> CalendarDate? {
    guard case .date(let day)? = Value.isoDate(Array(text.utf8)) else { return nil }
    return day
  }
}
