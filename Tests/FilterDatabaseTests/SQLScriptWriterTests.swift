import FilterDSL
import FilterData
import FilterSQL
import Foundation
import Testing

@testable import FilterDatabase

/// Scripts written by `flt -f sql --dialect postgresql`, loaded where the server reads
/// backslashes as escapes (`standard_conforming_strings = off`), by the client and through
/// `psql`, with and without the script's own settings: a value is always one value, never SQL
/// and never a psql meta-command.
@Suite(.serialized, .enabled(if: PostgresServer.available, "no PostgreSQL server"))
struct SQLScriptWriterTests {
  static let schema = Schema([.init("s", .string, optional: true), .init("n", .int)])
  static let marker = "/tmp/flt-injected-by-a-value"

  /// Records whose text, written as '...' and read with backslashes as escapes, ends its
  /// literal early: the first drops a table, the second runs a shell command in psql; the
  /// third holds other texts that must arrive as written.
  static let attacks: [(String, [[Value]])] = [
    ("SQL", [[.string(#"\', 0); DROP TABLE victim; --"#), .int(1)]]),
    ("psql", [[.string("\\'\n\\! touch \(marker)\n"), .int(1)]]),
    (
      "texts",
      [
        [.string("x\\"), .int(1)], [.string(#"\\"#), .int(2)], [.string("a'b\\'c"), .int(3)],
        [.string(#"it's \n not a line break; \x41 \u0041 \\"#), .int(4)], [.null, .int(5)],
        [.string("plain é"), .int(6)],
      ]
    ),
  ]

  static func script(_ table: String, _ records: [[Value]]) -> String {
    let out = OutputSink()
    let writer = SQLScriptWriter(
      SQLTable(name: table, schema: schema), dialect: .postgresql, to: out)
    for record in records { writer.write(DataRecord(record, schema: schema)) }
    writer.finish()
    return out.text
  }

  /// `script` without the settings it begins with.
  static func body(_ script: String) -> String {
    let preamble = SQLScriptWriter.preamble(.postgresql)
    #expect(script.hasPrefix(preamble))
    return String(script.dropFirst(preamble.count))
  }

  static func rows(_ connection: PostgresConnection, _ table: String) throws -> [[Value]] {
    let found = try connection.table(named: table, typingJSON: nil)
    return try TableQuery("true order by n", on: found, in: connection).records()
  }

  /// A fresh victim table and no table `name`, on a new connection.
  static func prepare(_ name: String) throws -> PostgresConnection {
    try? FileManager.default.removeItem(atPath: marker)
    let connection = try PostgresServer.connect()
    try connection.executeScript(
      "DROP TABLE IF EXISTS victim; CREATE TABLE victim (x int); DROP TABLE IF EXISTS \(name)")
    return connection
  }

  /// The rows arrived as written, the victim stands, no shell command ran.
  static func check(_ connection: PostgresConnection, _ name: String, _ records: [[Value]])
    throws
  {
    #expect(!FileManager.default.fileExists(atPath: marker))
    #expect(try connection.table(named: "victim", typingJSON: nil).name == "victim")
    #expect(try rows(connection, name) == records)
    try connection.executeScript("DROP TABLE \(name); DROP TABLE IF EXISTS victim")
  }

  @Test func theScriptSetsWhatItReliesOn() {
    #expect(
      Self.script("t", []).hasPrefix(
        "SET standard_conforming_strings = on;\nSET client_encoding = 'UTF8';\nBEGIN;\n"))
  }

  /// The literals alone, without the script's settings, read the same under either setting
  /// (set before the script is sent: a server lexes a whole message before running any of it).
  @Test(arguments: ["on", "off"], [0, 1, 2])
  func literalsReadTheSameUnderEitherSetting(_ setting: String, _ attack: Int) throws {
    let (what, records) = Self.attacks[attack]
    let name = "script_\(what.lowercased())_\(setting)"
    let connection = try Self.prepare(name)
    try connection.executeScript("SET standard_conforming_strings = \(setting)")
    try connection.executeScript(Self.body(Self.script(name, records)))
    try Self.check(connection, name, records)
  }

  /// Through psql started with backslashes as escapes, the whole script and its body alone.
  @Test(arguments: [true, false], [0, 1, 2])
  func psqlRunsTheScriptAsData(whole: Bool, _ attack: Int) throws {
    guard
      let psql = ["/usr/bin/psql", "/usr/local/bin/psql"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { return }
    let (what, records) = Self.attacks[attack]
    let name = "psql_\(what.lowercased())_\(whole)"
    let connection = try Self.prepare(name)
    let script = Self.script(name, records)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: psql)
    process.arguments = [
      "-q", "-X", "-h", "127.0.0.1", "-p", PostgresServer.port ?? "", "-U", "flt_scram", "-d",
      "flt",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["PGPASSWORD"] = "scram pass"
    environment["PGOPTIONS"] = "-c standard_conforming_strings=off"
    process.environment = environment
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data((whole ? script : Self.body(script)).utf8))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    try Self.check(connection, name, records)
  }
}
