import FilterSQL

/// A connection to a SQLite database: a file, or `:memory:`. Statements run with their
/// parameters bound (never spliced into the text); rows come back one at a time.
///
/// One connection is for one thread at a time; ``interrupt()`` may be called from any.
public final class SQLiteDatabase: @unchecked Sendable {
  private let library: SQLiteLibrary
  private let handle: OpaquePointer
  /// The file opened.
  public let path: String

  /// Opens the database at `path` (`:memory:` for a new one in memory), read-only unless
  /// `writable`; a writable database is created when missing.
  public init(path: String, writable: Bool = false) throws(DatabaseError) {
    let library = try SQLiteLibrary.shared.get()
    // SQLITE_OPEN_READONLY, or READWRITE | CREATE; FULLMUTEX.
    let flags: Int32 = (writable ? 0x2 | 0x4 : 0x1) | 0x10000
    var handle: OpaquePointer?
    let status = library.open(path, &handle, flags, nil)
    guard status == 0, let handle else {
      let message = handle.flatMap { library.errmsg($0) }.map { String(cString: $0) }
      _ = library.close(handle)
      throw DatabaseError(
        "cannot open the SQLite database \(path): \(message ?? "error \(status)")",
        help: writable ? nil : "check the path; flt opens databases read-only")
    }
    // A database another program is writing: wait for its lock (as sqlite3's .timeout does)
    // rather than fail at once with "database is locked".
    _ = library.busyTimeout(handle, SQLiteDatabase.busyMilliseconds)
    self.library = library
    self.handle = handle
    self.path = path
  }

  /// How long a statement waits for another connection's lock before failing.
  static let busyMilliseconds: Int32 = 5_000

  deinit { _ = library.close(handle) }

  /// Runs `statement`, handing each row to `body` (cells in column order) until it returns
  /// false or the rows end.
  public func forEachRow(_ statement: SQLStatement, _ body: ([SQLValue]) -> Bool)
    throws(DatabaseError)
  {
    var prepared: OpaquePointer?
    let status = library.prepare(handle, statement.text, -1, &prepared, nil)
    guard status == 0, let prepared else {
      throw DatabaseError("SQLite: \(message) in: \(statement.text)")
    }
    defer { _ = library.finalize(prepared) }
    for (index, value) in statement.parameters.enumerated() {
      try bind(value, at: Int32(index + 1), prepared)
    }
    let columns = library.columnCount(prepared)
    var row: [SQLValue] = []
    row.reserveCapacity(Int(columns))
    while true {
      switch library.step(prepared) {
      case 100:  // SQLITE_ROW
        row.removeAll(keepingCapacity: true)
        for column in 0..<columns { row.append(cell(prepared, column)) }
        if !body(row) { return }
      case 101:  // SQLITE_DONE
        return
      case 9:  // SQLITE_INTERRUPT
        throw DatabaseError("the query was interrupted")
      default:
        throw DatabaseError("SQLite: \(message)")
      }
    }
  }

  /// Runs a statement that returns no rows (`CREATE TABLE`, `BEGIN`, an `INSERT`).
  public func execute(_ text: String, _ parameters: [SQLValue] = []) throws(DatabaseError) {
    try forEachRow(SQLStatement(text, parameters: parameters)) { _ in true }
  }

  /// Runs every statement of `script` in turn (a file of `CREATE TABLE` and `INSERT`s, as
  /// `flt --format sql` writes), without parameters.
  public func executeScript(_ script: String) throws(DatabaseError) {
    var bytes = Array(script.utf8CString)
    try bytes.withUnsafeMutableBufferPointer { (buffer) throws(DatabaseError) in
      guard var next = UnsafePointer(buffer.baseAddress) else { return }
      while next.pointee != 0 {
        var prepared: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        guard library.prepare(handle, next, -1, &prepared, &tail) == 0 else {
          throw DatabaseError("SQLite: \(message)")
        }
        defer { _ = library.finalize(prepared) }
        guard let tail, tail != next else { return }
        next = tail
        // Only white space or comments were left: nothing was prepared.
        guard let prepared else { continue }
        while true {
          let status = library.step(prepared)
          if status == 101 { break }
          guard status == 100 else { throw DatabaseError("SQLite: \(message)") }
        }
      }
    }
  }

  /// Stops the statement running now (from another thread, on Ctrl-C): it fails with "the
  /// query was interrupted".
  public func interrupt() { library.interrupt(handle) }

  private var message: String {
    library.errmsg(handle).map { String(cString: $0) } ?? "unknown error"
  }

  private func bind(_ value: SQLValue, at index: Int32, _ prepared: OpaquePointer)
    throws(DatabaseError)
  {
    let status: Int32
    switch value {
    case .null: status = library.bindNull(prepared, index)
    case .int(let i): status = library.bindInt64(prepared, index, i)
    case .double(let d): status = library.bindDouble(prepared, index, d)
    case .text(let text):
      var text = text
      status = text.withUTF8 { bytes in
        guard bytes.count <= Int(Int32.max) else { return 18 }  // SQLITE_TOOBIG
        // SQLITE_TRANSIENT: SQLite copies the bytes before this returns.
        return bytes.withMemoryRebound(to: CChar.self) { chars in
          library.bindText(
            prepared, index, chars.baseAddress, Int32(bytes.count),
            UnsafeRawPointer(bitPattern: -1))
        }
      }
    }
    guard status == 0 else {
      throw DatabaseError("SQLite: cannot bind parameter \(index): \(message)")
    }
  }

  private func cell(_ prepared: OpaquePointer, _ column: Int32) -> SQLValue {
    switch library.columnType(prepared, column) {
    case 1: return .int(library.columnInt64(prepared, column))
    case 2: return .double(library.columnDouble(prepared, column))
    case 3, 4:
      guard let text = library.columnText(prepared, column) else { return .null }
      let count = Int(library.columnBytes(prepared, column))
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    default: return .null
    }
  }
}
