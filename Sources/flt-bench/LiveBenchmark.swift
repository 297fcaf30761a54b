import FilterDSL
import FilterData
import FilterSession
import Foundation

/// `flt-bench live FILE`: what live results cost per key. The file is loaded into a session,
/// then each filter below is "typed" one character at a time and every prefix previewed as
/// the REPL does after a key (parse, check, count the matches, or find the first error).
/// Prints the median preview per key, the median of those that counted (the prefix checked),
/// the slowest, and the `count` statement of the whole filter for comparison.
enum LiveBenchmark {
  static let filters = [
    "color in (Starlight, \"Space Black\") and diskSpace >= 256",
    "model contains[c] \"pro\" and price < 1000",
    "price * 2 > 1500 or memory >= 8",
    "camera.megapixels >= 48 and tags contains ProMotion",
  ]

  static func run(path: String) {
    let session = Session(output: OutputSink(descriptor: 1))
    let clock = ContinuousClock()
    let loading = clock.measure {
      do {
        try session.run(SourceText("load \"\(path)\" as data", name: "<bench>"))
      } catch {
        print(String(describing: error))
      }
    }
    let rows = session.current?.records?.count ?? 0
    print("loaded \(rows) records in \(seconds(loading)) s")
    print(
      "filter | keys | median per key | keys that counted: median | slowest key | count statement")
    for filter in filters {
      var times: [Double] = []
      var counted: [Double] = []
      var last: LivePreview?
      for end in filter.indices.dropFirst() + [filter.endIndex] {
        let typed = String(filter[..<end])
        let elapsed = clock.measure {
          last = session.preview(SourceText(typed, name: "<repl>"), until: { false })
        }
        times.append(seconds(elapsed) * 1000)
        if case .matches = last { counted.append(seconds(elapsed) * 1000) }
      }
      let statement = Timing.median(runs: 5) {
        _ = try? session.evaluate(SourceText("count " + filter, name: "<bench>"))
      }
      times.sort()
      counted.sort()
      let countedMedian = counted.isEmpty ? 0 : counted[counted.count / 2]
      print(
        "`\(filter)` | \(times.count) | \(Timing.format(times[times.count / 2], 2)) ms | \(counted.count): \(Timing.format(countedMedian, 2)) ms | \(Timing.format(times.last ?? 0, 2)) ms | \(Timing.format(statement * 1000, 2)) ms"
      )
    }
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
  }
}
