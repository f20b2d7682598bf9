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
package enum WaitGraph {
  /// Something a thread can wait for.
  package enum Resource: Equatable {
    case slot(UnsafeRawPointer)
    case registration(ObjectIdentifier)
  }

  /// A waiter: the waiting thread, or the waiting task's `AsyncChain` (`id`); what it waits for;
  /// what it builds, outermost first (stable while it waits).
  package typealias Waiter = (id: UnsafeRawPointer, resource: Resource, chain: [Held])

  /// What a thread's resolution frame, or a task's async resolution, builds: a slot, or a shared
  /// instance of a registration (a resolution may be building both).
  package struct Held: @unchecked Sendable {
    /// The slot's address, or nil for an explicit resolution or an async rule's build.
    ///
    /// Only compared, never read: `@unchecked Sendable`.
    let slot: UnsafeRawPointer?
    let registration: ObjectIdentifier?
    /// What it builds, described only when a message needs it.
    package let what: Step

    /// What it builds, as a resource: the registration's shared instance, else the slot.
    var resource: Resource {
      if let registration {
        return .registration(registration)
      }
      return .slot(slot.unsafelyUnwrapped)
    }

    /// Whether it builds `resource`.
    func holds(_ resource: Resource) -> Bool {
      switch resource {
      case .slot(let address): slot == address
      case .registration(let identifier): registration == identifier
      }
    }
  }

  /// A step of a chain of resolutions, as messages name it.
  package enum Step: Sendable {
    /// A property's type, the container's class, and the property's offset (nil for an explicit
    /// `resolve`).
    case property(Any.Type, in: AnyClass, offset: Int?)
    /// An async rule's build.
    case rule(RuleSource)

    /// `"ResourceLoader in UsersViewController.resourceLoader"`, or without the property's name
    /// for an explicit `resolve`; or the rule.
    var summary: String {
      guard case .property(let property, _, _) = self else { return container }
      return "\(typeName(property)) in \(container)"
    }

    /// `"UsersViewController.resourceLoader"`, the container's class alone for an explicit
    /// `resolve`; or the rule.
    var container: String {
      switch self {
      case .property(_, let containerClass, let offset):
        let name = offset.map { "." + LazyField.name(at: $0, in: containerClass) } ?? ""
        return typeName(containerClass) + name
      case .rule(let source): return "\(source.rule)"
      }
    }
  }

  /// The threads and tasks waiting, in the order they began (the package's tests read them).
  package static let waiters = Protected<[Waiter]>([])

  /// Records that this thread (or, with `task`, the task whose async resolutions it is) is about
  /// to wait for `resource`, or returns the error to report instead if waiting would close a
  /// cycle.
  ///
  /// Call ``didWait(as:)`` when the wait ends, unless this returned an error.
  static func willWait(for resource: Resource, as task: AsyncChain? = nil) -> ResolutionError? {
    let waiter = id(task)
    let chain =
      task?.steps
      ?? ResolutionFrame.chain.map { frame in
        Held(slot: frame.slot, registration: frame.building, what: frame.step)
      }
    // The waiters that hold what this one waits for, and what they wait for in turn, until one
    // waits for what this one holds (a cycle) or none holds what is wanted.
    let hops: [Waiter]? = waiters.withLock { waiters in
      var hops: [Waiter] = []
      var wanted = resource
      while hops.count < waiters.count {
        let holder = waiters.first { other in
          other.id != waiter && other.chain.contains { held in held.holds(wanted) }
        }
        guard let holder else { break }
        hops.append(holder)
        if chain.contains(where: { $0.holds(holder.resource) }) {
          return hops
        }
        wanted = holder.resource
      }
      waiters.append((id: waiter, resource: resource, chain: chain))
      return nil
    }
    guard let hops else { return nil }
    // The message is built after unlocking: other threads may be recording their waits.
    var steps = chain.map(\.what.summary)
    var wanted = resource
    for hop in hops {
      let start = hop.chain.firstIndex { $0.holds(wanted) } ?? 0
      steps += hop.chain[start...].map { "\($0.what.summary) (being built on another thread)" }
      wanted = hop.resource
    }
    if let closing = chain.first(where: { $0.holds(wanted) }) {
      steps.append("\(closing.what.summary) (being built on this thread)")
    }
    return .dependencyCycle(steps: steps, acrossThreads: true)
  }

  /// Removes the record of this thread (or of `task`) once its wait has ended.
  static func didWait(as task: AsyncChain? = nil) {
    waiters.withLock { waiters in
      if let index = waiters.lastIndex(where: { $0.id == id(task) }) { waiters.remove(at: index) }
    }
  }

  /// The waiter: `task`'s chain, or else the calling thread.
  private static func id(_ task: AsyncChain?) -> UnsafeRawPointer {
    guard let task else { return _lazyinject_thread_identity() }
    return RawMemory.address(of: task)
  }
}

/// The async resolutions a task is inside, outermost first: what it builds, so that a cycle is
/// reported instead of awaited forever (within the task by `with`, across tasks by `WaitGraph`).
internal final class AsyncChain: Sendable {
  let steps: [WaitGraph.Held]

  init(_ steps: [WaitGraph.Held]) { self.steps = steps }

  @TaskLocal static var current: AsyncChain?

  /// Runs `body` as the step `step` of the calling task, or throws the cycle that `step` closes
  /// (the task builds it already).
  nonisolated(nonsending) static func with<Result>(
    _ step: WaitGraph.Held, operation body: () async throws -> Result
  ) async throws -> Result {
    if let error = cycle(closedBy: step) { throw error }
    let steps = current?.steps ?? []
    return try await $current.withValue(AsyncChain(steps + [step]), operation: body)
  }

  /// The cycle error if the calling task builds what `step` names already.
  static func cycle(closedBy step: WaitGraph.Held) -> ResolutionError? {
    let steps = current?.steps ?? []
    guard steps.contains(where: { $0.holds(step.resource) }) else { return nil }
    return .dependencyCycle(steps: steps.map(\.what.summary) + [step.what.summary])
  }
}
