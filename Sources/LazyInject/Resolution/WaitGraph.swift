import _LazyInjectShims

/// What blocked threads wait for, so that a cycle across threads is reported instead of hanging.
///
/// A thread about to wait for a value another thread is building (a `@Lazy` slot in flight, or
/// a `.singleton`/`.weak` instance) first records what it waits for and what it is building
/// itself (its resolution frames), then follows the chain: who builds what I wait for, and what
/// does that thread wait for? If the chain comes back to a value this thread builds, waiting
/// would never end: the thread reports the cycle instead. A chain that reaches a thread that is
/// not waiting (merely slow) means no cycle, and the thread waits. The last thread to close a
/// cycle is the one that finds it, since every other thread in it is recorded by then.
internal enum WaitGraph {
  /// Something a thread can wait for.
  enum Resource: Equatable {
    case slot(UnsafeRawPointer)
    case registration(ObjectIdentifier)
  }

  private struct Waiter {
    let thread: UnsafeRawPointer
    let resource: Resource
    /// The waiting thread's resolutions, outermost first: what it builds.
    ///
    /// Stable while it waits.
    let chain: [ResolutionFrame]
  }

  private static let waiters = Protected<[Waiter]>([])

  /// Records that this thread is about to wait for `resource`, or returns the error to report
  /// instead if waiting would close a cycle.
  ///
  /// Call ``didWait()`` when the wait ends, unless this returned an error.
  static func willWait(for resource: Resource) -> ResolutionError? {
    let (thread, chain) = (_lazyinject_thread_identity(), ResolutionFrame.chain)
    let hops: [Waiter]? = waiters.withLock { waiters in
      var hops: [Waiter] = []
      var wanted = resource
      while hops.count < waiters.count,
        let holder = waiters.first(where: { waiter in
          waiter.thread != thread && waiter.chain.contains { $0.holds(wanted) }
        })
      {
        hops.append(holder)
        if chain.contains(where: { $0.holds(holder.resource) }) { return hops }
        wanted = holder.resource
      }
      waiters.append(Waiter(thread: thread, resource: resource, chain: chain))
      return nil
    }
    guard let hops else { return nil }
    // The message is built after unlocking: other threads may be recording their waits.
    var (steps, wanted) = (chain.map(\.summary), resource)
    for hop in hops {
      let start = hop.chain.firstIndex { $0.holds(wanted) } ?? 0
      steps += hop.chain[start...].map { "\($0.summary) (being built on another thread)" }
      wanted = hop.resource
    }
    if let closing = chain.first(where: { $0.holds(wanted) }) {
      steps.append("\(closing.summary) (being built on this thread)")
    }
    return .dependencyCycle(steps: steps, isDepthLimit: false, acrossThreads: true)
  }

  /// Removes this thread's record once its wait has ended.
  static func didWait() {
    let thread = _lazyinject_thread_identity()
    waiters.withLock { waiters in
      if let index = waiters.lastIndex(where: { $0.thread == thread }) { waiters.remove(at: index) }
    }
  }
}

extension ResolutionFrame {
  /// Whether this resolution is building `resource`.
  fileprivate func holds(_ resource: WaitGraph.Resource) -> Bool {
    switch resource {
    case .slot(let address): slot == address
    case .registration(let identifier): building == identifier
    }
  }
}
