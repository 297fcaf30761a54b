import FilterDSL
import FilterData
import FilterDatabase

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The statements that change the session: `load`, `use`, `let`, `set`, `show`.
extension Session {
  /// `load "phones.json" as phones`: reads the whole file; returns the path it resolved and
  /// the data set.
  func load(_ path: Name, as alias: Name?, options: [LoadOption], _ context: Context)
    throws(SessionError) -> (String, Dataset)
  {
    if let table = options.first(where: { $0.name.text == "table" }) {
      guard policy.allowsDatabases else {
        throw context.error(
          Diagnostic(
            .notAllowed, at: path.range, message: "this session may not open databases",
            help: "load a data file instead"))
      }
      return try load(path, table: table, as: alias, options: options, context)
    }
    let resolved = resolve(path.text)
    let isFolder = DataFolder.isFolder(resolved)
    if let folder = policy.loadFolder, isFolder || !FilePaths.isInside(resolved, folder: folder) {
      throw context.error(
        Diagnostic(
          .notAllowed, at: path.range,
          message:
            "this session may not load \"\(path.text)\": it is not a file in its data folder",
          help: "name a file in the session's data folder"))
    }
    let name = alias?.text ?? Dataset.defaultName(for: path.text)
    if alias == nil { try checkNameFree(name, for: resolved, path, context) }
    let (format, read) = try readOptions(options, context)
    if format == nil, !isFolder, DataFormat(path: resolved) == nil,
      FilePaths.canonical(resolved) != nil, DataFormat.sniffed(file: resolved) == nil
    {
      // Said here, in the statement's terms (the reader's own message names a flag).
      let script = resolved.lowercased().hasSuffix(".flt")
      throw context.error(
        Diagnostic(
          .cannotLoad, at: path.range,
          message: script
            ? "\"\(path.text)\" is a script, not data"
            : "cannot tell the format of \"\(path.text)\" from its name",
          help: script
            ? "run a script with :run \(path.text) in the REPL, or flt run \(path.text)"
            : "name it: load \"\(path.text)\" format csv (\(DataFormat.nameList))"))
    }
    let dataset: Dataset
    // The memory the process uses is looked at after each block the load reads.
    var used: Int? = nil
    let limit = settings.memoryLimit
    // Warnings about the data quote it (its lines, its values): withheld when messages may
    // not, and counted instead.
    var withheld = 0
    let quotes = policy.quotesDataValues
    defer {
      if withheld > 0 {
        warn(
          "warning: loading \"\(path.text)\" gave \(withheld) warning\(withheld == 1 ? "" : "s") about its data, not shown here (they quote the data)\n"
        )
      }
    }
    do {
      dataset =
        checkOnly
        ? try Dataset(name: name, schemaOf: resolved, format: format, options: read)
        : try Dataset(
          name: name, path: resolved, format: format, options: read, memoryLimit: limit,
          until: {
            if let resident = ProcessMemory.residentPast(limit) { used = resident }
            return used != nil || interrupted()
          }, warn: { quotes ? self.warn($0) : (withheld += 1) })
    } catch {
      let message = error.isWholeFile ? error.diagnostic.message : "its data is not valid"
      // Where paths start, for a path that names nothing; a file that is there says what is
      // wrong with it in the message (not Parquet, past the memory limit).
      let help =
        !error.isWholeFile
        ? "fix the file where the error above says"
        : access(resolved, F_OK) != 0
          ? "paths are relative to \(baseDirectory.map { "the script's folder (\($0))" } ?? "the current folder")"
          : nil
      throw context.error(
        Diagnostic(
          .cannotLoad, at: path.range, message: "cannot load \"\(path.text)\": \(message)",
          help: help),
        preamble: error.isWholeFile
          ? "" : quotes ? error.description + "\n" : error.withoutData(name: path.text))
    }
    try context.stopIfInterrupted(self)
    if let used, let limit {
      throw context.error(
        Diagnostic(
          .overMemoryLimit, at: path.range,
          message:
            "stopped loading \"\(path.text)\": flt used \(ProcessMemory.describe(used)), over the memory limit of \(ProcessMemory.describe(limit))",
          label: "\(dataset.records?.count ?? 0) records read",
          help:
            "nothing was loaded (the data loaded before is kept); raise the limit (set memory 16GB), or make the file smaller first: flt 'QUERY' \(path.text) -o smaller.jsonl"
        ))
    }
    add(dataset)
    return (resolved, dataset)
  }

  /// A `load` without `as` may replace only data loaded from the same place (loading it
  /// again); data of the same name from elsewhere stays, and the user names the new data.
  private func checkNameFree(
    _ name: String, for location: String, _ path: Name, _ context: Context
  ) throws(SessionError) {
    guard let other = datasets.first(where: { $0.name == name }), other.path != location
    else { return }
    // The name with the first number after it that no data set has: phones2, phones3...
    let taken = Set(datasets.map(\.name))
    let suggestion = (2...).lazy.map { "\(name)\($0)" }.first { !taken.contains($0) } ?? name
    throw context.error(
      Diagnostic(
        .datasetNameTaken, at: path.range,
        message: "data called '\(name)' is loaded already, from \(other.path)",
        label: "this would be '\(name)' too",
        help: "give it another name: load \"\(path.text)\" as \(suggestion)"))
  }

  /// `load "shop.db" table phones` (or a `postgresql://` URL): the table's columns are read;
  /// its rows stay in the database, where the statements on it run.
  private func load(
    _ path: Name, table option: LoadOption, as alias: Name?, options: [LoadOption],
    _ context: Context
  ) throws(SessionError) -> (String, Dataset) {
    guard option.values.count == 1, let table = option.values.first?.text else {
      throw context.error(
        Diagnostic(
          .invalidSetting, at: option.name.range, message: "'table' names one table",
          help: "load \"shop.db\" table phones"))
    }
    if let other = options.first(where: { $0.name.text != "table" }) {
      throw context.error(
        Diagnostic(
          .invalidSetting, at: other.name.range,
          message: "'\(other.name.text)' is an option for data files, not database tables",
          help: "a table's columns have their types already"))
    }
    let isURL = PostgresURL.isURL(path.text)
    let location = isURL ? path.text : resolve(path.text)
    let place = isURL ? "the database" : "\"" + path.text + "\""
    if alias == nil { try checkNameFree(table, for: location, path, context) }
    do {
      let dataset = try Dataset(name: alias?.text ?? table, table: table, in: location)
      add(dataset)
      return (location, dataset)
    } catch {
      throw context.error(
        Diagnostic(
          .cannotLoad, at: path.range,
          message: "cannot load table \(table) of \(place): \(error.message)",
          help: error.help))
    }
  }

  /// What the options of `load` say: `null "NA", "-"`, `type zip=string, score=int`,
  /// `root data.items`, `format tsv`, `delimiter ";"`, `header no`, `spaces skip`.
  func readOptions(_ options: [LoadOption], _ context: Context) throws(SessionError)
    -> (DataFormat?, ReadOptions)
  {
    var format: DataFormat? = nil
    var read = ReadOptions()
    /// The option's one value, as `read` reads it; else FLT504 at the value.
    func value<T>(
      of option: LoadOption, _ read: (String) -> T?, message: String, help: String
    ) throws(SessionError) -> T {
      guard let text = option.values.first?.text, let value = read(text) else {
        throw context.error(
          Diagnostic(
            .invalidSetting, at: option.values.first?.range ?? option.name.range,
            message: message, help: help))
      }
      return value
    }
    for option in options {
      switch option.name.text {
      case "null":
        read.nullTexts += option.values.map(\.text)
      case "type":
        for value in option.values {
          let parts = value.text.split(separator: "=", maxSplits: 1).map(String.init)
          guard parts.count == 2, let type = ReadOptions.type(named: parts[1]) else {
            throw context.error(
              Diagnostic(
                .invalidSetting, at: value.range,
                message: "'\(value.text)' is not a field and a type",
                help:
                  "write type name=type, with a type among \(ReadOptions.typeNames): type zip=string"
              ))
          }
          read.types[parts[0]] = type
        }
      case "root":
        read.root = option.values.first.map { $0.text.split(separator: ".").map(String.init) } ?? []
      case "format":
        let text = option.values.first?.text ?? ""
        format = try value(
          of: option, DataFormat.init(name:), message: "unknown format '\(text)'",
          help: "the formats are \(DataFormat.all.map(\.name).joined(separator: ", "))")
      case "delimiter":
        read.delimiter = try value(
          of: option, ReadOptions.delimiter(named:),
          message: "'\(option.values.first?.text ?? "")' is not a delimiter",
          help: "write one character, or tab: delimiter \";\"")
      case "header":
        read.header = try value(
          of: option,
          {
            ["yes", "true"].contains($0.lowercased())
              ? true : ["no", "none", "false"].contains($0.lowercased()) ? false : nil
          },
          message: "'header' takes yes or no",
          help: "header no: the first row is a record, the columns column1, column2, ...")
      case "spaces":
        read.skipsInitialSpace = try value(
          of: option, ReadOptions.skipsInitialSpace(named:), message: "'spaces' takes skip or keep",
          help: "spaces skip: spaces right after a delimiter are not data")
      default:
        let names = ["null", "type", "root", "format", "table", "delimiter", "header", "spaces"]
        let suggestion = Suggestion.closest(to: option.name.text, among: names)
        throw context.error(
          Diagnostic(
            .invalidSetting, at: option.name.range,
            message: "'load' has no option '\(option.name.text)'",
            help: option.name.text == "as"
              ? "'as NAME' comes right after the path or after the options, once: load \"data.csv\" as d format csv"
              : suggestion.map { "did you mean '\($0)'?" }
                ?? "its options are null, type, root, format, delimiter, header, spaces and table"))
      }
    }
    return (format, read)
  }

  /// The path of a file named in a statement: absolute, or relative to ``baseDirectory``.
  func resolve(_ path: String) -> String {
    guard let base = baseDirectory, !base.isEmpty, !path.hasPrefix("/") else { return path }
    return base.hasSuffix("/") ? base + path : base + "/" + path
  }

  /// `use phones`.
  func use(_ name: Name, _ context: Context) throws(SessionError) {
    guard let dataset = datasets.first(where: { $0.name == name.text }) else {
      let names = datasets.map(\.name)
      let help =
        Suggestion.closest(to: name.text, among: names).map { "did you mean '\($0)'?" }
        ?? (names.isEmpty
          ? "load a file first: load \"\(name.text).json\""
          : "loaded: \(names.joined(separator: ", "))")
      throw context.error(
        Diagnostic(
          .unknownDataset, at: name.range, message: "no data is called '\(name.text)'",
          help: help))
    }
    select(dataset)
  }

  /// `let big = diskSpace >= 256` (a named filter) or `let budget = 1000` (a parameter).
  func define(_ name: Name, _ value: Expr, _ context: Context) throws(SessionError)
    -> StatementResult
  {
    if let current, current.schema.field(named: name.text) != nil {
      throw context.error(
        Diagnostic(
          .nameInUse, at: name.range,
          message: "'\(name.text)' is already a field of \(current.name)",
          label: "a field's name", help: "give the filter a name the data does not use"))
    }
    // A value that reads no field is a parameter, fixed now; a named filter keeps its
    // parameters until it is used.
    // The names it uses are shared, not copied (sixty names for one that doubles seventeen
    // times held sixty copies of its 131,072 nodes: 2.5 GB from 1.2 KB of script).
    var (expr, size) = try expanded(value, context, parameters: false, sharing: true)
    // (As written: a name it uses is a field or a named filter, which reads fields.)
    let isParameter = value.fieldPaths.isEmpty
    if isParameter { (expr, size) = try expanded(expr, context) }
    // A parameter is checked whatever the data; a named filter when there is data to check
    // it against (and again wherever it is used).
    var bound: BoundExpr?
    let check = current.map {
      Definitions.Check(schema: $0.schema, parameters: definitions.parameterTypes)
    }
    if isParameter || current != nil {
      let schema = current?.schema ?? Schema([])
      // The names it uses checked by name, when they were checked against this data: the
      // whole tree otherwise, or when that finds an error (said where it is).
      let environment = FilterEnvironment(
        RecordType.dynamic(schema), parameters: definitions.parameterTypes)
      let skeleton =
        isParameter ? nil : check.flatMap { definitions.skeleton(of: value, checkedAgainst: $0) }
      let byName = skeleton.map {
        FilterEnvironment(RecordType.dynamic(schema), parameters: $0.types).bind($0.expr)
      }
      let checked = byName.flatMap { $0.hasErrors ? nil : $0 } ?? environment.bind(expr)
      if checked.hasErrors {
        // Said where this statement uses the names (the shared parts point where they were
        // written).
        let placed = try expand(value, context, parameters: false)
        throw SessionError(
          source: context.source, diagnostics: environment.bind(placed).diagnostics)
      }
      bound = checked.tree
    }
    var definition = Definitions.Definition(
      value: expr, isParameter: isParameter, type: bound?.type,
      constant: isParameter ? bound?.constantValue : nil, size: size)
    if !isParameter, bound != nil { definition.checked = check }
    define(name.text, definition)
    return .defined(name.text, definition)
  }

  /// `expr` with named filters and parameters expanded, or an error when that makes it too
  /// large.
  func expand(
    _ expr: Expr, _ context: Context, parameters: Bool = true, constants: Bool = true
  ) throws(SessionError) -> Expr {
    try expanded(expr, context, parameters: parameters, constants: constants).expr
  }

  /// `expr` expanded as ``expand(_:_:parameters:constants:)`` does (sharing the definitions
  /// it uses, for a definition), with its size.
  func expanded(
    _ expr: Expr, _ context: Context, parameters: Bool = true, constants: Bool = true,
    sharing: Bool = false
  ) throws(SessionError) -> (expr: Expr, size: (nodes: Int, depth: Int)) {
    let limits = policy.parserLimits
    guard
      let expanded = definitions.expand(
        expr, parameters: parameters, constants: constants, limits: limits, sharing: sharing)
    else {
      let depth = Swift.min(Definitions.maxDepth, limits.effectiveMaxDepth)
      let nodes = Swift.min(Definitions.maxNodes, limits.maxNodes)
      throw context.error(
        Diagnostic(
          .expansionTooLarge, at: expr.range,
          message: "the named filters used here expand to a filter too large to check",
          help:
            "a filter may nest \(depth) levels and hold \(nodes) nodes; use fewer levels of names"
        ))
    }
    return (expanded.expr, (expanded.nodes, expanded.depth))
  }

  /// `set format json`, `set limit 20`, `set time on`, `set width 60`.
  func set(_ name: Name, _ value: Expr, _ context: Context) throws(SessionError) {
    let text: String? =
      if case .literal(.string(let s)) = value.kind { s } else { nil }
    let number: Int64? =
      if case .literal(.int(let n)) = value.kind { n } else { nil }
    func invalid() -> SessionError {
      let setting = Settings.names.first { $0.name == name.text }
      // A misspelt word among the setting's words (`set format tabel`): the likely one.
      let words = (setting?.usage ?? "").split(separator: "|").map(String.init)
        .filter { $0.allSatisfy(\.isLetter) }
      let suggestion = text.flatMap { Suggestion.closest(to: $0, among: words) }
      return context.error(
        Diagnostic(
          .invalidSetting, at: value.range, message: "\(name.text) takes \(setting?.values ?? "")",
          label: "not one of them", help: suggestion.map { "did you mean '\($0)'?" }))
    }
    switch name.text {
    case "format":
      guard let text, let format = OutputFormat(rawValue: text) else {
        throw invalid()
      }
      settings.format = format
    case "limit":
      if let number, number >= 0 {
        settings.limit = Int(clamping: number)
      } else if text == "none" || text == "all" {
        settings.limit = nil
      } else {
        throw invalid()
      }
    case "time":
      guard let on = Session.toggle(value) else { throw invalid() }
      settings.time = on
    case "live":
      guard let on = Session.toggle(value) else { throw invalid() }
      settings.live = on
    case "pager":
      guard let on = Session.toggle(value) else { throw invalid() }
      settings.pager = on
    case "width":
      guard let number, number >= 10 else { throw invalid() }
      settings.width = Int(clamping: number)
    case "null":
      guard case .literal(.string(let text)) = value.kind else { throw invalid() }
      settings.nullText = text
    case "memory":
      let written = text ?? context.source.slice(value.range)
      let limit: Int?
      if written == "none" || written == "off" {
        limit = nil
      } else {
        guard let bytes = ProcessMemory.bytes(in: written) else { throw invalid() }
        limit = bytes
      }
      // A session under fixed limits (untrusted scripts) may lower its memory, not raise it.
      if policy.fixesItsLimits, let current = settings.memoryLimit,
        limit.map({ $0 > current }) ?? true
      {
        throw context.error(
          Diagnostic(
            .invalidSetting, at: value.range,
            message:
              "this session's limits are fixed: memory stays at most \(ProcessMemory.describe(current))",
            label: "more than it may use"))
      }
      settings.memoryLimit = limit
    default:
      let names = Settings.names.map(\.name)
      throw context.error(
        Diagnostic(
          .invalidSetting, at: name.range, message: "there is no setting '\(name.text)'",
          help: Suggestion.closest(to: name.text, among: names).map { "did you mean '\($0)'?" }
            ?? "the settings are \(names.joined(separator: ", "))"))
    }
  }

  /// `on`/`off`, `true`/`false`.
  static func toggle(_ value: Expr) -> Bool? {
    switch value.kind {
    case .literal(.bool(let b)): b
    case .literal(.string("on")): true
    case .literal(.string("off")): false
    default: nil
    }
  }

  /// `show model, price` (columns must be fields of the current data) or `show *`.
  func show(_ fields: [FieldPath], _ context: Context) throws(SessionError) {
    guard !fields.isEmpty else {
      settings.columns = nil
      return
    }
    if let current {
      let environment = FilterEnvironment(RecordType.dynamic(current.schema))
      let diagnostics = fields.flatMap { field in
        environment.bind(Expr(.field(field), range: field.range)).diagnostics
      }
      if diagnostics.hasErrors {
        throw SessionError(
          source: context.source, diagnostics: diagnostics)
      }
    }
    settings.columns = fields.map(\.dotted)
  }
}
