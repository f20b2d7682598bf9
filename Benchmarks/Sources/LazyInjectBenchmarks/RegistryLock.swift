import Dispatch
import Foundation
import LazyInject

// Work under the registry lock: thread A makes a call that reads every registration of one
// property type (a miss, or `description`), while thread B resolves another property type from
// the same registry without pause. Each of B's resolutions takes the registry's lock, so the
// longest one that overlaps A's call is how long A's call held the lock.

/// The property type registered once for each of many generated container classes.
final class PerContainerService {}

/// A container class with no registration of `PerContainerService`: resolving for it misses.
final class UnregisteredContainer {}

/// One call of thread A: its time, and the longest single resolution thread B saw meanwhile.
struct LockedCall {
  let operation: String
  let nanoseconds: Double
  let longestWaitNanoseconds: Double
}

/// The calls measured over a registry of `registrations` registrations of one property type.
struct RegistryLockMeasurement {
  let registrations: Int
  let rounds: Int
  let calls: [LockedCall]
}

/// The handshake between the threads: A opens a window when its call starts and closes it when
/// the call returns; B records every resolution that overlaps the window.
private final class WaitProbe: @unchecked Sendable {
  private let lock = NSLock()
  // Everything below is read and written with `lock` held.
  private var window: (start: UInt64, end: UInt64?)?
  private var longest: UInt64 = 0
  private var isStarted = false
  private var isStopping = false
  private var checksum = 0

  /// Signalled by B after its first resolution.
  let started = DispatchSemaphore(value: 0)
  /// Signalled by B when a resolution starts after the closed window: none of B's can still
  /// overlap it.
  let windowDone = DispatchSemaphore(value: 0)
  /// Signalled by B when it stops.
  let finished = DispatchSemaphore(value: 0)

  /// B, after each resolution; returns whether B goes on.
  func record(start: UInt64, end: UInt64) -> Bool {
    lock.withLock {
      if !isStarted {
        isStarted = true
        started.signal()
      }
      if let window, end >= window.start {
        if let windowEnd = window.end, start > windowEnd {
          self.window = nil
          windowDone.signal()
        } else {
          longest = max(longest, end - start)
        }
      }
      return !isStopping
    }
  }

  /// A, as its call starts.
  func open(at start: UInt64) {
    lock.withLock {
      window = (start, nil)
      longest = 0
    }
  }

  /// A, once its call has returned: waits for B to pass the window's end, then returns the
  /// longest resolution of B that overlapped the window.
  func close(at end: UInt64) -> UInt64 {
    lock.withLock { window?.end = end }
    windowDone.wait()
    return lock.withLock { longest }
  }

  /// B, as it stops.
  func finish(checksum sum: Int) {
    lock.withLock { checksum = sum }
    finished.signal()
  }

  /// A: stops B, waits for it, and returns its checksum.
  func stop() -> Int {
    lock.withLock { isStopping = true }
    finished.wait()
    return lock.withLock { checksum }
  }
}

/// Thread B: resolves `Service` for a `Consumer` from `registry` until `probe` stops it.
private func startResolving(from registry: InitializerRegistry, probe: WaitProbe) {
  Thread.detachNewThread {
    let consumer = Consumer()
    var sum = 0
    var goesOn = true
    while goesOn {
      let start = DispatchTime.now().uptimeNanoseconds
      sum &+= (try? registry.resolve(Service.self, for: consumer))?.value ?? 0
      let end = DispatchTime.now().uptimeNanoseconds
      goesOn = probe.record(start: start, end: end)
    }
    probe.finish(checksum: sum)
  }
}

/// A miss and `description` over `settings.largestRegistry` registrations of one property type,
/// each for a container class of its own, timed on this thread while another thread resolves
/// from the same registry; each figure is the median of a few rounds.
func measureRegistryLock(_ settings: RunSettings) -> RegistryLockMeasurement {
  let count = settings.largestRegistry
  let registry = InitializerRegistry()
  register(
    (0..<count).map { (property: PerContainerService.self, container: generatedContainer($0)) },
    into: registry)
  registry.register(Service.self, in: Consumer.self) { _ in Service() }
  let operations: [(name: String, run: () -> Int)] = [
    (
      "`resolve(_:for:)` that misses, and the error's `description`",
      {
        do {
          _ = try registry.resolve(PerContainerService.self, for: UnregisteredContainer())
          return 0
        } catch {
          return "\(error)".utf8.count
        }
      }
    ),
    ("`registry.description`", { registry.description.utf8.count }),
  ]
  let rounds = max(1, settings.rounds / 10)
  let probe = WaitProbe()
  startResolving(from: registry, probe: probe)
  probe.started.wait()
  // The last row is the reference: thread A busy for as long as the miss took, without the
  // registry, shows how long B's resolutions take with no lock held (the machine's noise).
  let names = operations.map(\.name) + ["none: A computes for as long as the miss took"]
  var times = Array(repeating: [Double](), count: names.count)
  var waits = Array(repeating: [Double](), count: names.count)
  func time(_ index: Int, _ body: () -> Int) {
    let start = DispatchTime.now().uptimeNanoseconds
    probe.open(at: start)
    consume(body())
    let end = DispatchTime.now().uptimeNanoseconds
    waits[index].append(Double(probe.close(at: end)))
    times[index].append(Double(end - start))
  }
  for _ in 0..<rounds {
    for (index, operation) in operations.enumerated() {
      time(index, operation.run)
    }
    let missNanoseconds = UInt64(times[0].last!)
    time(operations.count) { spin(nanoseconds: missNanoseconds) }
  }
  consume(probe.stop())
  return RegistryLockMeasurement(
    registrations: count, rounds: rounds,
    calls: names.indices.map {
      LockedCall(
        operation: names[$0], nanoseconds: median(times[$0]),
        longestWaitNanoseconds: median(waits[$0]))
    })
}

/// Keeps this thread busy for `nanoseconds`, touching no lock; returns the loops it made.
private func spin(nanoseconds: UInt64) -> Int {
  let start = DispatchTime.now().uptimeNanoseconds
  var loops = 0
  while DispatchTime.now().uptimeNanoseconds - start < nanoseconds {
    loops += 1
  }
  return loops
}
