import Foundation

// The `flt` command: filters data files with a query (`flt FILTER FILE`), shows their
// schema, and works on the language itself (`flt check`, `flt parse`, `flt ast`, `flt tokens`).
Allocator.keepFreedMemory()
exit(StandardStreams.finish(Command.run(Array(CommandLine.arguments.dropFirst()))))
