import FilterDSL
import FilterData
import FilterDatabase
import FilterSQL
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A partitioned table whose partitions are foreign tables on two other servers (shards,
/// through `postgres_fdw`): the same answers as in memory, and counts, facets and sorted
/// pages computed on the shards.
@Suite(.enabled(if: PostgresServer.shardsAvailable, "no PostgreSQL shards"), .serialized)
struct ShardedPostgresTests {
  static let schema = TypedFilterGenerator.schema

  /// A table `name` of `records` on the coordinator, partitioned by the hash of its row order
  /// over a table of the same name on each shard; its text columns `COLLATE "C"` everywhere
  /// when `byteOrdered`. Returns the table as flt reads it back.
  static func load(
    _ records: [[Value]], _ connection: PostgresConnection, name: String, byteOrdered: Bool
  ) throws -> SQLTable {
    var table = SQLTable(name: name, schema: schema)
    if byteOrdered {
      table.byteOrderedColumns = Set(schema.fields.filter { $0.type == .string }.map(\.name))
    }
    let quoted = SQLDialect.postgresql.quote(name)
    let order = SQLDialect.postgresql.quote(SQLTable.rowOrderColumn)
    for shard in 0..<2 {
      try PostgresServer.connectToShard(shard).executeScript(
        "DROP TABLE IF EXISTS \(quoted); \(table.createStatement(.postgresql)); "
          + "ALTER TABLE \(quoted) ADD COLUMN \(order) bigint")
    }
    let sequence = SQLDialect.postgresql.quote(name + "_order")
    let create = table.createStatement(.postgresql).dropLast()
    var script =
      "DROP TABLE IF EXISTS \(quoted); DROP SEQUENCE IF EXISTS \(sequence); CREATE SEQUENCE \(sequence); "
      + "\(create), \(order) bigint DEFAULT nextval('\(sequence)')) PARTITION BY HASH (\(order)); "
    for shard in 0..<2 {
      script +=
        "CREATE FOREIGN TABLE \(SQLDialect.postgresql.quote("\(name)_\(shard + 1)")) PARTITION OF \(quoted) "
        + "FOR VALUES WITH (MODULUS 2, REMAINDER \(shard)) SERVER flt_shard\(shard + 1) "
        + "OPTIONS (table_name '\(name)'); "
    }
    try connection.executeScript(script)
    try PostgresDifferentialTests.insert(records, into: table, connection)
    return try connection.table(named: name)
  }

  @Test(arguments: [false, true])
  func partitionsAreFound(byteOrdered: Bool) throws {
    let (connection, records, table) = try Self.sharded(
      "found", seed: 1, count: 10, byteOrdered: byteOrdered)
    #expect(table.partitions.map(\.name) == ["found_1", "found_2"])
    #expect(table.partitions.allSatisfy { $0.isForeign })
    #expect(table.answersByPartition)
    #expect(table.rowOrder == SQLTable.rowOrderColumn)
    #expect(table.byteOrderedColumns == (byteOrdered ? ["s"] : []))
    #expect(table.schema.names == Self.schema.names)
    // A plain table has neither.
    let plain = try PostgresDifferentialTests.load(records, connection, name: "found_plain")
    let read = try connection.table(named: plain.name)
    #expect(read.partitions.isEmpty && !read.answersByPartition && read.byteOrderedColumns.isEmpty)
  }

  /// A user granted the partitioned table but not its partitions (a grant does not reach
  /// them) is answered through the table as a whole, not refused.
  @Test func partitionsOnlyWhereTheUserMayReadThem() throws {
    let (connection, records, table) = try Self.sharded(
      "granted", seed: 3, count: 30, byteOrdered: true)
    #expect(table.answersByPartition)
    try connection.executeScript("GRANT SELECT ON granted TO flt_md5")
    let other = try PostgresConnection(url: PostgresServer.url("flt_md5", password: "md5 pass"))
    let seen = try other.table(named: "granted")
    #expect(seen.partitions.isEmpty && !seen.answersByPartition)
    let query = try TableQuery("i > 0 order by s limit 4", on: seen, in: other)
    #expect(try query.records() == Self.inMemory(query, records))
    #expect(
      try query.count() == Self.inMemory(TableQuery("i > 0", on: seen, in: other), records).count)
  }

  /// A row-level security policy on the partitioned table binds only queries through it (a
  /// partition asked directly is not subject to its parent's policies): a user the policy
  /// binds is answered through the table as a whole, even when granted every partition; its
  /// owner, whom the policy does not bind, by partition, until the policy is forced on it.
  @Test func rowLevelSecurityIsNotBypassed() throws {
    let (connection, records, table) = try Self.sharded(
      "guarded", seed: 5, count: 60, byteOrdered: true)
    #expect(table.answersByPartition)
    try connection.executeScript(
      "GRANT SELECT ON guarded, guarded_1, guarded_2 TO flt_md5; "
        + "ALTER TABLE guarded ENABLE ROW LEVEL SECURITY; "
        + "CREATE POLICY positive ON guarded FOR SELECT TO flt_md5 USING (i > 0)")
    let other = try PostgresConnection(url: PostgresServer.url("flt_md5", password: "md5 pass"))
    let seen = try other.table(named: "guarded")
    #expect(seen.partitions.isEmpty && !seen.answersByPartition)
    let visible = try Self.inMemory(TableQuery("i > 0", on: seen, in: other), records)
    #expect(visible.count < records.count)
    #expect(try TableQuery("true", on: seen, in: other).count() == visible.count)
    let page = try TableQuery("true order by s, i limit 3", on: seen, in: other)
    #expect(
      try page.records()
        == Self.inMemory(TableQuery("i > 0 order by s, i limit 3", on: seen, in: other), records))
    // The owner is not bound by the policy, until it is forced.
    #expect(try connection.table(named: "guarded").answersByPartition)
    try connection.executeScript("ALTER TABLE guarded FORCE ROW LEVEL SECURITY")
    #expect(try !connection.table(named: "guarded").answersByPartition)
  }

  /// The differential suite's random queries and facets, through the coordinator.
  @Test(arguments: 0..<4)
  func coordinatorAgreesWithMemory(batch: Int) throws {
    let (connection, records, table) = try Self.sharded(
      "sharded_\(batch)", seed: UInt64(40_000 + batch), count: 80, byteOrdered: batch % 2 == 1)
    let (whole, _) = try SQLiteDifferentialTests.checkQueries(
      records, connection, table, seed: UInt64(batch * 1000))
    #expect(whole >= 15, "only \(whole) of 100 filters ran wholly in PostgreSQL")
    try SQLiteDifferentialTests.checkFacets(records, connection, table, seed: UInt64(batch * 1000))
  }

  /// Sorted pages of every size around the partitions' sizes, ties broken by input order:
  /// each shard's first `offset + limit` rows, merged, are the page flt gives in memory.
  @Test(arguments: [false, true])
  func pagesMergeExactly(byteOrdered: Bool) throws {
    let (connection, records, table) = try Self.sharded(
      "pages", seed: 7, count: 40, byteOrdered: byteOrdered)
    for order in ["s", "s desc", "i desc, s", "b, d desc nulls first", "t"] {
      for (limit, offset) in [(1, 0), (3, 2), (20, 0), (25, 19), (40, 1), (0, 5), (5, 60)] {
        let query = try TableQuery(
          "i != 3 or i is null order by \(order) limit \(limit) offset \(offset)", on: table,
          in: connection)
        let translation = try query.translation()
        #expect(translation.pagesInDatabase && translation.select.text.contains("UNION ALL"))
        #expect(try query.records() == Self.inMemory(query, records), "\(query.source.text)")
      }
    }
  }

  /// A count, facets and a sorted top 5 are computed on each shard: its log shows the
  /// statement it ran, and the coordinator's plan shows how few rows came back.
  @Test func shardsDoTheWork() throws {
    let (connection, records, table) = try Self.sharded(
      "shard_work", seed: 11, count: 200, byteOrdered: true)

    // A count: one row from each shard.
    var logs = ShardLogs()
    let count = try TableQuery("i > 0 and s < \"m\"", on: table, in: connection)
    let expected = records.filter { record in
      if case .int(let i) = record[0], i > 0, case .string(let s) = record[3], s < "m" {
        return true
      }
      return false
    }.count
    #expect(try count.count() == expected)
    for shard in try logs.statements() {
      #expect(shard.contains { $0.contains("count(*)") && $0.contains("shard_work") }, "\(shard)")
    }
    let counting = try count.translation().count
    #expect(try Self.rowsFromShards(counting, connection) == [1, 1])
    // --explain says what each shard is sent.
    let explained = try count.explanation()
    for shard in ["shard_work_1", "shard_work_2"] {
      #expect(
        explained.contains("public.\(shard): SELECT count(*) FROM public.shard_work WHERE"),
        "\(explained)")
    }

    // Facets: each shard's GROUP BY, at most a row per value.
    logs = ShardLogs()
    let counter = try FacetCounter(
      [FieldPath("b")], filter: Parser.parseFilter(SourceText("i > 0")).get(),
      source: SourceText("i > 0"), for: .dynamic(Self.schema, presence: .columns))
    let facets = try connection.count(counter, on: table)
    #expect(facets.facets == counter.count(records).facets)
    for shard in try logs.statements() {
      #expect(shard.contains { $0.contains("GROUP BY") && $0.contains("shard_work") }, "\(shard)")
    }

    // Stats: each shard's GROUP BY of the parts, added up on the coordinator.
    let type = RecordType<[Value]>.dynamic(Self.schema, presence: .columns)
    for text in [
      "count(), sum(i), mean(i), min(i), max(i), count(s) by b, t where i > 0",
      "count(), sum(j), max(j)",
    ] {
      logs = ShardLogs()
      let stats = try Parser.parseStats(SourceText(text)).get()
      let bound = try #require(FilterEnvironment(type).check(stats).tree)
      let result = try #require(try connection.stats(bound, on: table))
      #expect(result.rows == StatsCounter(bound, for: type).run(records).rows, "\(text)")
      for shard in try logs.statements() {
        #expect(
          shard.contains { $0.contains("count(") && $0.contains("shard_work") }, "\(shard)")
      }
    }

    // A sorted top 5: each shard sorts its own and sends 5.
    logs = ShardLogs()
    let top = try TableQuery("i > 0 order by s desc, i limit 5", on: table, in: connection)
    #expect(try top.records().count == 5)
    for shard in try logs.statements() {
      #expect(
        shard.contains {
          $0.contains("ORDER BY") && $0.contains("LIMIT") && $0.contains("shard_work")
        },
        "\(shard)")
    }
    let rows = try Self.rowsFromShards(top.translation().select, connection)
    #expect(rows.count == 2 && rows.allSatisfy { $0 <= 5 }, "\(rows)")
    let sent = try TableSource(table, in: connection).shardStatements(top.translation().select)
    #expect(
      sent.count == 2
        && sent.allSatisfy { $0.contains("ORDER BY s DESC") && $0.contains("LIMIT 5") }, "\(sent)")
  }

  /// flt's forms that postgres_fdw sends to a shard as flt writes them: a count with each of
  /// them is counted there (the shard is sent `count(*)` with the whole condition), and it
  /// is flt's count.
  @Test func formsThatShip() throws {
    let (connection, records, table) = try Self.sharded(
      "shipping", seed: 13, count: 60, byteOrdered: true)
    for filter in [
      "s < \"m\" and s != \"b\"", "coalesce(i, j, 0) > 1", "min(i, j) > 1",
      "max(d, 2.5) > 1", "tags contains \"a\"", "not (nums contains 3)", "i + j > 3",
      "i / 2 > 1", "(i + 1) % 5 != 2", "rec.x > 0", "rec.y is null", "not exists rec.x", "d > `i`",
      "coalesce(s, \"x\") == \"x\"",
    ] {
      let query = try TableQuery(filter, on: table, in: connection)
      let translation = try query.translation()
      #expect(translation.residual == nil, "\(filter)")
      let sent = try TableSource(table, in: connection).shardStatements(translation.count)
      #expect(
        sent.count == 2
          && sent.allSatisfy { $0.contains("SELECT count(*) FROM public.shipping WHERE") },
        "\(filter): \(sent)")
      #expect(try query.count() == Self.inMemory(query, records).count, "\(filter)")
    }
  }

  /// A text sort on a column of the database's own collation is flt's only under `COLLATE
  /// "C"`, which postgres_fdw does not send: the shards then send every match, and the
  /// answer is still flt's.
  @Test func aSortTheShardsCannotDoStaysExact() throws {
    let (connection, records, table) = try Self.sharded(
      "shard_collated", seed: 12, count: 60, byteOrdered: false)
    let top = try TableQuery("true order by s desc limit 3", on: table, in: connection)
    #expect(try top.records() == Self.inMemory(top, records))
    let sent = try TableSource(table, in: connection).shardStatements(top.translation().select)
    #expect(sent.count == 2 && sent.allSatisfy { !$0.contains("LIMIT") }, "\(sent)")
    #expect(try Self.rowsFromShards(top.translation().select, connection).reduce(0, +) == 60)
  }

  /// The records `query` gives in memory.
  static func inMemory(_ query: TableQuery, _ records: [[Value]]) throws -> [[Value]] {
    CompiledQuery(
      try FilterEnvironment(.dynamic(schema, presence: .columns)).check(query.query).get(
        query.source),
      for: .dynamic(schema, presence: .columns)
    ).run(records).records
  }

  /// `count` random records (from `seed`) in the sharded table `name`.
  static func sharded(_ name: String, seed: UInt64, count: Int, byteOrdered: Bool) throws -> (
    PostgresConnection, [[Value]], SQLTable
  ) {
    let connection = try PostgresServer.connect()
    var generator = TypedFilterGenerator(seed: seed)
    let records = (0..<count).map { _ in PostgresDifferentialTests.storable(generator.record()) }
    return (
      connection, records, try load(records, connection, name: name, byteOrdered: byteOrdered)
    )
  }

  /// How many rows each foreign scan of `statement`'s plan brought to the coordinator
  /// (`EXPLAIN ANALYZE`).
  static func rowsFromShards(_ statement: SQLStatement, _ connection: PostgresConnection) throws
    -> [Int]
  {
    var plan: [String] = []
    try connection.forEachRow(
      SQLStatement(
        "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) " + statement.text,
        parameters: statement.parameters)
    ) { row in
      if case .text(let line) = row.first { plan.append(line) }
      return true
    }
    return plan.filter { $0.contains("Foreign Scan") }.compactMap { line in
      guard let start = line.range(of: "actual rows=")?.upperBound else { return nil }
      return Int(line[start...].prefix { $0.isNumber })
    }
  }
}

/// The shards' statement logs from the moment it is made.
struct ShardLogs {
  private let starts: [Int]

  init() { starts = PostgresServer.shardLogs.map { Self.read($0).count } }

  /// Each shard's log lines written since.
  func statements() throws -> [[String]] {
    zip(PostgresServer.shardLogs, starts).map { path, start in
      Self.read(path).dropFirst(start).split(separator: UInt8(ascii: "\n")).map {
        String(decoding: $0, as: UTF8.self)
      }
    }
  }

  private static func read(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { return [] }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = fread(&buffer, 1, buffer.count, file)
      if n <= 0 { break }
      bytes += buffer[0..<n]
    }
    return bytes
  }
}
