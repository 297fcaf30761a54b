import FilterDSL

/// A format of data files: its name, the extensions and first bytes that say a file holds it,
/// and how a source reads one.
///
/// The formats flt reads are in one registry (``all``): the command line (`-i`, its help and
/// completion), sessions (`load ... format NAME`, completion after `load`), folders and
/// `flt sql` all read it, and ``FileSource/open(_:format:options:partitions:)`` opens a file
/// by it. A format of your own is one ``register(_:)`` away:
///
/// ```swift
/// DataFormat.register(
///   DataFormat(name: "kv", title: "key=value lines", extensions: ["kv"]) { input in
///     try KeyValueSource(path: input.path)
///   })
/// let cheap = try Scan(file: "prices.kv", query: "price < 100").records()
/// ```
public struct DataFormat: Sendable {
  /// What a format's reader is given.
  public struct Input {
    /// The file's path; nil for standard input (only for a format that ``readsStreams``).
    public var path: String?
    /// How to read it (null texts, fixed types, a CSV's delimiter: what applies).
    public var options: ReadOptions
    /// The fields the hive-style folders the file lies in give its records (`year=2024/`);
    /// a format that cannot add them to its records leaves them out.
    public var partitions: [DataFolder.Partition]
    /// Standard input whose first bytes were read to tell its format (a format of flt's own
    /// reads it from here, those bytes first).
    var bytes: ByteInput? = nil

    /// The file at `path` (standard input for nil), read with `options`, its records given the
    /// fields `partitions`.
    public init(
      path: String?, options: ReadOptions = ReadOptions(), partitions: [DataFolder.Partition] = []
    ) {
      (self.path, self.options, self.partitions) = (path, options, partitions)
    }
  }

  /// Opens a source over a file (or standard input) of the format. An error it throws that
  /// is not a ``DataError`` is made one, naming the file.
  public typealias Opener = @Sendable (Input) throws -> any RecordSource
  /// Opens a folder of the format's files as one source (the folder's path is the name).
  public typealias FolderOpener = @Sendable (DataFolder, _ name: String) throws -> any RecordSource
  /// Makes a sink that writes records of a schema in the format (`-f NAME`).
  public typealias WriterMaker = @Sendable (Schema, OutputSink) throws -> any RecordSink

  /// The name `-i` and `load ... format` take: `jsonl`.
  public let name: String
  /// What the help calls it: `JSON Lines`.
  public let title: String
  /// What the help adds after the title, if anything: `an array of objects`.
  public let details: String?
  /// The extensions that name it, without the dot, lower case (`.gz`, `.zst`, `.xz` and
  /// `.bz2` may follow any of them).
  public let extensions: [String]
  /// The bytes its files begin with (Parquet's `PAR1`), by which a file whose name says
  /// nothing is known; empty for text formats.
  public let magic: [UInt8]
  /// Whether it can be read from standard input (Parquet, whose footer is at the end, cannot).
  public let readsStreams: Bool
  let opener: Opener
  let folderOpener: FolderOpener?
  let writerMaker: WriterMaker?

  /// A format called `name` (what `-i` takes), `title` in the help (with `details` in
  /// parentheses, if given), named by `extensions` (without dots) and known by its first
  /// bytes `magic` (if any), read from standard input unless `readsStreams` is false; a
  /// folder of its files is one source if `openFolder` is given (else such a folder is an
  /// error that says to name the files); written by `-f NAME` if `write` is given.
  public init(
    name: String, title: String, details: String? = nil, extensions: [String],
    magic: [UInt8] = [], readsStreams: Bool = true, openFolder: FolderOpener? = nil,
    write: WriterMaker? = nil, open: @escaping Opener
  ) {
    self.name = name
    self.title = title
    self.details = details
    self.extensions = extensions.map { $0.lowercased() }
    self.magic = magic
    self.readsStreams = readsStreams
    self.opener = open
    self.folderOpener = openFolder
    self.writerMaker = write
  }

  /// Opens `input` as this format; standard input is an error for a format that does not
  /// ``readsStreams``.
  public func open(_ input: Input) throws(DataError) -> any RecordSource {
    guard input.path != nil || readsStreams else {
      throw DataError.file(
        "<stdin>",
        "cannot be read as \(title), which is read from a file, not a stream; save it to a file first"
      )
    }
    return try Self.dataError(naming: input.path ?? "<stdin>") { try opener(input) }
  }

  /// What `body` returns, or its error as a ``DataError`` naming `name`.
  private static func dataError(
    naming name: String, _ body: () throws -> any RecordSource
  ) throws(DataError) -> any RecordSource {
    do {
      return try body()
    } catch let error as DataError {
      throw error
    } catch {
      throw DataError.file(name, "\(error)")
    }
  }

  /// Whether flt writes the format (`-f NAME`).
  public var writes: Bool { writerMaker != nil }

  /// A sink writing records of `schema` to `out` in this format; nil for a format flt does
  /// not write (text formats are written by ``RecordWriter``).
  public func writer(_ schema: Schema, to out: OutputSink) throws -> (any RecordSink)? {
    try writerMaker?(schema, out)
  }

  /// The registered formats flt writes as files of their own (`-f parquet`, `-f arrow`).
  public static var written: [DataFormat] { all.filter(\.writes) }

  /// Whether a folder of its files reads as one source.
  public var readsFolders: Bool { folderOpener != nil }

  /// Opens the files of `folder` (called `name` in messages), every one of this format, as
  /// one source; an error for a format that does not read folders.
  public func open(folder: DataFolder, name: String) throws(DataError) -> any RecordSource {
    guard let folderOpener else {
      throw DataError.file(
        name,
        "is a folder of \(title) files, which flt reads one by one: give them by name (flt QUERY \(name)/*.\(extensions.first ?? name))"
      )
    }
    return try Self.dataError(naming: name) { try folderOpener(folder, name) }
  }

  /// The extensions that say a file is compressed (and is what the name says before them).
  public static let compressionExtensions = ["gz", "zst", "xz", "bz2"]

  /// The registered format a file name's extension says, if any (a compressed file's, before
  /// `.gz`, `.zst`, `.xz`, `.bz2`), in any case; the format registered last wins.
  public init?(path: String) {
    var name = Substring(path)
    for suffix in Self.compressionExtensions where name.lowercased().hasSuffix("." + suffix) {
      name = name.dropLast(suffix.count + 1)
      break
    }
    guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return nil }
    let found = name[name.index(after: dot)...].lowercased()
    guard let format = FormatRegistry.shared.formats.last(where: { $0.extensions.contains(found) })
    else { return nil }
    self = format
  }

  /// The registered format called `name` (what `-i` takes), if any.
  public init?(name: String) {
    guard let format = FormatRegistry.shared.formats.last(where: { $0.name == name }) else {
      return nil
    }
    self = format
  }

  /// The registered format whose magic bytes `first` (a file's first bytes) begins with, if
  /// any.
  public static func sniffed(_ first: some Collection<UInt8>) -> DataFormat? {
    FormatRegistry.shared.formats.last { !$0.magic.isEmpty && first.starts(with: $0.magic) }
  }

  /// The registered format whose magic bytes the file at `path` begins with, if any (nil too
  /// when the file cannot be read: opening it says why).
  public static func sniffed(file path: String) -> DataFormat? {
    guard let first = try? ByteInput(path: path).prefix(16) else { return nil }
    return sniffed(first)
  }

  /// Every registered format: flt's own (JSON, JSON Lines, CSV, TSV, Parquet), then those
  /// registered, in turn.
  public static var all: [DataFormat] { FormatRegistry.shared.formats }

  /// Adds `format` to the registry: files with its extensions or magic bytes are read as it,
  /// and `-i`, `load ... format`, folders, completion and help take it. A format of a name
  /// already registered is replaced; an extension two formats claim is the last one's.
  public static func register(_ format: DataFormat) {
    FormatRegistry.shared.add(format)
  }

  /// The registered extensions, as the messages list them: `.json, .geojson, ...`.
  public static var extensionList: String {
    all.flatMap(\.extensions).map { "." + $0 }.joined(separator: ", ")
  }

  /// The registered formats' names, as the messages list them: `json, jsonl, csv, tsv or
  /// parquet`.
  public static var nameList: String {
    let names = all.map(\.name)
    guard let last = names.last, names.count > 1 else { return names.joined() }
    return names.dropLast().joined(separator: ", ") + " or " + last
  }
}

/// Formats are the same when their names are.
extension DataFormat: Hashable {
  /// Whether `a` and `b` have one name.
  public static func == (a: DataFormat, b: DataFormat) -> Bool { a.name == b.name }
  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// A format is written as its name.
extension DataFormat: CustomStringConvertible {
  /// The format's name.
  public var description: String { name }
}
