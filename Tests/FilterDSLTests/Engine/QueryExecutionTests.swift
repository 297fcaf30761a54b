import FilterDSL
import Testing

/// The one query pipeline: batches in, matches out, paging across batches, early completion,
/// sorting at the end.
@Suite struct QueryExecutionTests {
  static let type = RecordType<Int>([.int("n") { $0 }])

  static func execution(_ text: String, parameters: [String: Value] = [:]) throws
    -> QueryExecution<Int>
  {
    let query = try CompiledQuery(text, for: type, parameters: parameters.mapValues { _ in .int })
    return QueryExecution(query.binding(parameters))
  }

  /// Feeds `batches` until the run is complete; what each batch gave, and what finishing gave.
  static func feed(_ execution: inout QueryExecution<Int>, _ batches: [[Int]]) -> (
    [[Int]], [Int]
  ) {
    var given: [[Int]] = []
    for batch in batches where !execution.isComplete { given.append(execution.consume(batch)) }
    return (given, execution.finish())
  }

  @Test func offsetAndLimitSpanBatches() throws {
    var execution = try QueryExecutionTests.execution("n % 2 == 0 limit 3 offset 2")
    let (given, finished) = QueryExecutionTests.feed(
      &execution, [[1, 2, 3], [4, 5, 6, 8], [10, 12], [14]])
    // Evens: 2 4 | 6 8 | 10 12: skip 2 and 4, give 6 8 10, then complete.
    #expect(given == [[], [6, 8], [10]])
    #expect(finished == [] && execution.isComplete && execution.emitted == 3)
  }

  @Test func aSortingQueryGivesEverythingAtTheEnd() throws {
    var execution = try QueryExecutionTests.execution("n > 1 order by n desc limit 2 offset 1")
    let (given, finished) = QueryExecutionTests.feed(&execution, [[1, 5, 2], [9, 3], [7]])
    #expect(given == [[], [], []])
    #expect(execution.keptCount == 0)  // handed over by finish
    #expect(finished == [7, 5] && execution.emitted == 2)
  }

  @Test func limitZeroIsCompleteBeforeAnyRecord() throws {
    let execution = try QueryExecutionTests.execution("n > 0 limit $k", parameters: ["k": .int(0)])
    #expect(execution.isComplete)
  }

  @Test func faultsOfTheFilterAndThePageAreCounted() throws {
    var execution = try QueryExecutionTests.execution(
      "100 / n > 1 limit 10 // $zero", parameters: ["zero": .int(0)])
    let given = execution.consume([0, 1, 2, 200])
    #expect(given == [1, 2])
    // 100 / 0 in the filter, and 10 / 0 for the limit (no limit then).
    #expect(execution.faults.total == 2)
  }

  @Test func replacingTheQueryUpdatesKeptMatchesFromAnIndex() throws {
    var execution = try QueryExecutionTests.execution("n > 0 order by n")
    _ = execution.consume([3, 1])
    let start = execution.keptCount
    _ = execution.consume([2, 5])
    let query = try CompiledQuery("n > 0 order by n desc", for: QueryExecutionTests.type)
    execution.replace(with: query, updatingKeptFrom: start) { $0 * 10 }
    #expect(execution.finish() == [50, 20, 3, 1])
  }

  @Test func anInMemoryRunStopsReadingAtTheLimit() throws {
    let query = try CompiledQuery("n > 0 limit 2", for: QueryExecutionTests.type)
    var read = 0
    let records = (1...100_000).lazy.map { n -> Int in
      read += 1
      return n
    }
    #expect(query.run(records).records == [1, 2])
    #expect(read <= 1024)
  }
}
