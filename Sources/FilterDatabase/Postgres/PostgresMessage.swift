/// Messages of PostgreSQL's frontend/backend protocol, version 3: the ones a client sends,
/// built byte by byte, and a reader for the fields of the ones it receives.
enum PostgresMessage {
  /// A message of `type` with `body`: the type byte, then the length (itself included).
  static func frame(_ type: UInt8?, _ body: [UInt8]) -> [UInt8] {
    var out: [UInt8] = type.map { [$0] } ?? []
    out += int32(Int32(truncatingIfNeeded: body.count + 4))
    return out + body
  }

  static func int32(_ n: Int32) -> [UInt8] {
    [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: n >> Int32($0)) }
  }

  static func int16(_ n: Int16) -> [UInt8] {
    [UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)]
  }

  /// `text` as a C string: its bytes and a NUL.
  static func cString(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

  static func startup(_ parameters: [(String, String)]) -> [UInt8] {
    var body = int32(196_608)  // protocol 3.0
    for (name, value) in parameters { body += cString(name) + cString(value) }
    return frame(nil, body + [0])
  }

  /// Parse (unnamed statement), Bind (text parameters, text results), Describe of the portal
  /// (so that the server says how many columns its rows have), then Execute of the first
  /// `rows` rows and Flush: the rest are asked for with ``execute(rows:)``, or the portal
  /// closed, and Sync sent, when enough came.
  static func extendedQuery(_ text: String, _ parameters: [[UInt8]?], rows: Int32) -> [UInt8] {
    var parse = cString("") + cString(text)
    parse += int16(0)
    var bind =
      cString("") + cString("") + int16(0) + int16(Int16(truncatingIfNeeded: parameters.count))
    for parameter in parameters {
      if let parameter {
        bind += int32(Int32(truncatingIfNeeded: parameter.count)) + parameter
      } else {
        bind += int32(-1)
      }
    }
    bind += int16(0)
    return frame(UInt8(ascii: "P"), parse) + frame(UInt8(ascii: "B"), bind)
      + frame(UInt8(ascii: "D"), [UInt8(ascii: "P")] + cString("")) + execute(rows: rows)
  }

  /// Execute of the unnamed portal for up to `rows` more rows, and Flush.
  static func execute(rows: Int32) -> [UInt8] {
    frame(UInt8(ascii: "E"), cString("") + int32(rows)) + frame(UInt8(ascii: "H"), [])
  }

  /// Close of the unnamed portal, and Sync.
  static let closeAndSync =
    frame(UInt8(ascii: "C"), [UInt8(ascii: "P")] + cString("")) + frame(UInt8(ascii: "S"), [])

  /// Sync: the end of an extended query.
  static let sync = frame(UInt8(ascii: "S"), [])

  /// The fields of a message's body, read in order; reading past the end throws.
  struct Reader {
    let body: ArraySlice<UInt8>
    var index: Int

    init(_ body: ArraySlice<UInt8>) {
      self.body = body
      index = body.startIndex
    }

    var atEnd: Bool { index >= body.endIndex }

    mutating func int32() throws(DatabaseError) -> Int32 {
      let bytes = try take(4)
      return bytes.reduce(Int32(0)) { $0 << 8 | Int32($1) }
    }

    mutating func int16() throws(DatabaseError) -> Int16 {
      let bytes = try take(2)
      return Int16(
        bitPattern: UInt16(bytes[bytes.startIndex]) << 8 | UInt16(bytes[bytes.startIndex + 1]))
    }

    mutating func take(_ count: Int) throws(DatabaseError) -> ArraySlice<UInt8> {
      guard count >= 0, body.endIndex - index >= count else {
        throw DatabaseError("PostgreSQL sent a malformed message")
      }
      defer { index += count }
      return body[index..<index + count]
    }

    mutating func cString() throws(DatabaseError) -> String {
      guard let end = body[index...].firstIndex(of: 0) else {
        throw DatabaseError("PostgreSQL sent a malformed message")
      }
      defer { index = end + 1 }
      return String(decoding: body[index..<end], as: UTF8.self)
    }

    mutating func rest() -> ArraySlice<UInt8> {
      defer { index = body.endIndex }
      return body[index...]
    }
  }
}
