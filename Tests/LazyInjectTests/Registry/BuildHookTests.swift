import Foundation
import LazyInject
import LazyInjectChecks
import LazyInjectTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A hook after a build (`afterBuild:`): it runs once for each instance its rule builds, with the
// sender, before any reader gets the instance, on every path that builds through the rule. Rules
// go in a fresh registry or in the calling task's override layer; the fast path, a property's
// cycle and the timeline are tested in a fresh process, on the shared registry with no layer.

private final class Engine: Sendable {
  let isConfigured = Locked(false)
}

private protocol Running: AnyObject, Sendable {}
extension Engine: Running {}

/// A part that refers back to the engine it belongs to: an engine's hook closes the cycle.
private final class Part: Sendable {
  let engine = Locked<Engine?>(nil)
}

/// A value whose async hook awaits before it marks it migrated.
private final class Store: Sendable {
  let isMigrated = Locked(false)
}

private struct MigrationFailed: Error {}

/// `@Lazy` guards its slots against the threads that read them; no other state.
private final class EngineScreen: @unchecked Sendable {
  @Lazy var engine: Engine
  @Lazy var running: any Running
  @Lazy var part: Part
  @Lazy var store: Store
}

/// An instance a hook saw, and the sender it got with it.
private struct Hooked: Equatable, Sendable {
  let instance: ObjectIdentifier
  let sender: ObjectIdentifier?

  init(_ instance: AnyObject, _ sender: AnyObject?) {
    self.instance = ObjectIdentifier(instance)
    self.sender = sender.map(ObjectIdentifier.init)
  }
}

/// Whether a thread waits for a build under way of a `property` value.
private func isWaiting(for property: Any.Type) -> Bool {
  WaitGraph.waiters.withLock { waiters in
    waiters.contains { waiter in
      guard case .property(let type, _, _)? = waiter.chain.last?.what else { return false }
      return type == property
    }
  }
}

struct BuildHookTests {
  @Test func hookRunsOnceForEachBuiltInstanceAndNeverForAKeptOne() throws {
    let registry = InitializerRegistry()
    let hooked = Locked<[Hooked]>([])
    registry.register(Engine.self, scope: .singleton) { _ in
      Engine()
    } afterBuild: { engine, sender in
      hooked.mutate { $0.append(Hooked(engine, sender)) }
    }
    registry.register(Part.self) { _ in
      Part()
    } afterBuild: { part, sender in
      hooked.mutate { $0.append(Hooked(part, sender)) }
    }
    let first = EngineScreen()
    let second = EngineScreen()
    let engine = try registry.resolve(Engine.self, for: first)
    #expect(try registry.resolve(Engine.self, for: second) === engine)  // Kept: no hook.
    let parts = [
      try registry.resolve(Part.self, for: first), try registry.resolve(Part.self, for: second),
    ]
    #expect(
      hooked.value == [Hooked(engine, first), Hooked(parts[0], first), Hooked(parts[1], second)])
  }

  @Test func hookOfAFirstReadReceivesTheInstanceAndItsContainerBeforeTheReadReturns() {
    let hooked = Locked<[Hooked]>([])
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(Engine.self, in: EngineScreen.self) { _ in
        Engine()
      } afterBuild: { engine, screen in
        hooked.mutate { $0.append(Hooked(engine, screen)) }
        engine.isConfigured.mutate { $0 = true }
      }
    } operation: {
      let screen = EngineScreen()
      let engine = screen.engine
      #expect(engine.isConfigured.value)
      #expect(screen.engine === engine)
      #expect(hooked.value == [Hooked(engine, screen)])
    }
  }

  @Test func aThreadWaitingForASharedBuildGetsTheInstanceOnlyOnceItsHookRan() {
    let registry = InitializerRegistry()
    let started = DispatchSemaphore(value: 0)
    let waiterReturned = Locked(false)
    registry.register(Engine.self, scope: .singleton) { _ in
      started.signal()
      return Engine()
    } afterBuild: { engine, _ in
      // Ends once the other thread waits for this build (or, were it not made to wait, got the
      // instance already): no sleep, the wait is what is awaited.
      while !isWaiting(for: Engine.self) && !waiterReturned.value { sched_yield() }
      engine.isConfigured.mutate { $0 = true }
    }
    let configured = Locked<[Int: Bool]>([:])
    runConcurrently(threads: 2) { index in
      if index == 1 {
        started.wait()  // The other thread builds the singleton.
      }
      let engine = try! registry.resolve(Engine.self, for: EngineScreen())
      configured.mutate { $0[index] = engine.isConfigured.value }
      if index == 1 {
        waiterReturned.mutate { $0 = true }
      }
    }
    #expect(configured.value == [0: true, 1: true])
  }

  @Test func forwardedPropertyRunsItsTargetsHookWithTheSameContainer() {
    let hooked = Locked<[Hooked]>([])
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(Engine.self, scope: .singleton) { _ in
        Engine()
      } afterBuild: { engine, sender in
        hooked.mutate { $0.append(Hooked(engine, sender)) }
      }
      overrides.forward((any Running).self, to: Engine.self)
    } operation: {
      let screen = EngineScreen()
      let running = screen.running
      #expect(running === screen.engine)
      #expect(hooked.value == [Hooked(running, screen)])
    }
  }

  @Test func aBuildThatSpansAResetRunsItsHookForTheInstanceItsReaderGets() throws {
    let registry = InitializerRegistry()
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let isFirst = Locked(true)
    let hooked = Locked<[Hooked]>([])
    registry.register(Engine.self, scope: .singleton) { _ in
      let gated = isFirst.withLock { isFirst in
        defer { isFirst = false }
        return isFirst
      }
      if gated {
        started.signal()
        release.wait()
      }
      return Engine()
    } afterBuild: { engine, sender in
      hooked.mutate { $0.append(Hooked(engine, sender)) }
    }
    let screen = EngineScreen()
    let spanning = Locked<Engine?>(nil)
    runConcurrently(threads: 2) { index in
      guard index == 0 else {
        started.wait()
        registry.reset(.singleton)
        release.signal()
        return
      }
      let engine = try! registry.resolve(Engine.self, for: screen)
      spanning.mutate { $0 = engine }
    }
    let first = try #require(spanning.value)
    let second = try registry.resolve(Engine.self, for: screen)
    #expect(first !== second)  // Built across the reset: kept by nobody.
    #expect(hooked.value == [Hooked(first, screen), Hooked(second, screen)])
  }

  @Test func hookThatResolvesTheValueItCompletesIsACycle() throws {
    let registry = InitializerRegistry()
    registry.register(Engine.self) { _ in
      Engine()
    } afterBuild: { [unowned registry] _, sender in
      _ = try registry.resolve(Engine.self, for: sender)
    }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(Engine.self, for: EngineScreen())
    }
    #expect(error.kind == .dependencyCycle)
  }

  @Test func hookClosesACycleByReadingAnotherPropertyOfItsContainer() {
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(Part.self, in: EngineScreen.self) { _ in Part() }
      overrides.register(Engine.self, in: EngineScreen.self) { _ in
        Engine()
      } afterBuild: { engine, screen in
        screen.part.engine.mutate { $0 = engine }
      }
    } operation: {
      let screen = EngineScreen()
      let engine = screen.engine
      #expect(screen.part.engine.value === engine)
    }
  }

  @Test func hookThatThrowsFailsTheBuildWithItsError() throws {
    let registry = InitializerRegistry()
    registry.register(Engine.self, scope: .singleton) { _ in
      Engine()
    } afterBuild: { _, _ in
      throw MigrationFailed()
    }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(Engine.self, for: EngineScreen())
    }
    #expect(error.kind == .initializerFailed)
    #expect(error.underlyingError is MigrationFailed)
  }

  @Test func prepareRunsTheHookOfARuleWithNoSenderBeforeItReturns() async throws {
    let registry = InitializerRegistry()
    let hooks = Counter()
    registry.register(Store.self, scope: .singleton) {
      await Task.yield()
      return Store()
    } afterBuild: { store in
      await Task.yield()
      store.isMigrated.mutate { $0 = true }
      hooks.increment()
    }
    try await registry.prepare()
    let store = try registry.resolve(Store.self, for: EngineScreen())
    #expect(store.isMigrated.value)
    try await registry.prepare()  // Kept already: no build, no hook.
    #expect(hooks.value == 1)
  }

  @Test func loadReturnsOnceTheAsyncHookRan() async throws {
    let hooks = Counter()
    try await InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(Store.self) {
        await Task.yield()
        return Store()
      } afterBuild: { store in
        await Task.yield()
        store.isMigrated.mutate { $0 = true }
        hooks.increment()
      }
    } operation: {
      let screen = EngineScreen()
      let store = try await screen.$store.load()
      #expect(store.isMigrated.value)
      #expect(screen.store === store)
      #expect(hooks.value == 1)
    }
  }

  @Test func asyncHookThatThrowsFailsTheBuildWithItsErrorAndKeepsNothing() async throws {
    let registry = InitializerRegistry()
    let builds = Counter()
    registry.register(Store.self, scope: .singleton) {
      builds.increment()
      return Store()
    } afterBuild: { _ in
      await Task.yield()
      throw MigrationFailed()
    }
    for _ in 1...2 {
      let error = try await #require(throws: ResolutionError.self) {
        try await registry.prepare()
      }
      #expect(error.kind == .initializerFailed)
      #expect(error.underlyingError is MigrationFailed)
    }
    #expect(builds.value == 2)  // Nothing kept: built again.
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS. In a fresh process,
  // the shared registry has no layer, so that first reads take the fast path and nothing else
  // records.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test(.enabled(if: FirstReadPaths.isRecording, "only debug builds record first-read paths"))
    func firstReadsThroughTheFastPathRunTheHook() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let hooks = Counter()
        InitializerRegistry.shared.register(Part.self) { _ in
          Part()
        } afterBuild: { _, _ in
          hooks.increment()
        }
        var paths: [FirstReadPath?] = []
        for _ in 1...3 {
          FirstReadPaths.reset()
          _ = EngineScreen().part
          paths.append(FirstReadPaths.lastPath)
        }
        require(paths.last == .fastTableBuild, "the reads took \(paths)")
        require(hooks.value == 3, "\(hooks.value) hooks ran for 3 builds")
      }
    }

    @Test func readingThePropertyTheHookCompletesStopsTheProgramAsACycle() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.shared.register(Engine.self, in: EngineScreen.self) { _ in
            Engine()
          } afterBuild: { _, screen in
            _ = screen.engine
          }
          _ = EngineScreen().engine
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("dependency cycle"))
      #expect(output.contains("Engine in LazyInjectTests.EngineScreen"))
    }

    @Test func theTimelineShowsTheHooksTimeApartFromTheInitializers() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.register(Part.self) { _ in Part() }
        // The hook builds the part: what it took is the hook's, not the initializer's.
        registry.register(Engine.self, in: EngineScreen.self) { _ in
          Engine()
        } afterBuild: { _, screen in
          _ = screen.part
        }
        // So does the part this hook resolves, in a build that `prepare()` runs in a task.
        registry.register(Store.self, scope: .singleton) {
          Store()
        } afterBuild: { _ in
          await Task.yield()
          _ = try registry.resolve(Part.self, for: EngineScreen())
        }
        InitializerRegistry.startRecording()
        _ = EngineScreen().engine
        try? await registry.prepare()
        let timeline = InitializerRegistry.stopRecording()
        func build(_ type: String) -> InitializerRegistry.Timeline.Build? {
          timeline.builds.first { $0.rule.propertyTypeName.hasSuffix(".\(type)") }
        }
        let storePart = timeline.builds.first { build in
          build.rule.propertyTypeName.hasSuffix(".Part") && build.trigger == .resolve
        }
        guard let engine = build("Engine"), let part = build("Part"), let store = build("Store"),
          let storePart
        else { failExitTest("builds missing: \(timeline.builds)") }
        // No duration is compared with a figure: a hook's time holds the build it made, whatever
        // the clock's resolution.
        let hookStart =
          engine.startNanoseconds + engine.durationNanoseconds - engine.afterBuildNanoseconds
        require(engine.afterBuildNanoseconds >= part.durationNanoseconds, "\(engine), \(part)")
        require(engine.afterBuildNanoseconds <= engine.durationNanoseconds, "\(engine)")
        require(part.startNanoseconds >= hookStart, "the part was built before the hook: \(part)")
        require(part.afterBuildNanoseconds == 0, "a rule without a hook: \(part)")
        let storeHookStart =
          store.startNanoseconds + store.durationNanoseconds - store.afterBuildNanoseconds
        require(store.trigger == .prepare, "\(store)")
        require(store.afterBuildNanoseconds >= storePart.durationNanoseconds, "\(store)")
        require(storePart.startNanoseconds >= storeHookStart, "before the hook: \(storePart)")
        // The initializer's own time leaves out the hook, and the part the hook built once only.
        let own = timeline.ownNanoseconds(of: engine)
        require(own == engine.durationNanoseconds - engine.afterBuildNanoseconds, "own \(own)")
        require(timeline.summary.contains(", its hook "), timeline.summary)
        let json = timeline.traceEventJSON
        require(json.contains("\"name\":\"afterBuild of "), json)
      }
    }
  #endif
}

/// A main-actor service, and the main-actor screen that reads it.
@MainActor private final class Badge {}

@MainActor private final class BadgeScreen {
  @Lazy var badge: Badge
}

/// What main-actor hooks saw, in order.
@MainActor private final class HookLog {
  var entries: [Hooked] = []
}

@MainActor struct MainActorBuildHookTests {
  @Test func mainActorHookRunsOnceForEachInstanceItsRuleBuildsWithTheSender() throws {
    let registry = InitializerRegistry()
    let log = HookLog()
    registry.registerOnMainActor(Badge.self, in: BadgeScreen.self) { _ in
      Badge()
    } afterBuild: { badge, screen in
      log.entries.append(Hooked(badge, screen))
    }
    let screen = BadgeScreen()
    let first = try registry.resolve(Badge.self, for: screen)
    let second = try registry.resolve(Badge.self, for: screen)
    #expect(log.entries == [Hooked(first, screen), Hooked(second, screen)])
  }

  @Test func mainActorHookNeverRunsForAKeptInstance() throws {
    let registry = InitializerRegistry()
    let log = HookLog()
    registry.registerOnMainActor(Badge.self, scope: .singleton) { _ in
      Badge()
    } afterBuild: { badge, screen in
      log.entries.append(Hooked(badge, screen))
    }
    let screen = BadgeScreen()
    let badge = try registry.resolve(Badge.self, for: screen)
    _ = try registry.resolve(Badge.self, for: BadgeScreen())
    #expect(log.entries == [Hooked(badge, screen)])
  }
}

/// What async hooks with a sender saw, guarded by its lock.
private final class SenderLog: Sendable {
  let entries = Locked<[Hooked]>([])
}

struct AsyncSenderBuildHookTests {
  @Test func asyncHookOfARuleForAContainerGetsTheSenderAndRunsBeforeLoadReturns() async throws {
    let log = SenderLog()
    try await InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(Store.self, in: EngineScreen.self) { _ in
        await Task.yield()
        return Store()
      } afterBuild: { store, screen in
        await Task.yield()
        store.isMigrated.mutate { $0 = true }
        log.entries.mutate { $0.append(Hooked(store, screen)) }
      }
    } operation: {
      let screen = EngineScreen()
      let store = try await screen.$store.load()
      #expect(store.isMigrated.value)
      #expect(log.entries.value == [Hooked(store, screen)])
    }
  }

  @Test func asyncHookOfARootDefaultGetsTheSender() async throws {
    let log = SenderLog()
    try await InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(Store.self) { (_: AnyObject) in
        Store()
      } afterBuild: { store, sender in
        await Task.yield()
        log.entries.mutate { $0.append(Hooked(store, sender)) }
      }
    } operation: {
      let screen = EngineScreen()
      let store = try await screen.$store.load()
      #expect(log.entries.value == [Hooked(store, screen)])
    }
  }
}

struct PropertyRuleBuildHookTests {
  @Test func hookOfARuleForOnePropertyRunsOnceForEachInstanceWithTheSender() {
    let log = SenderLog()
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(\EngineScreen.$part) { _ in
        Part()
      } afterBuild: { part, screen in
        log.entries.mutate { $0.append(Hooked(part, screen)) }
      }
    } operation: {
      let first = EngineScreen()
      let second = EngineScreen()
      let parts = [first.part, second.part, first.part]  // The third read returns the kept part.
      #expect(log.entries.value == [Hooked(parts[0], first), Hooked(parts[1], second)])
    }
  }

  @Test func asyncHookOfARuleForOnePropertyRunsBeforeLoadReturns() async throws {
    let log = SenderLog()
    try await InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(\EngineScreen.$store) { _ in
        Store()
      } afterBuild: { store, screen in
        await Task.yield()
        store.isMigrated.mutate { $0 = true }
        log.entries.mutate { $0.append(Hooked(store, screen)) }
      }
    } operation: {
      let screen = EngineScreen()
      let store = try await screen.$store.load()
      #expect(store.isMigrated.value)
      #expect(log.entries.value == [Hooked(store, screen)])
    }
  }

  @MainActor @Test func mainActorHookOfARuleForOnePropertyGetsTheSender() {
    let log = HookLog()
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.registerOnMainActor(\BadgeScreen.$badge) { _ in
        Badge()
      } afterBuild: { badge, screen in
        log.entries.append(Hooked(badge, screen))
      }
    } operation: {
      let screen = BadgeScreen()
      let badge = screen.badge
      #expect(log.entries == [Hooked(badge, screen)])
    }
  }
}
