/// `flt --help-man`: the help as a man page (roff, `man 1`), made from the same parts as
/// `--help` and the same option table, so the two never disagree. `docs/flt.1` is its output
/// (a test keeps it so).
enum Manual {
  static var page: String {
    var out: [String] = [
      #".TH FLT 1 "" "\#(Command.version)" "User Commands""#,
      ".SH NAME",
      #"flt \- filter JSON, JSON Lines, CSV, TSV, Parquet and database records with a declarative query"#,
      ".SH SYNOPSIS",
      ".nf",
    ]
    out += Command.synopsis.split(separator: "\n").map { escape(String($0)) }
    out += [".fi", ".SH DESCRIPTION"]
    out += paragraph(Command.about)
    out.append(".SH OPTIONS")
    for option in Options.table {
      out.append(".TP")
      let value = option.value.map { " " + #"\fI"# + escape($0) + #"\fR"# } ?? ""
      let names =
        (option.short.map { #"\fB"# + escape($0) + #"\fR, "# } ?? "")
        + #"\fB"# + escape(option.long) + #"\fR"#
      out.append(names + value)
      out.append(escape(option.help.joined(separator: " ")))
    }
    out += [".SH EXAMPLES", ".nf"]
    out += Command.examples.split(separator: "\n").map { escape(String($0)) }
    out += [".fi", ".SH EXIT STATUS"]
    out += paragraph(Command.exitStatus)
    out += [
      ".SH ENVIRONMENT",
      ".TP", #"\fBNO_COLOR\fR"#, "when set, --color auto colours nothing",
      ".TP", #"\fBPGPASSWORD\fR, \fBPGHOST\fR, \fBPGUSER\fR, \fBPGDATABASE\fR"#,
      "how a postgresql:// URL without them connects",
      ".TP",
      #"\fBPGSSLMODE\fR, \fBPGSSLROOTCERT\fR, \fBPGSSLCERT\fR, \fBPGSSLKEY\fR, \fBPGCHANNELBINDING\fR"#,
      "TLS to PostgreSQL, as libpq reads them (sslmode prefer unless said; see the README)",
      ".SH SEE ALSO",
      #"The README of the flt project: the language reference, scripts and the REPL."#,
    ]
    return out.joined(separator: "\n") + "\n"
  }

  /// `text`'s lines joined into one filled paragraph.
  private static func paragraph(_ text: String) -> [String] {
    [escape(text.split(separator: "\n").joined(separator: " "))]
  }

  /// Text made safe for roff: backslashes and hyphens escaped, a leading `.` or `'` kept
  /// from being read as a request.
  static func escape(_ text: String) -> String {
    var out = text.hasPrefix(".") || text.hasPrefix("'") ? #"\&"# : ""
    for character in text {
      switch character {
      case "\\": out += #"\e"#
      case "-": out += #"\-"#
      default: out.append(character)
      }
    }
    return out
  }
}
