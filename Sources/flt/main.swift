import FilterDSL
import Foundation

// The `flt` command. For now it works on the language itself (check, print canonical text or
// the syntax tree);
// running filters over data arrives with the engine and the data layer.

let arguments = Array(CommandLine.arguments.dropFirst())
exit(Command.run(arguments))
