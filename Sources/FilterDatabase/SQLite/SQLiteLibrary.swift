#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system's SQLite library, loaded when first needed (`dlopen`), so that building flt
/// needs no SQLite headers and running it needs SQLite only when a database is opened.
struct SQLiteLibrary: @unchecked Sendable {
  typealias Handle = OpaquePointer
  typealias Open =
    @convention(c) (
      UnsafePointer<CChar>?, UnsafeMutablePointer<Handle?>?, Int32, UnsafePointer<CChar>?
    ) -> Int32
  typealias Prepare =
    @convention(c) (
      Handle?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<Handle?>?,
      UnsafeMutablePointer<UnsafePointer<CChar>?>?
    ) -> Int32
  typealias BindText =
    @convention(c) (
      Handle?, Int32, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?
    ) -> Int32
  typealias OfHandle = @convention(c) (Handle?) -> Int32
  typealias OfColumn = @convention(c) (Handle?, Int32) -> Int32
  typealias Text = @convention(c) (Handle?) -> UnsafePointer<CChar>?
  typealias ColumnText = @convention(c) (Handle?, Int32) -> UnsafePointer<UInt8>?
  typealias BindInt64 = @convention(c) (Handle?, Int32, Int64) -> Int32
  typealias BindDouble = @convention(c) (Handle?, Int32, Double) -> Int32
  typealias ColumnInt64 = @convention(c) (Handle?, Int32) -> Int64
  typealias ColumnDouble = @convention(c) (Handle?, Int32) -> Double
  typealias Interrupt = @convention(c) (Handle?) -> Void
  typealias Version = @convention(c) () -> Int32
  typealias BusyTimeout = @convention(c) (Handle?, Int32) -> Int32

  let open: Open
  let close: OfHandle
  let errmsg: Text
  let prepare: Prepare
  let bindNull: OfColumn
  let bindInt64: BindInt64
  let bindDouble: BindDouble
  let bindText: BindText
  let step: OfHandle
  let columnCount: OfHandle
  let columnType: OfColumn
  let columnInt64: ColumnInt64
  let columnDouble: ColumnDouble
  let columnText: ColumnText
  let columnBytes: OfColumn
  let finalize: OfHandle
  let interrupt: Interrupt
  let version: Version
  let busyTimeout: BusyTimeout

  /// The library, or why it could not be loaded.
  static let shared: Result<SQLiteLibrary, DatabaseError> = load()

  private static func load() -> Result<SQLiteLibrary, DatabaseError> {
    let names = [
      "libsqlite3.so.0", "libsqlite3.so", "libsqlite3.dylib", "/usr/lib/libsqlite3.dylib",
    ]
    guard let handle = names.lazy.compactMap({ dlopen($0, RTLD_NOW) }).first else {
      return .failure(
        DatabaseError(
          "the SQLite library (libsqlite3) is not installed",
          help: "install it (Debian: apt-get install libsqlite3-0) and try again"))
    }
    guard let library = SQLiteLibrary(handle) else {
      return .failure(
        DatabaseError(
          "the SQLite library lacks functions flt needs", help: "install SQLite 3.30 or later"))
    }
    guard library.version() >= 3_030_000 else {
      return .failure(
        DatabaseError(
          "SQLite \(library.version()) is too old", help: "install SQLite 3.30 or later"))
    }
    return .success(library)
  }

  private init?(_ handle: UnsafeMutableRawPointer) {
    func symbol<T>(_ name: String, _: T.Type) -> T? {
      dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
    }
    guard let open = symbol("sqlite3_open_v2", Open.self),
      let close = symbol("sqlite3_close_v2", OfHandle.self),
      let errmsg = symbol("sqlite3_errmsg", Text.self),
      let prepare = symbol("sqlite3_prepare_v2", Prepare.self),
      let bindNull = symbol("sqlite3_bind_null", OfColumn.self),
      let bindInt64 = symbol("sqlite3_bind_int64", BindInt64.self),
      let bindDouble = symbol("sqlite3_bind_double", BindDouble.self),
      let bindText = symbol("sqlite3_bind_text", BindText.self),
      let step = symbol("sqlite3_step", OfHandle.self),
      let columnCount = symbol("sqlite3_column_count", OfHandle.self),
      let columnType = symbol("sqlite3_column_type", OfColumn.self),
      let columnInt64 = symbol("sqlite3_column_int64", ColumnInt64.self),
      let columnDouble = symbol("sqlite3_column_double", ColumnDouble.self),
      let columnText = symbol("sqlite3_column_text", ColumnText.self),
      let columnBytes = symbol("sqlite3_column_bytes", OfColumn.self),
      let finalize = symbol("sqlite3_finalize", OfHandle.self),
      let interrupt = symbol("sqlite3_interrupt", Interrupt.self),
      let version = symbol("sqlite3_libversion_number", Version.self),
      let busyTimeout = symbol("sqlite3_busy_timeout", BusyTimeout.self)
    else { return nil }
    self.open = open
    self.close = close
    self.errmsg = errmsg
    self.prepare = prepare
    self.bindNull = bindNull
    self.bindInt64 = bindInt64
    self.bindDouble = bindDouble
    self.bindText = bindText
    self.step = step
    self.columnCount = columnCount
    self.columnType = columnType
    self.columnInt64 = columnInt64
    self.columnDouble = columnDouble
    self.columnText = columnText
    self.columnBytes = columnBytes
    self.finalize = finalize
    self.interrupt = interrupt
    self.version = version
    self.busyTimeout = busyTimeout
  }
}
