import Testing

@testable import FilterData

/// The pipeline behind the one-shot command: items consumed on another thread in the order
/// sent, a drain after which the sender may touch what the consumer owns, and a stop.
@Suite struct PipelineTests {
  /// State the consumer owns while the pipeline runs (the sender reads it after a drain).
  final class Tally: @unchecked Sendable {
    var seen: [Int] = []
  }

  @Test func itemsAreConsumedInOrderAndDrainWaitsForThem() {
    let tally = Tally()
    let pipeline = Pipeline<[Int]> { block in
      tally.seen += block
      return true
    }
    for start in stride(from: 0, to: 1000, by: 10) {
      pipeline.send(Array(start..<start + 10))
      if start == 500 {
        pipeline.drain()
        // Drained: every block sent is in, and the sender may read (and change) the state.
        #expect(tally.seen == Array(0..<510))
        tally.seen.append(-1)
      }
    }
    pipeline.finish()
    #expect(tally.seen == Array(0..<510) + [-1] + Array(510..<1000))
    #expect(!pipeline.stopped)
    pipeline.finish()  // (twice is fine)
  }

  @Test func aConsumerThatStopsDropsWhatComesAfter() {
    let tally = Tally()
    let pipeline = Pipeline<Int> { item in
      tally.seen.append(item)
      return item < 3
    }
    var sent = 0
    while !pipeline.stopped, sent < 10_000 {
      pipeline.send(sent)
      sent += 1
    }
    pipeline.drain()
    #expect(pipeline.stopped)
    pipeline.finish()
    // Nothing after the item that stopped it was consumed, though more may have been sent.
    #expect(tally.seen == [0, 1, 2, 3])
    #expect(sent < 10_000)
  }
}
