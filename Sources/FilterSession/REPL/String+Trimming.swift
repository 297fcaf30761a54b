extension String {
  /// Without leading and trailing spaces, tabs and line breaks.
  var trimmingSpaces: String {
    var text = Substring(self)
    while let first = text.first, first.isWhitespace { text.removeFirst() }
    while let last = text.last, last.isWhitespace { text.removeLast() }
    return String(text)
  }
}
