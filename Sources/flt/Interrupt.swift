import Dispatch
import FilterDatabase

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-C while a statement runs in a database.
enum Interrupt {
  /// From now until the returned source is cancelled, SIGINT cancels the statement running
  /// on `database` (which then fails) instead of ending the process at once.
  static func cancels(_ database: any SQLConnection) -> any DispatchSourceSignal {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler {
      Command.writeError("interrupted\n")
      database.interrupt()
    }
    source.resume()
    return source
  }
}
