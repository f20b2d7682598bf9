import _LazyInjectShims

// The gate of every registry operation: the lock, the installation of automatic modules on the
// first use, waiting for another thread, and the one place that empties the express table.

extension InitializerRegistry {
  /// Whether the automatic modules of ``shared`` are installed; every other registry starts
  /// `.installed`.
  internal enum AutomaticModules {
    case pending
    case installing(thread: UnsafeRawPointer)
    case installed
  }

  /// Runs `body` with `lock` held, after the automatic modules are installed.
  ///
  /// Every touch of the registry's state comes through here (or `withStateChange`), so the first
  /// touch of ``shared`` of any kind (registering, resolving, explaining, overriding…) installs
  /// the modules, exactly once: a registration made before any resolution is added after them
  /// and wins. Other threads wait while one installs; the installing thread itself passes, so
  /// modules can register.
  internal func withState<Result>(_ body: () throws -> Result) rethrows -> Result {
    while true {
      let result: Result? = try lock.withLock {
        if case .installed = automaticModules {
          return try body()
        }
        let thread = _lazyinject_thread_identity()
        while case .installing(let installer) = automaticModules, installer != thread {
          waitForAnotherThread()
        }
        guard case .pending = automaticModules else {
          return try body()
        }
        automaticModules = .installing(thread: thread)
        return nil
      }
      if let result {
        return result
      }
      installAutomaticModules()
    }
  }

  /// Runs `body`, which changes the rules or drops kept instances, as `withState` does; then,
  /// still under the lock, empties the express table.
  ///
  /// The one place that empties it (`ExpressTable.clear()`): an entry names a registration or a
  /// kept object without retaining it, so it must be gone before the caller releases what
  /// `body` took out, after unlocking.
  internal func withStateChange<Result>(_ body: () throws -> Result) rethrows -> Result {
    try withState {
      defer {
        if self === Self.shared {  // The only registry whose plans the table holds.
          ExpressTable.clear()
        }
      }
      return try body()
    }
  }

  /// Waits for `wakeWaitingThreads()`.
  ///
  /// Call with `lock` held.
  internal func waitForAnotherThread() {
    waitingThreads += 1
    lock.wait()
    waitingThreads -= 1
  }

  /// Wakes the threads in `waitForAnotherThread()`.
  ///
  /// Call with `lock` held.
  internal func wakeWaitingThreads() {
    if waitingThreads > 0 {
      lock.broadcast()
    }
  }
}
