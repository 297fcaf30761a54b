/// One step of a resolved path: the slot in a record, and whether the value stepped from is a
/// list of records (the rest of the path is then read in each of them).
public struct PathStep: Hashable, Sendable {
  /// The field's slot in the record stepped into.
  public let slot: Int
  /// Whether the value stepped from is a list of records.
  public let throughList: Bool

  /// A step to `slot`, through a list of records when `throughList`.
  public init(slot: Int, throughList: Bool) {
    self.slot = slot
    self.throughList = throughList
  }
}
