/// A small seeded random number generator, so that property tests are reproducible: a failure
/// prints its seed, and the same seed gives the same inputs.
public struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  /// A generator started at `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniformly chosen element of a non-empty array.
  public mutating func pick<T>(_ items: [T]) -> T {
    items[Int(next() % UInt64(items.count))]
  }

  /// True with probability `p`.
  public mutating func chance(_ p: Double) -> Bool {
    Double(next() % 1_000_000) / 1_000_000 < p
  }

  /// A uniformly chosen integer of `range`.
  public mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }
}
