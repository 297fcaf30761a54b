import FilterData

/// One option of the one-shot command, as `--help`, the man page and the shell completions
/// show it. ``Options/parse(_:)`` gives it its meaning; ``Options/table`` is the one list of
/// them (a test checks that every entry parses and that nothing else does).
struct OptionSpec {
  /// `-c`, or nil.
  let short: String?
  /// `--count`.
  let long: String
  /// The value's name (`FORMAT`), or nil when the option takes none.
  let value: String?
  /// What it does, in lines of at most 62 characters.
  let help: [String]
  /// What a shell offers for the value.
  var completes = Completes.nothing

  /// What a shell offers after an option.
  enum Completes {
    case nothing
    case files
    case words([String])
  }

  /// The names, as `--help` shows them: `-c, --count` or `    --root`.
  var names: String { (short.map { $0 + ", " } ?? "    ") + long }
}

extension Options {
  /// Every option of `flt [options] FILTER [FILE...]`, in the order `--help` lists them.
  static let table: [OptionSpec] = [
    OptionSpec(
      short: "-c", long: "--count", value: nil,
      help: ["print the number of matching records instead of them"]),
    OptionSpec(
      short: nil, long: "--stats", value: "AGGREGATES",
      help: [
        "print aggregates of the matches instead of them:",
        "--stats 'count(), mean(price), max(price) by color'",
        "(FILTER may be left out, or written after where)",
      ]),
    OptionSpec(
      short: nil, long: "--facets", value: "F1,F2,...",
      help: [
        "print each field's values and their counts among the matches",
        "(disjunctive: a field's own condition in FILTER does not narrow",
        "its counts): --facets color,diskSpace 'color == Gold and price < 900'",
      ]),
    OptionSpec(
      short: "-s", long: "--select", value: "F1,F2,...",
      help: ["print only these fields, in this order"]),
    OptionSpec(
      short: "-f", long: "--format", value: "FORMAT",
      help: [
        "table, records (a field a line), json, jsonl, csv, tsv, values,",
        "sql, \(DataFormat.written.map(\.name).joined(separator: ", ")) (default: table on a terminal, jsonl otherwise)",
      ],
      completes: .words(Options.outputFormats)),
    OptionSpec(
      short: "-r", long: "--raw", value: nil,
      help: [
        "-f values: the values alone, as jq -r writes them (no header,",
        "no quotes; fields separated by tabs): flt -r -s model ...",
      ]),
    OptionSpec(
      short: "-o", long: "--output", value: "FILE",
      help: [
        "write to FILE, replacing it only if the run succeeds (never a SQLite database)"
      ], completes: .files),
    OptionSpec(
      short: "-i", long: "--input-format", value: "FORMAT",
      help: ["\(DataFormat.nameList), whatever the file is called"],
      completes: .words(DataFormat.all.map(\.name))),
    OptionSpec(
      short: nil, long: "--root", value: "KEY.KEY...",
      help: [
        "read the records from the list at these keys of a JSON",
        "document (an API response: --root data.items)",
      ]),
    OptionSpec(
      short: nil, long: "--null", value: "TEXT",
      help: [
        "read TEXT as null in every field (NA, N/A, null, NaN and",
        "#N/A are null anyway where a field's other values are not",
        "text)",
      ]),
    OptionSpec(
      short: nil, long: "--delimiter", value: "CHAR",
      help: [
        "for CSV, the character between cells (';', '|', tab); by",
        "default ',', or the one a header without commas uses",
      ]),
    OptionSpec(
      short: nil, long: "--spaces", value: "skip|keep",
      help: [
        "for CSV and TSV, spaces right after a delimiter: skipped",
        "(a, \"b, c\" is a and b, c) or kept; by default skipped in",
        "CSV when every comma of the header has a space after it",
      ]),
    OptionSpec(
      short: nil, long: "--no-header", value: nil,
      help: [
        "for CSV and TSV, the first row is a record: the columns are",
        "column1, column2, ...",
      ]),
    OptionSpec(
      short: "-t", long: "--type", value: "NAME=TYPE",
      help: [
        "read field NAME as TYPE (int, double, decimal, string, bool,",
        "date, datetime, time, duration); values that do not convert are null",
      ]),
    OptionSpec(
      short: "-p", long: "--param", value: "NAME=VALUE",
      help: [
        "bind $NAME in the filter (numbers, true/false, dates, text);",
        "with run and repl, over the script's own let NAME = ...",
      ]),
    OptionSpec(
      short: nil, long: "--filter-file", value: "FILE",
      help: [
        "read the query from FILE (several lines, # comments); every",
        "other argument is a data file (jq's -f; here -f is --format)",
      ],
      completes: .files),
    OptionSpec(
      short: "-e", long: "--exit-status", value: nil,
      help: ["exit with 1 when nothing matched"]),
    OptionSpec(
      short: "-q", long: "--quiet", value: nil,
      help: ["print nothing; exit with 0 at the first match, 1 if none", "(as grep -q)"]),
    OptionSpec(
      short: "-H", long: "--with-filename", value: nil,
      help: [
        "show the file each record came from (FILE: before a JSON",
        "line, a first column in tables and CSV); with -c, a count",
        "per file; a limit is per file (grep -m)",
      ]),
    OptionSpec(
      short: nil, long: "--explain", value: nil,
      help: ["print the compiled strategy chain and stop"]),
    OptionSpec(
      short: nil, long: "--check", value: nil,
      help: ["check the filter against the data's fields and stop"]),
    OptionSpec(
      short: nil, long: "--schema", value: nil,
      help: ["print the fields inferred from the data and stop"]),
    OptionSpec(
      short: nil, long: "--table", value: "NAME",
      help: ["the table of a database FILE to query (or to create with", "-f sql)"]),
    OptionSpec(
      short: nil, long: "--dialect", value: "DIALECT",
      help: ["with -f sql: the SQL to write, sqlite or postgresql"],
      completes: .words(["sqlite", "postgresql"])),
    OptionSpec(
      short: nil, long: "--collate-c", value: nil,
      help: [
        "with -f sql --dialect postgresql: text columns COLLATE \"C\",",
        "so a shard compares and sorts them as flt does",
      ]),
    OptionSpec(
      short: nil, long: "--color", value: "WHEN",
      help: [
        "colour tables and diagnostics: auto (on a terminal, unless",
        "NO_COLOR is set), always or never",
      ],
      completes: .words(["auto", "always", "never"])),
    OptionSpec(
      short: nil, long: "--max-memory", value: "SIZE",
      help: [
        "stop when flt uses more memory than this (4GB, 512MB, 2GiB, or",
        "none; default: three quarters of the machine's)",
      ]),
    OptionSpec(
      short: nil, long: "--progress", value: nil,
      help: ["show progress on standard error even when it is not a", "terminal"]),
    OptionSpec(
      short: nil, long: "--no-progress", value: nil,
      help: ["never show progress on standard error"]),
    OptionSpec(
      short: nil, long: "--completions", value: "SHELL",
      help: ["print a completion script for bash, zsh or fish"],
      completes: .words(["bash", "zsh", "fish"])),
    OptionSpec(
      short: nil, long: "--help-man", value: nil,
      help: ["print this help as a man page (roff)"]),
    OptionSpec(short: "-h", long: "--help", value: nil, help: ["this text"]),
    OptionSpec(short: "-V", long: "--version", value: nil, help: ["the version"]),
  ]

  /// The options followed by a value (as a separate argument, or after `=`).
  static let takingValues: Set<String> = Set(
    table.filter { $0.value != nil }.flatMap { [$0.long] + ($0.short.map { [$0] } ?? []) }
      + ["--colour"])

  /// The options as `--help` lists them: names and value in 26 columns, then the help.
  static var helpText: String {
    table.map { option in
      let head = "  " + option.names + (option.value.map { " " + $0 } ?? "")
      let pad = String(repeating: " ", count: Swift.max(1, 28 - head.count))
      var lines = [head + pad + (option.help.first ?? "")]
      for more in option.help.dropFirst() {
        lines.append(String(repeating: " ", count: 28) + more)
      }
      return lines.joined(separator: "\n")
    }.joined(separator: "\n")
  }
}
