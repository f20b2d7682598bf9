import _LazyInjectShims

// The gate of every registry operation: the lock, the installation of automatic modules on the
// first use, waiting for another thread, and the one place that empties the express table.

extension InitializerRegistry {
  /// Whether the automatic modules of ``shared`` are installed; every other registry starts
  /// `.installed`.
  internal enum AutomaticModules {
    case pending
    case installing(thread: UnsafeRawPointer)
    /// The program's conformance is isolated to the main actor and the first use was elsewhere:
    /// the main actor installs (a job on the main queue, or its own next use of the registry)
    /// while the other threads wait.
    case awaitingMainActor
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
        guard claimInstallation() else {
          return try body()
        }
        return nil
      }
      if let result {
        return result
      }
      installAutomaticModules()
    }
  }

  /// Waits while another thread installs the automatic modules, then claims the installation if
  /// it is this thread's to do; returns whether it claimed it.
  ///
  /// Call with `lock` held.
  private func claimInstallation() -> Bool {
    let thread = _lazyinject_thread_identity()
    var waitedForMainActor = 0
    while true {
      switch automaticModules {
      case .installed:
        return false
      case .installing(let installer):
        if installer == thread {
          return false  // A module registering.
        }
        waitForAnotherThread()
      case .awaitingMainActor:
        if isOnMainActor() {
          automaticModules = .installing(thread: thread)
          return true
        }
        let warnAfter = Self.mainActorWaitWarningSeconds
        let slice = min(5, warnAfter)
        waitingThreads += 1
        if !lock.wait(seconds: slice) {
          waitedForMainActor += slice
          // Once: on the wait that reaches `warnAfter`.
          if waitedForMainActor >= warnAfter, waitedForMainActor - slice < warnAfter {
            Self.warnMainActorIsNotRunning(waited: waitedForMainActor)
          }
        }
        waitingThreads -= 1
      case .pending:
        automaticModules = .installing(thread: thread)
        return true
      }
    }
  }

  /// Says that this thread has waited `waited` seconds for the main actor to install the
  /// automatic modules: if the main thread waits for this one, neither will ever go on.
  private static func warnMainActorIsNotRunning(waited: Int) {
    writeToStandardError(
      """
      LazyInject warning: InitializerRegistry.shared was first used off the main actor, and the \
      program's AutomaticModuleInstallation conformance is isolated to the main actor, so the \
      automatic modules are installed on the main actor. This thread has waited \(waited) s for \
      it: if the main thread waits for this thread, neither will go on.
      Fix: first use InitializerRegistry.shared on the main actor (at launch, or in a test's \
      set-up), or make the conformance and its modules nonisolated \
      (`nonisolated extension InitializerRegistry: @retroactive AutomaticModuleInstallation`).

      """)
    mainActorWait.withLock { $0.warned }?()
  }

  /// How long a thread waits for the main actor to install the automatic modules before it
  /// warns, and what hears the warning.
  private struct MainActorWait {
    var warnAfterSeconds = 10
    var warned: (@Sendable () -> Void)?
  }

  private static let mainActorWait = Protected(MainActorWait())

  /// The seconds a thread waits for the main actor to install the automatic modules before it
  /// warns that the main thread may be waiting for it: 10 unless set, and never less than 1.
  ///
  /// For the package's tests.
  package static var mainActorWaitWarningSeconds: Int {
    get { mainActorWait.withLock { $0.warnAfterSeconds } }
    set { mainActorWait.withLock { $0.warnAfterSeconds = max(1, newValue) } }
  }

  /// Called just after that warning is written, with the registry's lock held.
  ///
  /// For the package's tests.
  package static var mainActorWaitWarned: (@Sendable () -> Void)? {
    get { mainActorWait.withLock { $0.warned } }
    set { mainActorWait.withLock { $0.warned = newValue } }
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
