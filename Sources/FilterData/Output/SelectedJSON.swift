/// Selected fields as one JSON object, a dotted selection nested again: `-s model,camera.zoom`
/// writes `{"model": ..., "camera": {"zoom": ...}}`, which flt reads back as the field it came
/// from (a flat `"camera.zoom"` key is a field flt cannot name). A record's own field whose
/// name has a dot stays as it is.
struct SelectedJSON {
  /// A member of an object: a cell, or an object of its own.
  private indirect enum Member {
    case cell(OutputCell)
    case object([(name: String, member: Member)])
  }

  private var members: [(name: String, member: Member)] = []

  /// `selected` in order; `fields` are the record's own names whose dots are part of the name
  /// (not nested).
  init(_ selected: [(name: String, cell: OutputCell)], fields: [String]) {
    let own = Set(fields)
    for (name, cell) in selected {
      let parts = own.contains(name) ? [name[...]] : name.split(separator: ".")
      guard parts.count > 1, !parts.contains(where: \.isEmpty) else {
        // Named whole after a part of it (`-s camera.zoom,camera`): the whole holds the part.
        if let index = members.firstIndex(where: { $0.name == name }) {
          members[index].member = .cell(cell)
        } else {
          members.append((name, .cell(cell)))
        }
        continue
      }
      if !Self.insert(cell, at: parts.map(String.init)[...], into: &members) {
        // Named whole before (`-s camera,camera.zoom`): the key as it is.
        members.append((name, .cell(cell)))
      }
    }
  }

  /// Puts `cell` at `path` inside `members`, making objects on the way; false when a name on
  /// the way is a cell already. (The depth is the selection's dots: bounded by its text.)
  private static func insert(
    _ cell: OutputCell, at path: ArraySlice<String>,
    into members: inout [(name: String, member: Member)]
  ) -> Bool {
    guard let name = path.first else { return false }
    let rest = path.dropFirst()
    guard let index = members.firstIndex(where: { $0.name == name }) else {
      if rest.isEmpty {
        members.append((name, .cell(cell)))
      } else {
        var inner: [(name: String, member: Member)] = []
        _ = insert(cell, at: rest, into: &inner)
        members.append((name, .object(inner)))
      }
      return true
    }
    guard !rest.isEmpty, case .object(var inner) = members[index].member else { return false }
    let done = insert(cell, at: rest, into: &inner)
    members[index].member = .object(inner)
    return done
  }

  /// The object, compact.
  func append(to out: inout [UInt8]) {
    Self.append(members, to: &out)
  }

  private static func append(_ members: [(name: String, member: Member)], to out: inout [UInt8]) {
    out.append(0x7B)
    for (i, (name, member)) in members.enumerated() {
      if i > 0 { out.append(0x2C) }
      JSONText.appendQuoted(name.utf8, to: &out)
      out.append(0x3A)
      switch member {
      case .cell(let cell): cell.appendJSON(to: &out)
      case .object(let inner): append(inner, to: &out)
      }
    }
    out.append(0x7D)
  }
}
