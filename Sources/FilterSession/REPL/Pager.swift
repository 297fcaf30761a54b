import FilterDSL
import FilterData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Results taller than the screen, shown through a pager as psql does: `$PAGER` when it is
/// set, else `less` (quitting at once when the text fits after all, keeping colours, not
/// wrapping long lines, leaving the text on the screen afterwards).
package enum Pager {
  /// The command the pager runs with, or nil for none: `$PAGER` (empty means none), else
  /// `less -FRSX` when `less` is on the `PATH`.
  package static func command(environment: [String: String]) -> String? {
    if let pager = environment["PAGER"] {
      return pager.trimmingSpaces.isEmpty ? nil : pager
    }
    let path = environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") where access("\(folder)/less", X_OK) == 0 {
      return "less -FRSX"
    }
    return nil
  }

  /// How many terminal rows `text` takes on a screen `columns` wide: each line at least one,
  /// long lines as many as they wrap to. Colour escapes take no room.
  package static func rows(of text: String, columns: Int) -> Int {
    let columns = Swift.max(1, columns)
    var rows = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      let width = DisplayWidth.of(withoutEscapes(line))
      rows += Swift.max(1, (width + columns - 1) / columns)
    }
    return rows
  }

  /// `line` without its ANSI escape sequences (`ESC [ ... letter`).
  static func withoutEscapes(_ line: Substring) -> String {
    guard line.contains("\u{1B}") else { return String(line) }
    var text = ""
    var inEscape = false
    for scalar in line.unicodeScalars {
      if inEscape {
        if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
      } else if scalar == "\u{1B}" {
        inEscape = true
      } else {
        text.unicodeScalars.append(scalar)
      }
    }
    return text
  }

  /// Runs `command` with `/bin/sh -c` and writes `text` to its standard input, waiting until
  /// it ends. False when it could not be started (the caller prints the text itself). A pager
  /// quit before reading everything is no error: the rest is dropped.
  package static func show(_ text: String, command: String) -> Bool {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { return false }
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    let arguments = ["/bin/sh", "-c", command]
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
    close(pipeEnds[0])
    guard spawned == 0 else {
      close(pipeEnds[1])
      return false
    }
    // A pager quit early closes the pipe: the write fails instead of killing the REPL.
    let previous = signal(SIGPIPE, SIG_IGN)
    _ = Descriptor.write(Array(text.utf8), to: pipeEnds[1])
    close(pipeEnds[1])
    signal(SIGPIPE, previous)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return true
  }
}
