import FilterDSL
import Foundation
import TestSupport
import Testing

@testable import FilterData

/// A buffer read in two parts at once (`DataReader+Parts.swift`) gives what reading it in
/// turn gives: the same records with the same text, the same schema changes and warnings at
/// the same places, the same error; whatever the block size, whatever the data holds (line
/// breaks inside records, values that grow the schema, fixed types they do not fit, errors).
@Suite struct ReadingInPartsTests {
  /// Everything a reader says of a file, apart from how it groups records into blocks and
  /// the steps its schema grows in (those depend on what the buffer holds when a record needs
  /// it to grow): the records' text, their values read again under the final schema, the
  /// place of the first change to each field, the warnings, the fields, the error.
  struct Transcript: Equatable, CustomStringConvertible {
    var records: [String] = []
    var values: [String] = []
    var changes: [String] = []
    var notes: [String] = []
    var error: String? = nil

    var description: String {
      (Array(records.suffix(3)) + changes + notes + [error ?? "no error"]).joined(separator: "\n")
    }
  }

  static func transcript(
    _ path: String, options: ReadOptions, blockSize: Int, inParts: Bool, ahead: Bool = true
  ) -> (Transcript, kept: Int) {
    let (transcript, reader) = Self.reading(
      path, options: options, blockSize: blockSize, inParts: inParts, ahead: ahead)
    return (transcript, reader?.partsKept ?? 0)
  }

  /// The transcript of reading `path`, and the reader (nil when it failed to open).
  static func reading(
    _ path: String, options: ReadOptions, blockSize: Int, inParts: Bool, ahead: Bool
  ) -> (Transcript, DataReader?) {
    var transcript = Transcript()
    var reader: DataReader? = nil
    var records: [DataRecord] = []
    var changes: [String: String] = [:]
    do throws(DataError) {
      // (A small sample, so that the schema grows as the file is read.)
      let opened = try DataReader(
        path: path, format: nil, options: options, blockSize: blockSize, sample: 20,
        readsAhead: ahead)
      reader = opened
      opened.readsInParts = inParts
      while let block = try opened.next() {
        records += block
        for change in opened.takeSchemaChanges() where changes["\(change.path)"] == nil {
          changes["\(change.path)"] = Self.placeOnly(change.place)
        }
        for warning in opened.takeWarnings() {
          transcript.notes.append(Self.placeOnly(warning))
        }
      }
      transcript.values = records.map { "\(opened.redecoded($0).values)" }
      // (The fields, not the schema's description: that prints a dictionary, in any order.)
      for field in opened.schema.fields {
        transcript.notes.append("field \(field.name) \(field.type) \(field.isOptional)")
      }
      transcript.notes += opened.conversionSummary
      transcript.changes = changes.sorted { $0.key < $1.key }.map { "\($0) \($1)" }
    } catch {
      transcript.error = error.description
    }
    transcript.records = records.map { String(decoding: $0.text, as: UTF8.self) }
    return (transcript, reader)
  }

  /// A diagnostic's message and place, without the line it shows: at tiny block sizes the
  /// buffer may end inside that line when a warning is made, and show less of it.
  static func placeOnly(_ diagnostic: DataError) -> String {
    diagnostic.description.split(separator: "\n").prefix(2).joined(separator: "\n")
  }

  /// Random JSON Lines, a JSON array (of a record a line) or CSV of `count` records: text
  /// with escapes, commas and (quoted, in CSV) line breaks, a price that turns decimal or text somewhere, a key first seen late,
  /// JSON records written over two lines, blank lines, CRLF line ends; with `broken`, one
  /// malformed record.
  static func data(
    _ random: inout SplitMix64, csv: Bool, array: Bool = false, count: Int, broken: Bool
  ) -> String {
    let names = ["a", "b c", "d,e", "quote \\\"q\\\"", "é", "line\\nbreak"]
    let widenAt = random.chance(0.5) ? random.int(0...count) : count + 1
    let brokenAt = broken ? random.int(0...(count - 1)) : -1
    let crlf = random.chance(0.3)
    let end = crlf ? "\r\n" : "\n"
    var text = csv ? "id,name,price,note" + end : ""
    for row in 0..<count {
      let price =
        row >= widenAt ? random.pick(["12.5", "\"cheap\"", "7"]) : String(random.int(0...999))
      let name = random.pick(names)
      if csv {
        let cell = name.replacingOccurrences(of: "\\\"", with: "\"\"")
          .replacingOccurrences(of: "\\n", with: "\n")
        let quoted = cell.contains(",") || cell.contains("\"") || cell.contains("\n")
        let note = random.chance(0.1) ? "\"two\(end)lines\"" : (row > count / 2 ? "late" : "")
        var line =
          "\(row),\(quoted ? "\"\(cell)\"" : cell),\(price.replacingOccurrences(of: "\"", with: "")),\(note)"
        if row == brokenAt { line += ",extra" }
        text += line + end
      } else {
        let late = row > count / 2 && random.chance(0.2) ? ", \"late\": true" : ""
        let gap = random.chance(0.05) ? end : " "
        var line = "{\"id\": \(row),\(gap)\"name\": \"\(name)\", \"price\": \(price)\(late)}"
        if row == brokenAt {
          line = random.pick(["{\"id\": \(row) \"x\": 1}", "{\"id\": 1", "[1]"])
        }
        // In a JSON array, each record is followed by a comma on its line (now and then on
        // the next; a broken record may have none).
        if array {
          let comma =
            row == count - 1
            ? "]"
            : row == brokenAt && random.chance(0.5) ? "" : random.chance(0.05) ? end + "," : ","
          line = (row == 0 ? "[" : "") + line + comma
        }
        text += line + end
      }
      if random.chance(0.02) { text += end }
    }
    return text
  }

  /// Whether two transcripts of a file agree: they are the same; or both end in the same
  /// error, and one's records and notes begin the other's. (Records come in blocks, and an
  /// error ends the reading: a block read before it, and a schema change reported after that
  /// block, are seen or not as the blocks fall.)
  static func agree(_ a: Transcript, _ b: Transcript) -> Bool {
    guard a != b else { return true }
    guard let error = a.error, error == b.error else { return false }
    func begins(_ x: [String], _ y: [String]) -> Bool {
      x.count <= y.count ? Array(y.prefix(x.count)) == x : Array(x.prefix(y.count)) == y
    }
    return begins(a.records, b.records) && begins(a.notes, b.notes)
  }

  /// The first record or note where `a` and `b` differ.
  static func difference(_ a: Transcript, _ b: Transcript) -> String {
    for (x, y) in [
      (a.records, b.records), (a.values, b.values), (a.changes, b.changes), (a.notes, b.notes),
    ] {
      if let (i, (p, q)) = zip(x, y).enumerated().first(where: { $0.1.0 != $0.1.1 }) {
        return "#\(i): \(p) against \(q)"
      }
      if x.count != y.count {
        return "\(x.count) against \(y.count): \(x.last ?? "") / \(y.last ?? "")"
      }
    }
    return "\(a.error ?? "no error") against \(b.error ?? "no error")"
  }

  @Test(arguments: ["jsonl", "csv", "json"])
  func partsReadWhatReadingInTurnReads(format: String) throws {
    var kept = 0
    let (csv, array) = (format == "csv", format == "json")
    for seed in UInt64(1)...12 {
      var random = SplitMix64(seed: seed &* 7_919 &+ (csv ? 1 : array ? 2 : 0))
      let broken = seed % 4 == 0
      let text = Self.data(
        &random, csv: csv, array: array, count: random.int(20...400), broken: broken)
      let path = try DataFiles.write(text, "parts-\(seed).\(format)")
      let options = seed % 3 == 0 ? ReadOptions(types: ["price": .int]) : ReadOptions()
      for size in [64, 333, 1_000, 4_096] {
        // (At the same block size: a schema grows by what the buffer holds of the records
        // after the first that needs it.)
        let (inTurn, _) = Self.transcript(path, options: options, blockSize: size, inParts: false)
        let (inParts, partsKept) = Self.transcript(
          path, options: options, blockSize: size, inParts: true)
        kept += partsKept
        let same = Self.agree(inParts, inTurn)
        #expect(same, "seed \(seed), block size \(size): \(Self.difference(inParts, inTurn))")
        if !same { return }
      }
    }
    // (The parts were kept, not always declined: the comparison compared something.)
    #expect(kept > 10)
  }

  @Test func aMissingCommaInAJSONArrayIsFoundAtTheCut() throws {
    // The record just before the line end where the reader cuts a buffer lacks the comma
    // after it: the second part must not begin as if the comma were there.
    let count = 10_000
    var lines = (0..<count).map { #"{"id": \#($0), "name": "n\#($0 % 7)"},"# }
    lines[count - 1].removeLast()
    func read(_ lines: [String]) throws -> (Transcript, cuts: [Int]) {
      let path = try DataFiles.write(
        "[\n" + lines.joined(separator: "\n") + "\n]\n", "comma.json")
      let reader = try DataReader(path: path, format: nil, blockSize: 1 << 20, sample: 20)
      var transcript = Transcript()
      do throws(DataError) {
        while let block = try reader.next() { transcript.records += block.map { "\($0.values)" } }
      } catch {
        transcript.error = error.description
      }
      return (transcript, reader.cuts)
    }
    let (whole, cuts) = try read(lines)
    #expect(whole.error == nil && whole.records.count == count)
    // The line that ends at the first cut ("[\n" first, then a line and its line end each).
    let cut = try #require(cuts.first)
    var (offset, line) = (2, 0)
    while offset + lines[line].utf8.count + 1 < cut {
      offset += lines[line].utf8.count + 1
      line += 1
    }
    #expect(offset + lines[line].utf8.count + 1 == cut)
    // (A space for the comma: every offset stays, and so does the cut.)
    lines[line] = lines[line].dropLast() + " "
    let (broken, brokenCuts) = try read(lines)
    #expect(brokenCuts.first == cut)
    #expect(broken.error?.contains("expected ',' or ']'") == true)
    #expect(broken.records.count <= line + 1)
  }

  @Test func aCutInsideAQuotedLineBreakIsNotARecordsEnd() throws {
    // Every row's last cell holds a line break: a cut just past a line end falls inside a
    // cell half of the time; the first part then ends before that row, and the rows are
    // still the file's.
    var text = "id,note\n"
    for row in 0..<2_000 { text += "\(row),\"first\n\(row),second\"\n" }
    let path = try DataFiles.write(text, "quoted-breaks.csv")
    let (inTurn, _) = Self.transcript(
      path, options: ReadOptions(), blockSize: 1 << 20, inParts: false)
    let (inParts, _) = Self.transcript(
      path, options: ReadOptions(), blockSize: 4_096, inParts: true)
    #expect(inParts == inTurn)
    #expect(inTurn.records.count == 2_000)
  }
}
