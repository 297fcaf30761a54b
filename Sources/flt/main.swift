import FilterDSL
for line in CommandLine.arguments.dropFirst() {
  let r = Parser.parseScript(SourceText(line, name: "<arg>"))
  if let s = r.value { print(s.debugDescription); print(s.description) }
  print(r.renderedDiagnostics, terminator: "")
}
