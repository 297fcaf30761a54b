import FilterDSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The wall clock, which the core leaves to its callers (for `now()` and `today()`), and a
/// monotonic clock for timings.
package enum SystemClock {
  /// Now, in UTC.
  package static func now() -> Instant {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Instant(
      seconds: Int64(time.tv_sec), nanoseconds: Int32(truncatingIfNeeded: time.tv_nsec))
  }

  /// Seconds on a monotonic clock, for progress and timing.
  package static func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
