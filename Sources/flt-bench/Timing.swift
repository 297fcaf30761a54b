import Foundation

/// Wall-clock timing with the standard library's clock.
enum Timing {
  /// The median of `runs` timings of `body`, in seconds.
  static func median(runs: Int, _ body: () -> Void) -> Double {
    var samples: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
      let elapsed = clock.measure(body)
      samples.append(
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }
    samples.sort()
    return samples[samples.count / 2]
  }

  /// `value` with `digits` digits after the point.
  static func format(_ value: Double, _ digits: Int = 1) -> String {
    String(format: "%.\(digits)f", value)
  }
}

/// Keeps the optimizer from discarding a result.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
