import Foundation

/// A thread-safe count of events, for tests that count how many instances were built.
final class Counter: Sendable {
  private let lock = NSLock()
  // Guarded by `lock`.
  nonisolated(unsafe) private var count = 0

  var value: Int { lock.withLock { count } }

  @discardableResult
  func increment() -> Int {
    lock.withLock {
      count += 1
      return count
    }
  }
}

/// Runs `body` on `threads` threads at once, released together, and waits for all of them.
func runConcurrently(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let group = DispatchGroup()
  let start = DispatchSemaphore(value: 0)
  for index in 0..<threads {
    group.enter()
    Thread.detachNewThread {
      start.wait()
      body(index)
      group.leave()
    }
  }
  for _ in 0..<threads { start.signal() }
  group.wait()
}
