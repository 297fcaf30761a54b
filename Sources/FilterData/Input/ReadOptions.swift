import FilterDSL

/// How a ``DataReader`` reads values that files spell in many ways: the texts that stand for
/// "no value", and fields whose type the user names instead of leaving it to inference.
public struct ReadOptions: Sendable {
  /// Texts that mean null in every field (`--null NA`), on top of the empty CSV cell.
  public var nullTexts: [String]
  /// Types for fields by name (`--type zip=string`): the field is read as that type whatever
  /// the data holds, and a value that does not convert is null (and counted).
  public var types: [String: ValueType]

  /// For JSON, the keys from the top of the document down to the list of records
  /// (`--root data.items`); empty when the document is the list (or JSON Lines).
  public var root: [String]

  /// For CSV, the byte between cells (`;` from a European spreadsheet, `|`); nil for the
  /// format's own (`,` for CSV, a tab for TSV), or for CSV the one the header uses when it
  /// has no comma and one of `;`, a tab or `|`.
  public var delimiter: UInt8?
  /// For CSV and TSV, whether the first row names the columns (false: it is a record, and
  /// the columns are called `column1`, `column2`, ...).
  public var header: Bool
  /// For CSV and TSV, whether spaces right after a delimiter are skipped (`a, b, "c, d"` is
  /// `a`, `b` and `c, d`, as pandas' `skipinitialspace` reads it) or kept; nil: skipped in
  /// CSV when every delimiter of the header has a space after it.
  public var skipsInitialSpace: Bool?

  /// Options of these values; the defaults read a file as it is.
  public init(
    nullTexts: [String] = [], types: [String: ValueType] = [:], root: [String] = [],
    delimiter: UInt8? = nil, header: Bool = true, skipsInitialSpace: Bool? = nil
  ) {
    self.skipsInitialSpace = skipsInitialSpace
    self.nullTexts = nullTexts
    self.types = types
    self.root = root
    self.delimiter = delimiter
    self.header = header
  }

  /// The delimiter `text` names: one character other than a quote or a line end, or `tab`,
  /// `comma`, `semicolon`, `pipe`; nil for anything else.
  public static func delimiter(named text: String) -> UInt8? {
    let named = ["tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|"]
    let bytes = Array((named[text.lowercased()] ?? text).utf8)
    guard bytes.count == 1, ![0x22, 0x0A, 0x0D].contains(bytes[0]) else { return nil }
    return bytes[0]
  }

  /// What `--spaces` and `load ... spaces` say: `skip` (true) or `keep` (false); nil for
  /// anything else.
  public static func skipsInitialSpace(named text: String) -> Bool? {
    switch text.lowercased() {
    case "skip", "skipped", "yes", "true": true
    case "keep", "kept", "no", "false": false
    default: nil
    }
  }

  /// The delimiters a CSV file's header is sniffed for, after the comma.
  static let sniffedDelimiters: [UInt8] = [0x3B, 0x09, 0x7C]

  /// The texts that commonly stand for "no value" in data files (R's `NA`, spreadsheets'
  /// `#N/A`, `null` written as text). In a field whose other values are numbers, dates or
  /// booleans they are null without asking; in a text field they stay text (`NA` may be
  /// Namibia), unless ``nullTexts`` names them.
  public static let usualNullTexts = ["NA", "N/A", "n/a", "#N/A", "null", "NULL", "NaN", "nan"]

  /// Reads a type's name as `--type` and `load ... type` write it: `int`, `double`, `string`
  /// (or `text`), `bool`, `date`, `datetime`, `time`, `duration`.
  public static func type(named name: String) -> ValueType? {
    switch name.lowercased() {
    // The names here are ``typeSpellings``.
    case "int", "integer": .int
    case "double", "number", "float": .double
    case "decimal", "numeric": .decimal
    case "string", "text": .string
    case "bool", "boolean": .bool
    case "date": .date
    case "datetime", "date-time": .dateTime
    case "time": .time
    case "duration": .duration
    default: nil
    }
  }

  /// Every name ``type(named:)`` reads, for suggestions.
  public static let typeSpellings = [
    "int", "integer", "double", "number", "float", "decimal", "numeric", "string", "text", "bool",
    "boolean", "date", "datetime", "date-time", "time", "duration",
  ]

  /// The names ``type(named:)`` reads, for messages.
  public static let typeNames = "int, double, decimal, string, bool, date, datetime, time, duration"
}

/// The null texts as bytes, to test cells and JSON strings without making strings.
struct NullTexts: Sendable {
  private let usual: [[UInt8]]
  private let named: [[UInt8]]
  /// The texts read as null in every field: those the options name, the file's markers, `\N`
  /// in TSV.
  let namedTexts: [String]

  /// The null texts `options` name, the file's null `markers`, and in a TSV file (`tsv`)
  /// `\N`, as PostgreSQL's `COPY` (and `\copy`) writes null in its text format.
  init(_ options: ReadOptions, markers: Set<String> = [], tsv: Bool = false) {
    usual = ReadOptions.usualNullTexts.map { Array($0.utf8) }
    namedTexts = options.nullTexts + markers.sorted() + (tsv ? ["\\N"] : [])
    named = namedTexts.map { Array($0.utf8) }
  }

  /// Whether the user named any null texts.
  var namesAny: Bool { !named.isEmpty }

  /// Whether `bytes` is one of the usual null texts.
  func isUsual(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    Self.contains(usual, bytes, start, end)
  }

  /// Whether `bytes` is a text the user named as null.
  func isNamed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    !named.isEmpty && Self.contains(named, bytes, start, end)
  }

  private static func contains(
    _ texts: [[UInt8]], _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) -> Bool {
    guard start >= 0, end <= bytes.count, start <= end else { return false }
    let slice = bytes[start..<end]
    return texts.contains { $0.count == slice.count && $0.elementsEqual(slice) }
  }
}
