import Testing

@testable import FilterSession

/// The line editor is a state machine: these tests feed it the bytes a terminal sends.
@Suite struct LineEditorTests {
  /// The editor after `bytes`, and the actions it returned.
  func type(_ bytes: [UInt8], history: [String] = []) -> (LineEditor, [LineEditor.Action]) {
    var decoder = KeyDecoder()
    var editor = LineEditor(history: history)
    let actions = decoder.feed(bytes).map { editor.handle($0) }
    return (editor, actions)
  }

  func bytes(_ parts: Any...) -> [UInt8] {
    parts.flatMap { part -> [UInt8] in
      if let text = part as? String { return Array(text.utf8) }
      if let byte = part as? UInt8 { return [byte] }
      return part as? [UInt8] ?? []
    }
  }

  static let esc: UInt8 = 0x1B
  let left = [esc, 0x5B, 0x44]
  let right = [esc, 0x5B, 0x43]
  let up = [esc, 0x5B, 0x41]
  let down = [esc, 0x5B, 0x42]
  let home = [esc, 0x5B, 0x48]
  let end = [esc, 0x4F, 0x46]
  let delete = Array("\u{1B}[3~".utf8)
  let ctrlLeft = Array("\u{1B}[1;5D".utf8)
  let ctrlRight = Array("\u{1B}[1;5C".utf8)

  @Test func typingAndArrows() {
    let (editor, _) = type(bytes("pric", left, left, "X", right, right, "e", home, "!", end, "?"))
    #expect(editor.text == "!prXice?")
    #expect(editor.cursor == 8)
  }

  @Test func backspaceAndDelete() {
    let (editor, _) = type(bytes("abcd", left, left, UInt8(0x7F), delete))
    #expect(editor.text == "ad")
    #expect(editor.cursor == 1)
    let (start, actions) = type(bytes(UInt8(0x7F), delete))
    #expect(start.text.isEmpty)
    #expect(actions == [.none, .none])
  }

  @Test func ctrlKeys() {
    // Ctrl-A, Ctrl-E, Ctrl-B, Ctrl-F move; Ctrl-K, Ctrl-U, Ctrl-W delete.
    #expect(type(bytes("bc", UInt8(0x01), "a", UInt8(0x05), "d")).0.text == "abcd")
    #expect(type(bytes("ac", UInt8(0x02), "b", UInt8(0x06), "d")).0.text == "abcd")
    #expect(type(bytes("count price", UInt8(0x02), UInt8(0x02), UInt8(0x0B))).0.text == "count pri")
    #expect(type(bytes("count price", UInt8(0x02), UInt8(0x15))).0.text == "e")
    #expect(type(bytes("count price < ", UInt8(0x17))).0.text == "count ")
    #expect(type(bytes("count price", [Self.esc, 0x7F])).0.text == "count ")
  }

  @Test func wordJumps() {
    let text = "count camera.megapixels >= 48"
    let (back, _) = type(bytes(text, ctrlLeft, ctrlLeft, "X"))
    #expect(back.text == "count camera.Xmegapixels >= 48")
    let (alt, _) = type(bytes(text, UInt8(0x01), [Self.esc, 0x66], [Self.esc, 0x66], "X"))
    #expect(alt.text == "count cameraX.megapixels >= 48")
    let (forward, _) = type(bytes(text, home, ctrlRight, "X", [Self.esc, 0x62], "Y"))
    #expect(forward.text == "YcountX camera.megapixels >= 48")
  }

  @Test func enterSubmitsAndClears() {
    let (editor, actions) = type(bytes("count\r"))
    #expect(actions.last == .submit("count"))
    #expect(editor.text.isEmpty)
  }

  @Test func ctrlCCancelsAndCtrlDEndsOnlyAnEmptyLine() {
    let (cancelled, actions) = type(bytes("junk", UInt8(0x03)))
    #expect(actions.last == .cancel)
    #expect(cancelled.text.isEmpty)
    #expect(type(bytes(UInt8(0x04))).1 == [.endOfInput])
    let (deleting, more) = type(bytes("ab", left, UInt8(0x04)))
    #expect(more.last == .redraw)
    #expect(deleting.text == "a")
  }

  @Test func historyUpAndDownKeepTheDraft() {
    let history = ["count", "price < 500"]
    let (editor, _) = type(bytes("dra", up), history: history)
    #expect(editor.text == "price < 500")
    #expect(type(bytes("dra", up, up, up), history: history).0.text == "count")
    #expect(type(bytes("dra", up, up, down, down), history: history).0.text == "dra")
    var remembering = LineEditor(history: history)
    remembering.remember("count")
    remembering.remember("   ")
    remembering.remember("count")
    // An entry typed again moves to the end; it is not kept twice.
    #expect(remembering.history == ["price < 500", "count"])
  }

  static let ctrlR: UInt8 = 0x12

  @Test func ctrlRSearchesTheHistoryBackwards() {
    let history = ["count price < 500", "facets color", "count price > 2000", "color == Gold"]
    // Typing narrows to the newest entry holding the text, the cursor on the match.
    var (editor, _) = type(bytes("draft", Self.ctrlR, "pri"), history: history)
    #expect(editor.text == "count price > 2000" && editor.cursor == 6)
    #expect(editor.searchPrompt == "(search 'pri'): ")
    // Ctrl-R again: the next older one.
    (editor, _) = type(bytes("draft", Self.ctrlR, "pri", Self.ctrlR), history: history)
    #expect(editor.text == "count price < 500")
    // Nothing older: the search fails, the last entry found stays.
    (editor, _) = type(bytes(Self.ctrlR, "pri", Self.ctrlR, Self.ctrlR), history: history)
    #expect(editor.text == "count price < 500" && editor.searchPrompt == "(failed search 'pri'): ")
    // No entry holds it at all.
    (editor, _) = type(bytes("draft", Self.ctrlR, "zzz"), history: history)
    #expect(editor.text == "draft" && editor.searchPrompt == "(failed search 'zzz'): ")
    // Backspace widens the search again, from the newest.
    (editor, _) = type(bytes(Self.ctrlR, "colr", UInt8(0x7F), UInt8(0x7F)), history: history)
    #expect(editor.text == "color == Gold" && editor.searchPrompt == "(search 'co'): ")
  }

  @Test func ctrlRLeavesWithEnterAKeyOrCtrlG() {
    let history = ["count price < 500", "facets color"]
    // Enter runs the entry found.
    let (_, ran) = type(bytes(Self.ctrlR, "fac", "\r"), history: history)
    #expect(ran.last == .submit("facets color"))
    // An editing key keeps it to edit: End, then typing.
    let (kept, _) = type(bytes(Self.ctrlR, "fac", end, " where price < 500"), history: history)
    #expect(kept.text == "facets color where price < 500" && kept.searchPrompt == nil)
    // Ctrl-G and Ctrl-C put back the line as it was, cursor and all.
    for key: UInt8 in [0x07, 0x03] {
      let (back, _) = type(bytes("draft", left, Self.ctrlR, "fac", key), history: history)
      #expect(back.text == "draft" && back.cursor == 4 && back.searchPrompt == nil)
    }
  }

  @Test func tabAsksForCompletion() {
    var editor = LineEditor()
    #expect(editor.handle(.tab) == .complete)
    editor.insert("count color == Sp")
    editor.replace(before: 2, with: "\"Space Black\" ")
    #expect(editor.text == "count color == \"Space Black\" ")
  }

  @Test func sequencesSplitAcrossReadsAndUTF8() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([Self.esc]).isEmpty)
    #expect(decoder.feed([0x5B]).isEmpty)
    #expect(decoder.feed([0x44]) == [.left])
    let e = Array("é".utf8)
    #expect(decoder.feed([e[0]]).isEmpty)
    #expect(decoder.feed([e[1]]) == [.text("é")])
    #expect(decoder.feed([0xFF, 0x41]) == [.ignored, .text("A")])
    #expect(decoder.feed([Self.esc]).isEmpty)
    #expect(decoder.flush() == [.ignored])
  }

  @Test func everyByteSequenceIsSafe() {
    // Random bytes never trap, and the cursor always stays inside the line.
    var seed: UInt64 = 7
    for _ in 0..<200 {
      var input: [UInt8] = []
      for _ in 0..<200 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1
        input.append(UInt8(truncatingIfNeeded: seed >> 56))
      }
      let (editor, _) = type(input, history: ["a", "bb"])
      #expect(editor.cursor >= 0 && editor.cursor <= editor.characters.count)
    }
  }

  @Test func longLinesScrollToKeepTheCursorVisible() {
    var editor = LineEditor()
    editor.insert("0123456789abcdefghij")
    let end = editor.visible(columns: 10)
    #expect(end == ("bcdefghij", 0))
    for _ in 0..<15 { _ = editor.handle(.left) }
    let middle = editor.visible(columns: 10)
    #expect(middle.text.hasPrefix("5"))
    #expect(middle.columnsAfterCursor == 9)
    _ = editor.handle(.home)
    #expect(editor.visible(columns: 10) == ("012345678", 9))
    var short = LineEditor()
    short.insert("count")
    #expect(short.visible(columns: 10) == ("count", 0))
    var wide = LineEditor()
    wide.insert("色色色色色色色色")
    #expect(wide.visible(columns: 10).text == "色色色色")
  }
}
