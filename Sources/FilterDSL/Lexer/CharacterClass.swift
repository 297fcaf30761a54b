/// Byte classes for the lexer, one table look-up per byte.
struct CharacterClass: OptionSet {
  let rawValue: UInt8

  static let identifierStart = CharacterClass(rawValue: 1)
  static let identifierPart = CharacterClass(rawValue: 2)
  static let digit = CharacterClass(rawValue: 4)
  static let hexDigit = CharacterClass(rawValue: 8)
  static let space = CharacterClass(rawValue: 16)

  /// The class of every byte value. Bytes of 0x80 and above are classified by decoding the
  /// scalar they start (see `Lexer.scalarClass`).
  static let table: [CharacterClass] = (0...255).map { (value: Int) -> CharacterClass in
    let byte = UInt8(value)
    var c: CharacterClass = []
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "_"):
      c = [.identifierStart, .identifierPart]
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      c = [.identifierPart, .digit, .hexDigit]
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
      c = .space
    default:
      break
    }
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
      c.insert(.hexDigit)
    default:
      break
    }
    return c
  }
}
