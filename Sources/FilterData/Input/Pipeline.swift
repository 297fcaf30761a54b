import Dispatch

/// Runs `consume` on a thread of its own over the items sent to it, in order, while the
/// sender goes on making the next ones: the one-shot command parses the next block of a
/// file while the block before is filtered and printed.
///
/// What `consume` reads and changes belongs to the consuming thread while the pipeline runs;
/// the sender may touch it only after ``drain()`` (which waits until every item sent has been
/// consumed) and before its next ``send(_:)``, or after ``finish()``. `consume` returns false
/// to stop: the items sent after are dropped, and ``stopped`` says so to the sender.
package final class Pipeline<Item>: @unchecked Sendable {
  // Unchecked: `consume` and what it captures are used on the worker's thread only, or by
  // the sender while the worker waits (see above); `isStopped` only under `lock`.
  private let handoff = Handoff<Step>(capacity: 2)
  private let drained = DispatchSemaphore(value: 0)
  private let lock = DispatchSemaphore(value: 1)
  private var isStopped = false
  private var worker: Worker<Bool>?

  private enum Step: @unchecked Sendable {
    case item(Item)
    case barrier
  }

  /// A pipeline handing each item to `consume`, on another thread.
  package init(_ consume: @escaping (Item) -> Bool) {
    let box = UncheckedBox(consume)
    worker = Worker { [self] in
      var going = true
      while let step = handoff.receive() {
        switch step {
        case .item(let item):
          // The item goes back to be freed on the sender's thread (see `Handoff.giveBack`).
          defer { handoff.giveBack(.item(item)) }
          guard going else { continue }
          going = box.value(item)
          if !going {
            lock.wait()
            isStopped = true
            lock.signal()
          }
        case .barrier:
          drained.signal()
        }
      }
      return going
    }
  }

  /// Whether `consume` asked to stop (the sender may stop making items).
  package var stopped: Bool {
    lock.wait()
    defer { lock.signal() }
    return isStopped
  }

  /// Hands `item` on (waiting while two items wait already).
  package func send(_ item: Item) {
    handoff.send(.item(item))
    _ = handoff.takeBack()
  }

  /// Waits until every item sent so far has been consumed (or dropped).
  package func drain() {
    handoff.send(.barrier)
    drained.wait()
  }

  /// Ends the pipeline once the items sent are consumed, and waits for that. A pipeline must
  /// be finished (its thread holds it until then).
  package func finish() {
    guard let worker else { return }
    handoff.send(nil)
    _ = worker.result()
    self.worker = nil
  }
}

/// A value that crosses threads as the owner's own rules allow (see ``Pipeline``).
private final class UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
