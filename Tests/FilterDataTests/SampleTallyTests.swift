import FilterDSL
import TestSupport
import Testing

@testable import FilterData

/// The sample a schema is inferred from is tallied with shortcuts (a key found where the
/// record before had it, a short text seen before adding what it added then): the schema is
/// the one a tally without them infers.
@Suite struct SampleTallyTests {
  static let texts = [
    "NA", "-", "red", "Space Black", "2022-09-26", "2023-01-02T10:00:00Z", "PT5M", "533",
    "2.5", "-12", "a text longer than sixteen bytes", "é", "", "null", "true", "unknown",
  ]

  /// `text` as a JSON string: plainly, or (`escaped`) with its first character as a `\u`
  /// escape.
  static func quoted(_ text: String, escaped: Bool) -> String {
    guard escaped, let first = text.unicodeScalars.first, first.value < 0x80 else {
      return "\"\(text)\""
    }
    let hex = String(first.value, radix: 16)
    return "\"\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      + String(text.unicodeScalars.dropFirst()) + "\""
  }

  /// Records of texts from `pool`, numbers and nulls, and (`nested`) lists and records.
  static func lines(
    _ random: inout SplitMix64, escaped: Bool, nested: Bool, pool: [String]
  ) -> String {
    var lines: [String] = []
    for _ in 0..<random.int(1...400) {
      var members: [String] = []
      for key in ["a", "bb", "colour", "a key of twenty bytes", "d"] where random.chance(0.85) {
        let value: String
        switch random.int(0...9) {
        case 0: value = String(random.int(0...9))
        case 1: value = "null"
        case 2 where nested:
          value = "[" + quoted(random.pick(pool), escaped: escaped && random.chance(0.5)) + "]"
        case 3 where nested: value = #"{"x": "# + quoted(random.pick(pool), escaped: false) + "}"
        default: value = quoted(random.pick(pool), escaped: escaped && random.chance(0.5))
        }
        members.append(quoted(key, escaped: escaped && random.chance(0.5)) + ": " + value)
      }
      if random.chance(0.3) { members.shuffle(using: &random) }
      lines.append("{" + members.joined(separator: ", ") + "}")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func inferred(
    _ path: String, _ options: ReadOptions, shortcuts: Bool
  ) throws -> String {
    let reader = try DataReader(
      path: path, format: nil, options: options, blockSize: DataReader.defaultBlockSize,
      tallyShortcuts: shortcuts)
    let fields = reader.schema.fields.map {
      "\($0.name) \($0.type) \($0.isOptional) \($0.knownValues ?? []) \(String(describing: $0.numericText))"
    }
    return fields.joined(separator: "\n") + "\nmarkers \(reader.nullMarkers)"
  }

  @Test func shortcutsInferWhatAFullTallyInfers() throws {
    for seed in UInt64(1)...40 {
      // Each file from a few of the texts, so that some fields are all dates, or numbers.
      var choose = SplitMix64(seed: seed)
      let pool = (0..<choose.int(1...4)).map { _ in choose.pick(Self.texts) }
      for options in [ReadOptions(), ReadOptions(nullTexts: ReadOptions.usualNullTexts)] {
        // Keys and texts written plainly, or some with escapes (no shortcut for those).
        var random = SplitMix64(seed: seed &* 7_919)
        let path = try DataFiles.write(
          Self.lines(&random, escaped: seed % 3 == 0, nested: seed % 2 == 0, pool: pool),
          "tally-\(seed).jsonl")
        let a = try Self.inferred(path, options, shortcuts: true)
        let b = try Self.inferred(path, options, shortcuts: false)
        #expect(a == b, "seed \(seed), pool \(pool)")
      }
    }
  }
}
