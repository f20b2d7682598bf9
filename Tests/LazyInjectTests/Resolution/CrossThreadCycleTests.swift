import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

// Two objects whose initializers read each other's property, entered from two threads at once.
// Semaphores make both builds start before either reads the other's, so the threads always wait
// for each other: the schedule that used to hang.

final class CrossX {
  final class A: Sendable {}
  @Lazy var a: A
  var peer: CrossY!
}

final class CrossY {
  final class B: Sendable {}
  @Lazy var b: B
  var peer: CrossX!
}

private final class Alpha: Sendable {}
private final class Beta: Sendable {}
private final class Anchor {}

/// Makes two builds wait for each other to start, the first time each starts; later builds
/// (after a cycle error, the other thread may retry) pass.
private struct Rendezvous: Sendable {
  private let first = DispatchSemaphore(value: 0)
  private let second = DispatchSemaphore(value: 0)
  private let arrivals = Locked<Set<Int>>([])

  func firstArrives() {
    guard isFirstArrival(of: 1) else { return }
    first.signal()
    second.wait()
  }

  func secondArrives() {
    guard isFirstArrival(of: 2) else { return }
    second.signal()
    first.wait()
  }

  private func isFirstArrival(of side: Int) -> Bool {
    var isFirst = false
    arrivals.mutate { isFirst = $0.insert(side).inserted }
    return isFirst
  }
}

struct CrossThreadCycleTests {
  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func lazyCycleEnteredFromTwoThreadsStopsWithTheCycleAcrossThreads() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          let rendezvous = Rendezvous()
          let registry = InitializerRegistry.shared
          registry.register(CrossX.A.self, in: CrossX.self) { x in
            rendezvous.firstArrives()
            _ = x.peer.b
            return CrossX.A()
          }
          registry.register(CrossY.B.self, in: CrossY.self) { y in
            rendezvous.secondArrives()
            _ = y.peer.a
            return CrossY.B()
          }
          let x = CrossX()
          let y = CrossY()
          x.peer = y
          y.peer = x
          let objects = Handoff(value: (x, y))
          runConcurrently(threads: 2) { index in
            if index == 0 { _ = objects.value.0.a } else { _ = objects.value.1.b }
          }
          failExitTest("both reads returned: no cycle was reported")
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(!output.contains("watchdog"), "the threads hung")
      #expect(output.contains("dependency cycle across threads"))
      #expect(output.contains("CrossX.A in LazyInjectTests.CrossX.a"))
      #expect(output.contains("CrossY.B in LazyInjectTests.CrossY.b"))
      #expect(output.contains("(being built on another thread)"))
    }

    @Test func singletonCycleEnteredFromTwoThreadsThrowsInsteadOfHanging() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let rendezvous = Rendezvous()
        let registry = InitializerRegistry()
        registry.register(Alpha.self, scope: .singleton) { [unowned registry] _ in
          rendezvous.firstArrives()
          _ = try registry.resolve(Beta.self, for: Anchor())
          return Alpha()
        }
        registry.register(Beta.self, scope: .singleton) { [unowned registry] _ in
          rendezvous.secondArrives()
          _ = try registry.resolve(Alpha.self, for: Anchor())
          return Beta()
        }
        let errors = Locked<[any Error]>([])
        runConcurrently(threads: 2) { index in
          do {
            if index == 0 {
              _ = try registry.resolve(Alpha.self, for: Anchor())
            } else {
              _ = try registry.resolve(Beta.self, for: Anchor())
            }
          } catch {
            errors.mutate { $0.append(error) }
          }
        }
        let cycles = errors.value.compactMap { $0 as? ResolutionError }.filter {
          $0.kind == .dependencyCycle
        }
        guard errors.value.count == 2, cycles.count == 2 else {
          failExitTest("expected two cycle errors, got \(errors.value)")
        }
        guard cycles.contains(where: { $0.description.contains("across threads") }) else {
          failExitTest("no error names the cycle across threads: \(cycles)")
        }
      }
    }
  #endif

  @Test func threadWaitingForAMerelySlowBuildStillWaitsForItsValue() throws {
    final class Slow: Sendable {}
    final class Holder {
      @Lazy var slow: Slow
    }
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let registry = InitializerRegistry.shared
    registry.register(Slow.self, in: Holder.self) { _ in
      started.signal()
      release.wait()
      return Slow()
    }
    let holder = Handoff(value: Holder())
    let values = Locked<[ObjectIdentifier]>([])
    runConcurrently(threads: 2) { index in
      if index == 1 {
        started.wait()  // The build is under way on the other thread.
        release.signal()
      }
      let value = holder.value.slow
      values.mutate { $0.append(ObjectIdentifier(value)) }
    }
    #expect(values.value.count == 2)
    #expect(Set(values.value).count == 1)
  }
}
