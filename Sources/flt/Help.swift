import FilterData

/// What `flt --help` and `flt help` print, and the man page's sections.
extension Command {
  static let version = "flt 0.3.0"

  /// The forms of the command, each with what it does.
  static let synopsis = """
    flt [options] FILTER [FILE...]   print the records of FILE that match FILTER
    flt [run] SCRIPT.flt [-p N=V]   run a script's statements
    flt repl [-p N=V] [FILE...]     statements typed one at a time (flt alone, too)
    flt --schema FILE...            print the fields inferred from FILE
    flt check FILE.flt...           check scripts against the data they load, running
                                    nothing; print nothing when they are fine
    flt parse [--tree] FILE.flt...  print scripts in canonical form (or as syntax trees)
    flt ast QUERY | flt tokens QUERY
    flt sql [--dialect D] [--table NAME] [--format text|json] [--inline] QUERY FILE|DATABASE
                                    print the SQL a query runs as (PostgreSQL, SQLite)
    """

  /// What FILTER and FILE are (the file formats from their registry, ``DataFormat/all``).
  static let about =
    wrapped(
      """
      FILTER is a query: a filter, then optionally order by, limit and offset; or, with \
      --filter-file FILE, the query is read from FILE (jq's -f; here -f is --format).
      """)
    + "\n"
    + wrapped(
      "FILE is \(fileFormats), by its extension (else its first bytes), compressed too "
        + "(\(DataFormat.compressionExtensions.map { "." + $0 }.joined(separator: ", "))); "
          + """
          or a database with --table NAME, where the query runs: a SQLite file (.db, .sqlite, \
          .sqlite3) or postgresql://user[:password]@host[:port]/database (PGPASSWORD too); with \
          no FILE, or -, records are read from standard input ('[' starts JSON, '{' JSON Lines, \
          a binary format that reads streams by its first bytes, anything else CSV, or TSV when \
          the header has tabs and no commas, unless -i says).
          """)

  /// The registered formats, each with what it is and its extensions: `JSON (an array of
  /// objects; .json, .geojson), ... or Parquet (...)`.
  private static var fileFormats: String {
    let each = DataFormat.all.map { format in
      let extensions = format.extensions.map { "." + $0 }.joined(separator: ", ")
      return "\(format.title) (\(format.details.map { $0 + "; " } ?? "")\(extensions))"
    }
    guard let last = each.last, each.count > 1 else { return each.joined() }
    return each.dropLast().joined(separator: ", ") + " or " + last
  }

  /// `text` broken into lines of at most 88 characters, between words.
  static func wrapped(_ text: String, width: Int = 88) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines.joined(separator: "\n")
  }

  static let examples = """
    flt 'color in (Starlight, "Space Black") and diskSpace >= 256' examples/phones.json
    flt 'price < $budget order by price desc limit 5' -p budget=1000 examples/phones.csv
    flt --count 'tags contains "5G"' examples/phones.json
    flt --select model,price --format csv 'camera.megapixels >= 48' examples/phones.json
    cat phones.jsonl | flt 'diskSpace >= 512' > big.jsonl
    """

  static let exitStatus = """
    0 on success (whether or not anything matched); 1 with -e or -q when nothing
    matched; 2 on a usage error, a filter error, a data error or a file that cannot be read
    or written. Results go to standard output, errors and warnings to standard error.
    """

  /// What `--help` prints: the parts above, and the options of ``Options/table``.
  static var usage: String {
    func indented(_ text: String, _ first: String, _ rest: String) -> String {
      text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
        ($0.offset == 0 ? first : rest) + $0.element
      }.joined(separator: "\n")
    }
    return [
      indented(synopsis, "usage: ", "       "), "", about, "", "options:", Options.helpText, "",
      "examples:", indented(examples, "  ", "  "), "", "exit status: " + exitStatus,
    ].joined(separator: "\n")
  }
}
