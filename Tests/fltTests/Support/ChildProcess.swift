import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A program the tests run (the `flt` binary, `tmux`, `pgrep`), started with `posix_spawn`
/// and waited for with `waitpid`, every wait with a deadline.
///
/// Not Foundation's `Process`: on Linux it learns that a child ended when a socket that the
/// child inherits closes, so a child that starts a daemon (`tmux new-session` starting the tmux
/// server) never ends for it, and `waitUntilExit()` waits forever (seen in CI: the suite hung
/// until it was killed). Here the pipes are close-on-exec in this process, both output pipes
/// are read on threads of their own (a child filling its stderr pipe cannot block it), and a
/// child still running at its deadline is killed and reported, never waited for forever.
///
/// Standard input belongs to one thread at a time: the test's, or the writer that `run` starts.
final class ChildProcess: @unchecked Sendable {
  struct Result {
    /// The exit status, or 128 + the signal's number when a signal ended the program.
    var status: Int32
    var stdout: Data
    var stderr: Data
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let command: String
  let pid: pid_t
  let stdout: Collector
  let stderr: Collector
  private var input: Int32
  private var reaped = false

  /// Starts `arguments[0]` (a path) with the rest as its arguments, in `directory`.
  init(_ arguments: [String], in directory: String? = nil) throws {
    _ = ChildProcess.ignoreBrokenPipes
    var command = arguments
    if let directory { command = ["/usr/bin/env", "--chdir=\(directory)", "--"] + command }
    self.command = arguments.joined(separator: " ")

    // Pipes made and the child spawned under one lock, so that no other child started by a
    // test inherits these pipes in the moment before they are marked close-on-exec.
    ChildProcess.spawning.lock()
    defer { ChildProcess.spawning.unlock() }
    let toChild = try ChildProcess.makePipe()
    let fromChild = try ChildProcess.makePipe()
    let errorsFromChild = try ChildProcess.makePipe()

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errorsFromChild[1], 2)

    // The child starts with no signal blocked and the usual handlers, whatever this thread has.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var reset = sigset_t()
    sigemptyset(&reset)
    for signal in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGTSTP] {
      sigaddset(&reset, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &reset)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let environment = ChildProcess.environment.map { strdup($0) } + [nil]
    defer { environment.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, command[0], &actions, &attributes, argv, environment)
    close(toChild[0])
    close(fromChild[1])
    close(errorsFromChild[1])
    guard spawned == 0 else {
      [toChild[1], fromChild[0], errorsFromChild[0]].forEach { _ = close($0) }
      throw Failure(
        description: "cannot start \(command[0]): \(String(cString: strerror(spawned)))")
    }
    self.pid = pid
    input = toChild[1]
    stdout = Collector(fromChild[0])
    stderr = Collector(errorsFromChild[0])
  }

  /// This process's environment, except that under `swift test --enable-code-coverage` a
  /// child writes its coverage to a file of its own in `codecov/children/`: children that
  /// tests kill by a signal can leave a corrupt file, and SwiftPM's merge of `codecov/` fails
  /// on one (`.ci/coverage` merges the children's, skipping the corrupt ones).
  static let environment: [String] = {
    var variables: [String] = []
    var index = 0
    while let entry = environ[index] {
      variables.append(String(cString: entry))
      index += 1
    }
    return variables.map { variable in
      guard variable.hasPrefix("LLVM_PROFILE_FILE="), let slash = variable.lastIndex(of: "/")
      else { return variable }
      let folder = String(variable[...slash].dropFirst("LLVM_PROFILE_FILE=".count)) + "children"
      mkdir(folder, 0o755)
      return "LLVM_PROFILE_FILE=" + folder + "/flt-%p.profraw"
    }
  }()

  deinit {
    closeInput()
    // A child left running by a failed test is not left behind.
    if !reaped {
      kill(pid, SIGKILL)
      waitpid(pid, nil, 0)
    }
  }

  /// Writes `bytes` to the child's standard input (quietly dropped once the child has gone).
  func send(_ bytes: some Collection<UInt8>) {
    var rest = Array(bytes)[...]
    while !rest.isEmpty, input >= 0 {
      let written = rest.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      rest = rest.dropFirst(written)
    }
  }

  /// Ends the child's standard input.
  func closeInput() {
    if input >= 0 { close(input) }
    input = -1
  }

  /// Waits for the child to end and for its output to close; a child still running after
  /// `timeout` seconds is killed and the wait throws. Standard input is left as it is: close it
  /// first when the child reads to its end.
  func wait(timeout: Double) throws -> Result {
    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while true {
      let ended = waitpid(pid, &status, WNOHANG)
      if ended == pid {
        reaped = true
        break
      }
      if ended < 0 && errno != EINTR {
        throw Failure(description: "waitpid: \(String(cString: strerror(errno)))")
      }
      if Date() > deadline {
        kill(pid, SIGKILL)
        waitpid(pid, nil, 0)
        reaped = true
        throw Failure(description: "`\(command)` did not finish within \(timeout) s; it was killed")
      }
      usleep(2_000)
    }
    // A grandchild that kept a pipe open must not hang the test either.
    guard let out = stdout.all(before: .now() + 10), let err = stderr.all(before: .now() + 10)
    else { throw Failure(description: "`\(command)` ended but its output stayed open") }
    let signal = status & 0x7f
    return Result(
      status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, stdout: out, stderr: err)
  }

  /// Runs a program to its end: `stdin` in, its output and status out.
  static func run(
    _ arguments: [String], in directory: String? = nil, stdin: String = "", timeout: Double = 120
  ) throws -> Result {
    try run(arguments, in: directory, input: Array(stdin.utf8), timeout: timeout)
  }

  /// Runs a program to its end: the bytes `input` in (binary data too), its output and
  /// status out.
  static func run(
    _ arguments: [String], in directory: String? = nil, input bytes: [UInt8],
    timeout: Double = 120
  ) throws -> Result {
    let child = try ChildProcess(arguments, in: directory)
    // Written on a thread of its own: a child that writes much before it reads cannot block us.
    Thread { [child] in
      child.send(bytes)
      child.closeInput()
    }.start()
    return try child.wait(timeout: timeout)
  }

  private static let spawning = NSLock()

  /// A pipe whose two ends are closed when this process starts another program.
  private static func makePipe() throws -> [Int32] {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
    }
    ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
    return ends
  }

  /// Writing to a child that has ended must be an error here, not a signal that ends the tests.
  private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

  /// Reads a pipe to its end on a thread of its own.
  final class Collector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let first = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init(_ descriptor: Int32) {
      Thread { [self] in
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var signalled = false
        while true {
          let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
          if count < 0 && errno == EINTR { continue }
          guard count > 0 else { break }
          lock.withLock { data.append(contentsOf: buffer[..<count]) }
          if !signalled {
            signalled = true
            first.signal()
          }
        }
        close(descriptor)
        if !signalled { first.signal() }
        done.signal()
      }.start()
    }

    /// What has arrived once something has (or the pipe closed); nil if nothing by `deadline`.
    func some(before deadline: DispatchTime) -> Data? {
      guard first.wait(timeout: deadline) == .success else { return nil }
      first.signal()
      return lock.withLock { data }
    }

    /// Everything, once the pipe has closed; nil if it is still open at `deadline`.
    func all(before deadline: DispatchTime) -> Data? {
      guard done.wait(timeout: deadline) == .success else { return nil }
      done.signal()
      return lock.withLock { data }
    }
  }
}
