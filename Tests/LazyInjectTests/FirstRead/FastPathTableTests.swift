import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

// Exit tests only: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
#if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
  // The first read of a `@Lazy` property finds kept singletons and `.unique` registrations in an
  // fast path table, without the registry's lock, until a change clears it. These exit tests run
  // in a fresh process, where no override layer was ever made, so that their reads use the table;
  // each reads a pair at least three times first (the third read finds the entry).

  private final class Clock {
    let name: String
    init(_ name: String) { self.name = name }
  }

  private final class Feed {
    let name: String
    init(_ name: String) { self.name = name }
  }

  private final class Dashboard {
    @Lazy var clock: Clock
    @Lazy var feed: Feed
  }

  private final class ObservedDashboard: InjectionObserving {
    @Lazy var clock: Clock
    @Lazy var feed: Feed
    var injected: [String] = []

    func didInject(_ value: Any, intoPropertyNamed name: String) {
      injected.append(name)
    }
  }

  private final class LoopingDashboard {
    @Lazy var feed: Feed
  }

  /// Reads `dashboard`'s clock and feed on `count` new dashboards; returns the last one.
  private func warmUp(_ count: Int = 3) -> Dashboard {
    var dashboard = Dashboard()
    for _ in 0..<count {
      dashboard = Dashboard()
      _ = (dashboard.clock, dashboard.feed)
    }
    return dashboard
  }

  /// Starts the watchdog, and registers in the shared registry a singleton clock ("first") and a
  /// feed ("root"); returns the registry.
  @discardableResult private func sharedRegistryWithClockAndFeed() -> InitializerRegistry {
    startWatchdog()
    let registry = InitializerRegistry.shared
    registry.register(Clock.self, scope: .singleton) { _ in Clock("first") }
    registry.register(Feed.self) { _ in Feed("root") }
    return registry
  }

  struct FastPathTableTests {
    @Test func resetSingletonsIsSeenByTheNextFastPathRead() async {
      await #expect(processExitsWith: .success) {
        let registry = sharedRegistryWithClockAndFeed()
        let kept = warmUp().clock
        guard Dashboard().clock === kept else { failExitTest("the singleton was built twice") }
        weak let released = kept
        registry.resetAllScopes()
        let next = Dashboard().clock
        guard next !== released, Dashboard().clock === next else {
          failExitTest("a read after resetSingletons got the dropped instance")
        }
      }
    }

    @Test func registrationChangesAreSeenByTheNextFastPathRead() async {
      await #expect(processExitsWith: .success) {
        let registry = sharedRegistryWithClockAndFeed()
        _ = warmUp()
        registry.register(Feed.self, in: Dashboard.self) { _ in Feed("dashboard") }
        guard Dashboard().feed.name == "dashboard" else {
          failExitTest("a new, more specific registration was not used")
        }
        registry.unregister(Feed.self, in: Dashboard.self)
        registry.unregister(Feed.self)
        registry.register(Feed.self) { _ in Feed("replaced") }
        _ = warmUp()
        let dashboard = Dashboard()
        guard dashboard.feed.name == "replaced", dashboard.$feed.rule?.isRootDefault == true else {
          failExitTest("a replaced registration was still used")
        }
        registry.unregister(Clock.self)
        registry.register(Clock.self, scope: .singleton) { _ in Clock("second") }
        guard Dashboard().clock.name == "second" else {
          failExitTest("a replaced singleton registration was still used")
        }
      }
    }

    @Test func tracerAndOverridesApplyAfterFastPathReads() async {
      await #expect(processExitsWith: .success) {
        let registry = sharedRegistryWithClockAndFeed()
        _ = warmUp()
        let events = Locked<[String]>([])
        registry.tracer = { event in events.mutate { $0.append(event.rule.propertyTypeName) } }
        _ = warmUp(1)
        registry.tracer = nil
        guard events.value.count == 2 else {
          failExitTest("first reads after setting a tracer were not traced: \(events.value)")
        }
        let mocked = registry.withOverrides {
          $0.register(Feed.self, in: Dashboard.self) { _ in Feed("mock") }
        } operation: {
          Dashboard().feed.name
        }
        guard mocked == "mock", Dashboard().feed.name == "root" else {
          failExitTest("an override layer made after fast path reads was not used")
        }
      }
    }

    @Test func observerHearsFastPathReads() async {
      await #expect(processExitsWith: .success) {
        sharedRegistryWithClockAndFeed()
        for _ in 0..<3 {
          let dashboard = ObservedDashboard()
          _ = (dashboard.clock, dashboard.feed)
          guard dashboard.injected == ["clock", "feed"] else {
            failExitTest("the observer heard \(dashboard.injected)")
          }
        }
      }
    }

    @Test func initializerReadingItsOwnPropertyIsACycleOnTheFastPath() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          let reads = Locked(0)
          InitializerRegistry.shared.register(Feed.self, in: LoopingDashboard.self) { sender in
            // The third read finds the fast path entry, and this initializer loops back.
            let count = reads.withLock { count in
              count += 1
              return count
            }
            if count >= 3 {
              _ = sender.feed
            }
            return Feed("looping")
          }
          for _ in 0..<3 {
            _ = LoopingDashboard().feed
          }
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(!output.contains("watchdog"), "the read waited for itself")
      #expect(output.contains("dependency cycle"))
    }

    @Test func readsRacingResetsAndReplacementsGetLiveValues() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.register(Clock.self, scope: .singleton) { _ in Clock("clock") }
        registry.register(Feed.self) { _ in Feed("feed") }
        registry.duplicateRegistrationHandler = { _ in }  // Replacing is the point here.
        let rounds = 2_000
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
          for round in 0..<rounds {
            if worker == 0 {
              // Each change clears the table while the other threads read through it; a rule for
              // the pair exists at every moment.
              switch round % 3 {
              case 0:
                registry.resetAllScopes()
              case 1:
                registry.register(Feed.self) { _ in Feed("feed") }
              default:
                registry.register(Feed.self, in: Dashboard.self) { _ in Feed("feed") }
                registry.unregister(Feed.self, in: Dashboard.self)
              }
            } else {
              let dashboard = Dashboard()
              guard dashboard.clock.name == "clock", dashboard.feed.name == "feed" else {
                failExitTest("a racing read got a wrong value")
              }
            }
          }
        }
      }
    }
  }
#endif
