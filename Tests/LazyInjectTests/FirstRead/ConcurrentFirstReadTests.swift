import Foundation
import LazyInject
import Testing
import _LazyInjectShims

private let builtValues = Counter()

private final class Expensive: DefaultInitializable {
  let serial: Int
  init() { serial = builtValues.increment() }
}

// Shared across threads on purpose: `@Lazy` guards its slot with atomics, which is what these
// tests check. A real container shared this way needs its own guard for its other state.
private final class SharedContainer: @unchecked Sendable {
  @Lazy var expensive: Expensive
}

private final class Registered {}

private final class Tagged: Sendable {
  let tag: Int
  init(tag: Int) { self.tag = tag }
}

private final class TaggedContainer: @unchecked Sendable {
  @Lazy var tagged: Tagged
}

private final class Slow {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

private final class SlowContainer: @unchecked Sendable {
  @Lazy var slow: Slow
}

private final class RegisteredContainer: @unchecked Sendable {
  @Lazy var registered: Registered
}

struct ConcurrentFirstReadTests {
  @Test func concurrentAssignmentsReadsAndProjectionsOfOnePropertySeeOnlyItsValues() {
    // Taking the slot's address is a modifying access of the stored property: under the thread
    // sanitizer, each of these paths must take it under the slot lock.
    for _ in 0..<50 {
      let seen = SerialCollector()
      let container = TaggedContainer()
      runConcurrently(threads: 4) { index in
        container.tagged = Tagged(tag: index)
        seen.append(container.tagged.tag)
        seen.append(container.$tagged.isResolved ? -1 : -2)  // Resolved: it was assigned.
      }
      #expect(seen.values.allSatisfy { $0 == -1 || (0..<4).contains($0) })
      #expect((0..<4).contains(container.tagged.tag))
    }
  }

  @Test func concurrentFirstReadsOfOneContainerBuildOneInstance() {
    let rounds = 200
    let threads = 4
    let before = builtValues.value
    for _ in 0..<rounds {
      let container = SharedContainer()
      let seen = SerialCollector()
      runConcurrently(threads: threads) { _ in
        seen.append(container.expensive.serial)
      }
      #expect(Set(seen.values).count == 1)
    }
    #expect(builtValues.value - before == rounds)
  }

  @Test func concurrentFirstReadsRunTheRegisteredInitializerOnce() {
    let calls = Counter()
    InitializerRegistry.shared.register(Registered.self, in: RegisteredContainer.self) { _ in
      calls.increment()
      return Registered()
    }
    for _ in 0..<100 {
      let container = RegisteredContainer()
      runConcurrently(threads: 3) { _ in _ = container.registered }
    }
    #expect(calls.value == 100)
  }
}

extension ConcurrentFirstReadTests {
  @Test func secondReaderWaitsForTheFirstAndGetsItsValue() {
    let built = Counter()
    let secondReaderStarted = DispatchSemaphore(value: 0)
    InitializerRegistry.shared.register(Slow.self, in: SlowContainer.self) { _ in
      let serial = built.increment()
      // Hold the first build until the second reader is parked in LazyInject's wait.
      secondReaderStarted.wait()
      while _lazyinject_waiters_add(0) == 0 { sched_yield() }
      return Slow(serial: serial)
    }
    let container = SlowContainer()
    let serials = SerialCollector()
    runConcurrently(threads: 2) { index in
      if index == 1 {
        // Let the first thread mark the property in flight before this one reads it.
        while built.value == 0 { sched_yield() }
        secondReaderStarted.signal()
      }
      serials.append(container.slow.serial)
    }
    #expect(built.value == 1)
    #expect(serials.values == [1, 1])
  }
}

/// Collects integers from several threads.
final class SerialCollector: Sendable {
  private let lock = NSLock()
  nonisolated(unsafe) private var storage: [Int] = []  // guarded by `lock`

  var values: [Int] { lock.withLock { storage } }

  func append(_ value: Int) {
    lock.withLock { storage.append(value) }
  }
}
