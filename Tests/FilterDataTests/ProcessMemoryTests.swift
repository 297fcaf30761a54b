import Testing

@testable import FilterData

/// Sizes as people write and read them, and what the system says of memory.
@Suite struct ProcessMemoryTests {
  @Test func sizesReadLikeAPersonWouldSayThem() {
    #expect(ProcessMemory.describe(0) == "0 B")
    #expect(ProcessMemory.describe(999) == "999 B")
    #expect(ProcessMemory.describe(1_500) == "1.5 KB")
    #expect(ProcessMemory.describe(209_000_000) == "209 MB")
    #expect(ProcessMemory.describe(Int.max).hasSuffix("TB"))
  }

  @Test func sizesAreReadWithTheirUnits() {
    #expect(ProcessMemory.bytes(in: "4GB") == 4_000_000_000)
    #expect(ProcessMemory.bytes(in: "4 gb") == 4_000_000_000)
    #expect(ProcessMemory.bytes(in: "1.5G") == 1_500_000_000)
    #expect(ProcessMemory.bytes(in: "512MiB") == 512 << 20)
    #expect(ProcessMemory.bytes(in: "2 TiB") == 2 << 40)
    #expect(ProcessMemory.bytes(in: "100b") == 100)
    // No unit, an unknown one, nothing, zero, negative, or past what an Int holds: nil.
    for bad in ["4", "4 GiGa", "", "GB", "0GB", "-1GB", "1e30TB", "9999999TB", ".GB", "1.2.3MB"] {
      #expect(ProcessMemory.bytes(in: bad) == nil, "\(bad)")
    }
  }

  @Test func theSystemSaysHowMuchMemoryThereIs() throws {
    let resident = try #require(ProcessMemory.resident)
    let physical = try #require(ProcessMemory.physical)
    // A test process holds more than a megabyte and less than the machine.
    #expect(resident > 1 << 20 && resident < physical)
    // Memory taken and touched shows in the resident size (other tests run meanwhile, and
    // may free theirs: only this array is sure to be there).
    let big = [UInt8](repeating: 1, count: 200 << 20)
    let after = try #require(ProcessMemory.resident)
    #expect(after >= 200 << 20)
    #expect(big.count == 200 << 20)
    #expect(ProcessMemory.defaultLimit == physical / 4 * 3)
  }
}
