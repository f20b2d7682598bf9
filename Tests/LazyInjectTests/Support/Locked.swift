import Foundation

/// A value guarded by a lock, for results collected from several threads or handlers.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  // Read and written only with `lock` held.
  private var storage: Value

  init(_ value: Value) { storage = value }

  var value: Value { lock.withLock { storage } }

  func mutate(_ body: (inout Value) -> Void) {
    lock.withLock { body(&storage) }
  }

  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.withLock { body(&storage) }
  }
}

/// Hands objects set up on one thread to threads started afterwards (thread creation orders the
/// set-up before them).
///
/// Only for objects whose state the threads share through `@Lazy` properties, which LazyInject
/// guards with its own slot lock.
struct Handoff<Value>: @unchecked Sendable {
  let value: Value
}
