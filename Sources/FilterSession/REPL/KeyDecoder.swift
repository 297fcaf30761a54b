/// A key the line editor understands.
package enum Key: Hashable, Sendable {
  /// Text typed (a whole UTF-8 character).
  case text(String)
  case enter, tab, backspace, delete
  case left, right, up, down, home, end
  case wordLeft, wordRight
  /// Ctrl-K, Ctrl-U, Ctrl-W: delete to the end, to the start, the word before the cursor.
  case killToEnd, killToStart, killWordBefore
  /// Ctrl-C.
  case interrupt
  /// Ctrl-D.
  case endOfInput
  /// Ctrl-L.
  case clearScreen
  /// Ctrl-R: search the history backwards.
  case reverseSearch
  /// Ctrl-G: leave a search, as the line was.
  case abort
  /// A sequence the editor does not use.
  case ignored
}

/// Turns the bytes a terminal sends in raw mode into keys: control characters, escape
/// sequences (`ESC [ D`, `ESC [ 1 ; 5 C`, `ESC O H`, `ESC b`...) and UTF-8 characters. Feed it
/// bytes as they arrive; a sequence split across reads is completed by the next bytes.
package struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  package init() {}

  /// The keys completed by `bytes`.
  package mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    while !pending.isEmpty {
      guard let (key, length) = KeyDecoder.decode(pending[...]) else { break }
      keys.append(key)
      pending.removeFirst(length)
    }
    return keys
  }

  /// Completes a lone `ESC` left waiting for more bytes (a press of Escape itself).
  package mutating func flush() -> [Key] {
    defer { pending.removeAll() }
    return pending.isEmpty ? [] : [.ignored]
  }

  /// The key at the start of `bytes` and its length; nil when more bytes are needed.
  static func decode(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    guard let first = bytes.first else { return nil }
    switch first {
    case 0x1B: return escape(bytes)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x01: return (.home, 1)
    case 0x05: return (.end, 1)
    case 0x02: return (.left, 1)
    case 0x06: return (.right, 1)
    case 0x10: return (.up, 1)
    case 0x0E: return (.down, 1)
    case 0x0B: return (.killToEnd, 1)
    case 0x15: return (.killToStart, 1)
    case 0x17: return (.killWordBefore, 1)
    case 0x03: return (.interrupt, 1)
    case 0x04: return (.endOfInput, 1)
    case 0x0C: return (.clearScreen, 1)
    case 0x12: return (.reverseSearch, 1)
    case 0x07: return (.abort, 1)
    case ..<0x20: return (.ignored, 1)
    default: return character(bytes)
    }
  }

  /// One UTF-8 character; an invalid byte is ignored.
  private static func character(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    let first = bytes[bytes.startIndex]
    let length: Int
    switch first {
    case ..<0x80: length = 1
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return (.ignored, 1)
    }
    guard bytes.count >= length else { return nil }
    let slice = bytes.prefix(length)
    guard slice.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }) else { return (.ignored, 1) }
    return (.text(String(decoding: slice, as: UTF8.self)), length)
  }

  /// `ESC x` (Alt-x), `ESC [ ... final` (CSI) and `ESC O x` (SS3).
  private static func escape(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return nil }
    let second = bytes[start + 1]
    switch second {
    case 0x62: return (.wordLeft, 2)  // ESC b
    case 0x66: return (.wordRight, 2)  // ESC f
    case 0x7F, 0x08: return (.killWordBefore, 2)  // Alt-Backspace
    case 0x4F:  // ESC O x
      guard bytes.count >= 3 else { return nil }
      let keys: [UInt8: Key] = [
        0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end,
      ]
      return (keys[bytes[start + 2]] ?? .ignored, 3)
    case 0x5B:  // ESC [ parameters final
      var i = start + 2
      while i < bytes.endIndex, (0x30...0x3F).contains(bytes[i]) {
        i += 1
        // No terminal sends parameters this long: dropped as far as here, wherever the
        // reads were cut (dropping what had come so far made keys depend on the cuts).
        if i - start - 2 > 32 { return (.ignored, i - start) }
      }
      guard i < bytes.endIndex else { return nil }
      let parameters = String(decoding: bytes[(start + 2)..<i], as: UTF8.self)
      return (csi(parameters, final: bytes[i]), i - start + 1)
    default:
      return (.ignored, 2)
    }
  }

  private static func csi(_ parameters: String, final: UInt8) -> Key {
    // A modifier (`1;5` is Ctrl, `1;3` Alt) turns the arrows into word jumps.
    let modified = parameters.contains(";")
    switch final {
    case 0x41: return .up
    case 0x42: return .down
    case 0x43: return modified ? .wordRight : .right
    case 0x44: return modified ? .wordLeft : .left
    case 0x48: return .home
    case 0x46: return .end
    case 0x7E:
      switch parameters {
      case "1", "7": return .home
      case "4", "8": return .end
      case "3": return .delete
      default: return .ignored
      }
    default: return .ignored
    }
  }
}
