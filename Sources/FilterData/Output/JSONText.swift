/// Writing JSON text: quoted strings, and records re-emitted without their whitespace.
enum JSONText {
  /// Appends `text` as a JSON string, escaping quotes, backslashes and control characters.
  static func appendQuoted(_ text: String.UTF8View, to out: inout [UInt8]) {
    out.append(0x22)
    // (Over the text's bytes in place where it has them: the generic scan of the view took
    // a tenth of writing a million short rows.)
    let copied =
      text.withContiguousStorageIfAvailable { bytes -> Bool in
        guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
          return false
        }
        out.append(contentsOf: bytes)
        return true
      } ?? false
    if copied {
      out.append(0x22)
      return
    }
    for byte in text {
      switch byte {
      case 0x22: out.append(contentsOf: [0x5C, 0x22])
      case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case ..<0x20:
        out.append(contentsOf: Array("\\u00".utf8))
        out.append(hexDigit(byte >> 4))
        out.append(hexDigit(byte & 0xF))
      default: out.append(byte)
      }
    }
    out.append(0x22)
  }

  private static func hexDigit(_ n: UInt8) -> UInt8 {
    n < 10 ? 0x30 + n : 0x61 + n - 10
  }

  /// Appends well-formed JSON `text` without the whitespace outside its strings: a record as
  /// it was written, on one line, every value byte for byte.
  static func appendCompact(_ text: ArraySlice<UInt8>, to out: inout [UInt8]) {
    forEachCompactRun(text) { out.append(contentsOf: $0) }
  }

  /// Calls `body` with the runs of `text` between its whitespace outside strings, in order:
  /// ``appendCompact(_:to:)`` without gathering them (a long record is written as it goes).
  static func forEachCompactRun(_ text: ArraySlice<UInt8>, _ body: (ArraySlice<UInt8>) -> Void) {
    // Runs between the whitespace, not byte by byte.
    var runStart = text.startIndex
    var inString = false
    var index = text.startIndex
    while index < text.endIndex {
      let byte = text[index]
      if inString {
        if byte == 0x5C {
          index += 1
        } else if byte == 0x22 {
          inString = false
        }
      } else if byte == 0x22 {
        inString = true
      } else if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
        if runStart < index { body(text[runStart..<index]) }
        runStart = index + 1
      }
      index += 1
    }
    let end = Swift.min(index, text.endIndex)
    if runStart < end { body(text[runStart..<end]) }
  }
}
