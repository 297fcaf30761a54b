import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The options of the one-shot command `flt [options] FILTER [FILE...]`.
struct Options {
  var filter: String?
  /// `--filter-file FILE`: the file the filter is read from (every positional argument is
  /// then a data file).
  var filterFile: String?
  /// The filter's name in messages: `<query>`, or the file it was read from.
  var filterName = "<query>"
  var files: [String] = []
  var count = false
  /// `--stats TEXT`: aggregates of the matches (`mean(price) by color`), printed instead.
  var stats: String?
  /// `--facets F1,F2`: each field's values and their counts among the matches, printed instead.
  var facets: String?
  var select: [String]?
  /// `--select` as written: names, or computed columns (`price - discount as net`).
  var selectText: String?
  var format: OutputFormat?
  var output: String?
  var inputFormat: DataFormat?
  /// `--null TEXT` and `--type NAME=TYPE`: how the data's values are read.
  var read = ReadOptions()
  var schema = false
  var explain = false
  var check = false
  var parameters: [ParameterValue.Binding] = []
  var exitStatus = false
  /// `-q`, `--quiet`: print nothing (no records, no warnings); the exit status says whether
  /// anything matched, and reading stops at the first match (as `grep -q`).
  var quiet = false
  /// `-H`, `--with-filename`: each record with the file it came from, and with `--count` a
  /// count per file (as `grep -H`).
  var withFileName = false
  /// `--color auto|always|never`: tables and diagnostics in colour.
  var color = ColorChoice.auto
  var help = false
  var version = false
  /// `--help-man`: the help as a man page.
  var manual = false
  /// `--completions SHELL`: a completion script for the shell.
  var completions: String?
  var progress: Bool?
  /// `--max-memory SIZE|none`: the most memory a run may use (as a session's `set memory`).
  var memoryLimit: Int? = ProcessMemory.defaultLimit
  /// `--table NAME`: the table to query when the data is a database, or to create with
  /// `--format sql`.
  var table: String?
  /// `--format sql`: records as a SQL script in `--dialect`.
  var sqlScript = false
  /// `--format parquet`, `arrow`, ...: records as a file of a registered format flt writes.
  var fileFormat: DataFormat?
  var dialect: SQLDialect?
  /// `--collate-c`: the script's text columns `COLLATE "C"` (PostgreSQL).
  var collateC = false

  /// The value of `--max-memory` (one-shot and sessions): a size with its unit, or `none`.
  static func memory(_ text: String?, _ option: String) throws(UsageError) -> String {
    guard let text, text == "none" || ProcessMemory.bytes(in: text) != nil else {
      throw UsageError(message: "\(option) needs a size with its unit (4GB, 512MB, 2GiB) or none")
    }
    return text
  }

  /// `--color`'s value.
  static func color(_ text: String) throws(UsageError) -> ColorChoice {
    guard let choice = ColorChoice(rawValue: text) else {
      throw UsageError(message: "--color takes auto, always or never, not '\(text)'")
    }
    return choice
  }

  /// A command line that cannot be understood: what is wrong, for `flt: error: ...`.
  struct UsageError: Error {
    var message: String
  }

  /// Reads `arguments` (without the program name). Options may come before, between or
  /// after the filter and files; `--` ends them; `--name=value` and `--name value` both work.
  /// What `-f` takes: the text formats, `sql`, and the registered formats flt writes as
  /// files (`parquet`, `arrow`, `arrows`).
  static var outputFormats: [String] {
    OutputFormat.allCases.map(\.rawValue) + ["sql"] + DataFormat.written.map(\.name)
  }

  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var positional: [String] = []
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      if argument == "--" {
        positional += rest
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        positional.append(argument)
        continue
      }
      var name = argument
      var attached: String? = nil
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        attached = String(argument[argument.index(after: equals)...])
      }
      func value() throws(UsageError) -> String {
        if let attached { return attached }
        guard let next = rest.popFirst() else {
          throw UsageError(message: "\(name) needs a value")
        }
        return next
      }
      func noValue() throws(UsageError) {
        if attached != nil { throw UsageError(message: "\(name) takes no value") }
      }
      switch name {
      case "-c", "--count":
        try noValue()
        options.count = true
      case "--stats":
        options.stats = try value()
      case "--facets":
        options.facets = try value()
      case "-s", "--select":
        let text = try value()
        let fields = text.split(separator: ",").map {
          $0.trimmingCharacters(in: " ")
        }
        guard !fields.isEmpty, !fields.contains("") else {
          throw UsageError(
            message: "--select needs field names separated by commas, as in --select model,price")
        }
        options.select = fields
        options.selectText = text
      case "-f", "--format":
        let text = try value()
        // (The last -f given is the one that counts.)
        options.sqlScript = text == "sql"
        options.fileFormat = nil
        if options.sqlScript {
          options.format = nil
          continue
        }
        if let format = OutputFormat(rawValue: text) {
          options.format = format
          continue
        }
        guard let file = DataFormat(name: text), file.writes else {
          throw UsageError(
            message:
              "unknown output format '\(text)'; use one of \(Self.outputFormats.joined(separator: ", "))"
          )
        }
        (options.fileFormat, options.format) = (file, nil)
      case "-r", "--raw":
        try noValue()
        (options.sqlScript, options.fileFormat) = (false, nil)
        options.format = .values
      case "--dialect":
        let text = try value()
        guard let dialect = SQLDialect(rawValue: text) else {
          throw UsageError(message: "unknown dialect '\(text)'; use postgresql or sqlite")
        }
        options.dialect = dialect
      case "-o", "--output":
        options.output = try value()
      case "-i", "--input-format":
        let text = try value()
        guard let format = DataFormat(name: text) else {
          throw UsageError(
            message: "unknown input format '\(text)'; use \(DataFormat.nameList)")
        }
        options.inputFormat = format
      case "--max-memory":
        options.memoryLimit = ProcessMemory.bytes(in: try Options.memory(try value(), name))
      case "--root":
        let text = try value()
        let keys = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.contains("") else {
          throw UsageError(message: "--root needs keys separated by dots, as in --root data.items")
        }
        options.read.root = keys
      case "--null":
        options.read.nullTexts.append(try value())
      case "--delimiter":
        let text = try value()
        guard let delimiter = ReadOptions.delimiter(named: text) else {
          throw UsageError(
            message:
              "--delimiter \(text): the delimiter is one character other than a quote or a line end, as in --delimiter ';' or --delimiter tab"
          )
        }
        options.read.delimiter = delimiter
      case "--spaces":
        let text = try value()
        guard let skips = ReadOptions.skipsInitialSpace(named: text) else {
          throw UsageError(
            message: "--spaces \(text): say skip (spaces after a delimiter are not data) or keep")
        }
        options.read.skipsInitialSpace = skips
      case "--collate-c":
        try noValue()
        options.collateC = true
      case "--no-header":
        try noValue()
        options.read.header = false
      case "-t", "--type":
        let text = try value()
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty else {
          throw UsageError(message: "--type needs name=type, as in --type zip=string")
        }
        guard let type = ReadOptions.type(named: parts[1]) else {
          let suggestion = Suggestion.closest(to: parts[1], among: ReadOptions.typeSpellings)
          throw UsageError(
            message: "--type \(text): unknown type '\(parts[1])'"
              + (suggestion.map { "; did you mean \($0)?" } ?? "")
              + " (the types are \(ReadOptions.typeNames))")
        }
        guard options.read.types[parts[0]] == nil else {
          throw UsageError(message: "--type \(parts[0]) is given twice; give each field one type")
        }
        options.read.types[parts[0]] = type
      case "--schema":
        try noValue()
        options.schema = true
      case "--explain":
        try noValue()
        options.explain = true
      case "--check":
        try noValue()
        options.check = true
      case "-p", "--param":
        options.parameters.append(try ParameterValue.binding(try value()))
      case "-e", "--exit-status":
        try noValue()
        options.exitStatus = true
      case "-q", "--quiet":
        try noValue()
        (options.quiet, options.exitStatus) = (true, true)
      case "-H", "--with-filename":
        try noValue()
        options.withFileName = true
      case "--progress", "--no-progress":
        try noValue()
        options.progress = name == "--progress"
      case "--table":
        options.table = try value()
      case "--filter-file":
        options.filterFile = try value()
      case "--color", "--colour":
        options.color = try Options.color(try value())
      case "-h", "--help":
        options.help = true
      case "--help-man":
        try noValue()
        options.manual = true
      case "--completions":
        let shell = try value()
        guard ["bash", "zsh", "fish"].contains(shell) else {
          throw UsageError(message: "--completions takes bash, zsh or fish, not '\(shell)'")
        }
        options.completions = shell
      case "-V", "--version":
        options.version = true
      default:
        let known = Options.table.map(\.long)
        let suggestion = Suggestion.closest(to: name, among: known).map { "; did you mean \($0)?" }
        throw UsageError(message: "unknown option \(name)\(suggestion ?? "")")
      }
    }
    if options.sqlScript && options.dialect == nil {
      throw UsageError(
        message: "--format sql needs --dialect sqlite or --dialect postgresql")
    }
    if options.collateC && !(options.sqlScript && options.dialect == .postgresql) {
      throw UsageError(
        message:
          "--collate-c declares the text columns of a PostgreSQL script; use it with -f sql --dialect postgresql"
      )
    }
    if options.quiet && (options.count || options.output != nil) {
      throw UsageError(
        message:
          "--quiet prints nothing and writes nothing; leave out \(options.count ? "--count" : "--output")"
      )
    }
    if options.withFileName
      && (options.sqlScript || options.fileFormat != nil || options.format == .json)
    {
      let format =
        options.sqlScript
        ? "a SQL script"
        : options.fileFormat.map {
          ("AEIOU".contains($0.title.prefix(1)) ? "an " : "a ") + "\($0.title) file"
        }
          ?? "a JSON array"
      throw UsageError(
        message:
          "--with-filename writes each record after its file; \(format) has no place for it: use --format jsonl, csv, tsv, table or records"
      )
    }
    if let summary = options.stats != nil ? "--stats" : options.facets != nil ? "--facets" : nil {
      let other: String? =
        options.stats != nil && options.facets != nil
        ? "one of --stats and --facets"
        : options.count
          ? "--count"
          : options.select != nil
            ? "--select"
            : options.sqlScript
              ? "--format sql"
              : options.withFileName
                ? "--with-filename" : options.quiet ? "--quiet" : nil
      if let other {
        throw UsageError(
          message: "\(summary) prints rows of its own, not the records; leave out \(other)")
      }
    }
    if options.filterFile == "-" && positional.isEmpty {
      throw UsageError(
        message:
          "--filter-file - reads the filter from standard input, so the data needs a FILE")
    }
    if options.schema || options.filterFile != nil
      || (options.stats != nil || options.facets != nil || options.select != nil
        || options.count) && positional.first.map(Options.namesFile) == true
    {
      // (--stats, --facets, --select and --count may leave the filter out, for every record:
      // a first argument that names a file is data.)
      options.files = positional
    } else if let first = positional.first {
      options.filter = first
      options.files = Array(positional.dropFirst())
    }
    return options
  }
}

extension Options {
  /// What `--help`, `--version`, `--help-man` or `--completions SHELL` asks to print instead
  /// of running a query; nil when none does.
  var printout: String? {
    if help { return Command.usage }
    if version { return Command.version }
    if manual { return Manual.page }
    return completions.map(Completions.script(for:))
  }

  /// Whether `argument` names an input: a file or folder that exists, or a PostgreSQL URL.
  static func namesFile(_ argument: String) -> Bool {
    PostgresURL.isURL(argument) || access(argument, F_OK) == 0
  }

  /// Whether `argument` names a script rather than being a filter: `p.flt`, not `x == "a.flt"`.
  static func isScript(_ argument: String?) -> Bool {
    guard let argument else { return false }
    return argument.hasSuffix(".flt") && !argument.contains(" ") && !argument.contains("\"")
  }

  /// The first argument that is not an option or an option's value.
  static func firstOperand(_ arguments: [String]) -> String? {
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      if argument == "--" { return rest.first }
      guard argument.hasPrefix("-"), argument != "-" else { return argument }
      if Options.takingValues.contains(argument) { _ = rest.popFirst() }
    }
    return nil
  }
}

/// `--param` values, read as the filter language reads a value after an operator: numbers,
/// `true`/`false`/`null`, dates, date-times, durations (`7d`), lists (`(Starlight, Gold)`),
/// quoted or bare text, and (for scripts, where parameters are named values) ranges. Words
/// that do not read as one value are taken as they are (`--param name=Space Black`).
enum ParameterValue {
  /// A parameter given on the command line: `$name` is `value`, a constant expression.
  typealias Binding = (name: String, value: Expr)

  /// `NAME=VALUE` (or `$NAME=VALUE`) as a parameter's name and value.
  static func binding(_ text: String) throws(Options.UsageError) -> ParameterValue.Binding {
    let equals = text.firstIndex(of: "=") ?? text.startIndex
    var name = text[..<equals]
    if name.hasPrefix("$") { name.removeFirst() }
    guard !name.isEmpty else {
      throw Options.UsageError(message: "--param needs name=value, as in --param budget=1000")
    }
    // A name is what the lexer reads as one parameter after `$`.
    let lexed = Lexer.tokenize(SourceText("$" + name))
    guard lexed.diagnostics.isEmpty, lexed.tokens.first?.kind == .parameter,
      lexed.tokens.first?.range.end == name.utf8.count + 1
    else {
      throw Options.UsageError(
        message: "--param \(text): '\(name)' is not a name (use letters, digits and _)")
    }
    return (String(name), try parse(String(text[text.index(after: equals)...]), name: name))
  }

  /// `text` as the language reads a value, or the text itself when it does not read as one
  /// and starts with a word (`Space Black`). Text that starts as a value would (a number, a
  /// quote, a list, a sign) but is not one value (`1000 2000`, `(1, 2`) is an error: taken as
  /// text, it met a comparison with a number as a type error far from its cause.
  static func parse(_ text: String, name: Substring) throws(Options.UsageError) -> Expr {
    let parsed = Parser.parseValue(SourceText(text, name: "--param"))
    if let expr = parsed.value, !parsed.hasErrors { return expr }
    let first = Lexer.tokenize(SourceText(text)).tokens.first?.kind
    guard first == nil || first == .identifier || first == .endOfFile else {
      let quoted = String(text.flatMap { $0 == "\"" ? ["\\", "\""] : [$0] })
      let reason = parsed.diagnostics.first?.message ?? "it is not one value"
      throw Options.UsageError(
        message:
          "--param \(name)=\(text) is not one value (\(reason)); to pass it as text, quote it: --param '\(name)=\"\(quoted)\"'"
      )
    }
    return Expr(.literal(.string(text)))
  }

  /// The types and values of a filter's parameters given with `--param`.
  static func typed(_ bindings: [Binding]) throws(ScanError) -> (
    types: [String: ValueType], values: [String: Value]
  ) {
    var types: [String: ValueType] = [:]
    var values: [String: Value] = [:]
    for (name, expr) in bindings {
      guard let (value, type) = constant(expr) else {
        throw ScanError(
          message:
            "--param \(name)=\(expr): a filter's parameter is one value or a list of values; a range works in scripts (let \(name) = \(expr)), or write the range in the filter"
        )
      }
      types[name] = type
      values[name] = value
    }
    return (types, values)
  }

  /// The value and type of a constant expression: literals, lists of them, arithmetic on
  /// them (folded by the checker).
  static func constant(_ expr: Expr) -> (value: Value, type: ValueType)? {
    guard let bound = FilterEnvironment(RecordType<Void>([])).bind(expr).tree,
      let value = bound.constantValue
    else { return nil }
    return (value, bound.type)
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: Character) -> String {
    var text = self
    while text.first == set { text.removeFirst() }
    while text.last == set { text.removeLast() }
    return String(text)
  }
}
