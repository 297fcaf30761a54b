import Dispatch

/// Hands items from one thread to another in order, with at most `capacity` waiting: the
/// thread that reads a file parses the next block while another builds columns from the last.
/// `nil` is the end.
final class Handoff<Item: Sendable>: @unchecked Sendable {
  // Unchecked: `items` is only touched while `lock` is held.
  private var items: [Item?] = []
  private var first = 0
  private var returned: [Item] = []
  private let lock = DispatchSemaphore(value: 1)
  private let waiting = DispatchSemaphore(value: 0)
  private let space: DispatchSemaphore

  /// A handoff that holds at most `capacity` items the receiver has not taken.
  init(capacity: Int) { space = DispatchSemaphore(value: Swift.max(1, capacity)) }

  /// Passes `item` (nil: the end) on, waiting while `capacity` items wait already.
  func send(_ item: Item?) {
    space.wait()
    lock.wait()
    items.append(item)
    lock.signal()
    waiting.signal()
  }

  /// Gives `item` back to the sender, once used, to be freed on its thread: memory freed on
  /// another thread than the one that allocated it waits for that thread's allocator lock
  /// (glibc's arenas), which cost the sender 6% of a load.
  func giveBack(_ item: Item) {
    lock.wait()
    returned.append(item)
    lock.signal()
  }

  /// The items given back since the last call.
  func takeBack() -> [Item] {
    lock.wait()
    defer { lock.signal() }
    let items = returned
    returned = []
    return items
  }

  /// The next item sent, waiting for it; nil at the end.
  func receive() -> Item? {
    waiting.wait()
    lock.wait()
    let item = items[first]
    items[first] = nil
    first += 1
    if first == items.count { (items, first) = ([], 0) }
    lock.signal()
    space.signal()
    return item
  }
}

/// Runs `work` on a thread of its own; ``result()`` waits for it to end and gives what it
/// returned. (Its own serial queue, which gets a thread even when every thread of the
/// system's pool waits, so a caller on the pool that waits for the worker cannot deadlock.)
final class Worker<Result: Sendable>: @unchecked Sendable {
  // Unchecked: `value` is written once by the worker before `done` is signalled, and read
  // only after waiting on `done`.
  private var value: Result?
  private let done = DispatchSemaphore(value: 0)

  /// Starts `work`.
  init(_ work: @escaping @Sendable () -> Result) {
    DispatchQueue(label: "flt.worker").async {
      self.value = work()
      self.done.signal()
    }
  }

  /// What `work` returned, once it has (never nil: `value` is set before `done` is
  /// signalled).
  func result() -> Result? {
    done.wait()
    done.signal()
    return value
  }
}
