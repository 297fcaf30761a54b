// libFuzzer harness for the REPL's input side: any bytes a terminal (or a paste) may send,
// decoded into keys and applied to the line editor, whose line is drawn and coloured after
// each key. A sequence split anywhere decodes to the same keys; the cursor stays on the line;
// what is drawn fits the width; the colouring has one kind per character. Never a trap.
// Build and run with `Fuzz/run keys`.

public func fuzzKeys(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let first = bytes.first else { return 0 }
  // The same bytes at once, in two reads cut anywhere, and a byte at a time.
  var whole = KeyDecoder()
  let keys = whole.feed(bytes) + whole.flush()
  let cut = Int(first) % (bytes.count + 1)
  var halves = KeyDecoder()
  let split = halves.feed(bytes[..<cut]) + halves.feed(bytes[cut...]) + halves.flush()
  var single = KeyDecoder()
  var one: [Key] = []
  for byte in bytes { one += single.feed(CollectionOfOne(byte)) }
  one += single.flush()
  // (A lone ESC flushed mid-way would differ; bytes given together never are flushed apart.)
  if keys != split { fatalError("keys differ when the bytes come in two reads cut at \(cut)") }
  if keys != one { fatalError("keys differ when the bytes come one at a time") }
  var editor = LineEditor(history: ["count", "price > 1000", "let big = diskSpace >= 256"])
  let highlighter = Highlighter(names: ["price", "model", "tags"])
  let columns = 4 + Int(bytes.last ?? 0) % 100
  for key in keys {
    _ = editor.handle(key)
    guard (0...editor.characters.count).contains(editor.cursor) else {
      fatalError("the cursor \(editor.cursor) is off a line of \(editor.characters.count)")
    }
    let (range, after) = editor.visibleRange(columns: columns)
    let widths = editor.characters[range].map(DisplayWidth.of)
    if widths.reduce(0, +) > columns || after < 0 { fatalError("the drawn line is too wide") }
    let kinds = highlighter.kinds(of: editor.characters)
    if kinds.count != editor.characters.count {
      fatalError("\(kinds.count) colours for \(editor.characters.count) characters")
    }
  }
  return 0
}
