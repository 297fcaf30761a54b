import Foundation

/// Runs `body` on a thread with a 512 KiB stack (what Apple platforms give secondary threads)
/// and waits for it. A stack overflow there kills the test process, so a passing test proves
/// the code stays within that stack.
public func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
  onThread(stackSize: 512 * 1024, body)
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it.
public func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
  let box = ResultBox<T>()
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    box.value = body()
    done.signal()
  }
  thread.stackSize = stackSize
  thread.start()
  done.wait()
  guard let value = box.value else { preconditionFailure("thread produced no value") }
  return value
}

/// Carries a result from the helper thread; the semaphore orders the write before the read.
private final class ResultBox<T>: @unchecked Sendable {
  var value: T?
}
