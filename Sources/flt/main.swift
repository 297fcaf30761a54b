import FilterDSL
import Foundation

// The `flt` command. For now it works on the language itself (format, check, show the tree);
// running filters over data arrives with the engine and the data layer.

let arguments = Array(CommandLine.arguments.dropFirst())
exit(Command.run(arguments))
