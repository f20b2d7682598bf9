import Foundation
import LazyInject
import LazyInjectTestSupport
import LazyInjectTesting
import Testing

@testable import LazyInjectDemo

// Exit tests only: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
#if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
  // The demo lists its modules through `AutomaticModuleInstallation`. Each test runs in a fresh
  // process, where `InitializerRegistry.shared` has not been touched yet: the moment that matters.
  // Built as an Xcode 26 app (default main-actor isolation), the demo's conformance is isolated to
  // the main actor, and the exit tests' bodies run off it: every test here checks that the modules
  // are installed all the same.

  struct AutomaticModuleTests {
    @Test func registrationMadeBeforeAnyResolutionWinsOverTheModules() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        InitializerRegistry.shared.registerOnMainActor(
          ResourceLoader.self, in: UsersViewController.self
        ) { _ in
          ResourceLoader(kind: "mock")
        }
        let kind = await MainActor.run { UsersViewController().resourceLoader.kind }
        require(kind == "mock", "the module replaced the explicit registration: \(kind)")
      }
    }

    @Test func queriesSeeTheModulesBeforeAnyResolution() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        let description = registry.description
        require(
          description.contains("LazyInjectDemo.ResourceLoader"),
          "description lacks the modules:\n\(description)")
        let explanation = registry.explain(ResourceLoader.self, in: UsersViewController.self)
        require(explanation.contains("<- used"), "explain lacks the modules:\n\(explanation)")
        do {
          try await MainActor.run { try registry.validate(UsersViewController()) }
        } catch {
          failExitTest("validate lacks the modules: \(error)")
        }
      }
    }

    @Test func overridesSeeTheModulesBeforeAnyResolution() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.withOverrides { _ in
        } operation: {
          let explanation = registry.explain(ResourceLoader.self, in: UsersViewController.self)
          require(
            explanation.contains("UsersViewController: registered"),
            "the override layer hides the modules:\n\(explanation)")
        }
      }
    }

    @Test func firstTouchesFromManyThreadsInstallOnceAndTheExplicitRegistrationWins() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        let group = DispatchGroup()
        for index in 0..<8 {
          DispatchQueue.global().async(group: group) {
            switch index {
            case 0:
              registry.registerOnMainActor(ResourceLoader.self, in: UsersViewController.self) { _ in
                ResourceLoader(kind: "mock")
              }
            case 1: _ = registry.description
            case 2: _ = registry.explain(ResourceLoader.self, in: ProjectsViewController.self)
            default: _ = try? registry.resolve(RequestManager.self, for: NSObject())
            }
          }
        }
        group.wait()
        let kind = await MainActor.run { UsersViewController().resourceLoader.kind }
        require(kind == "mock", "the module replaced the explicit registration: \(kind)")
        let projects = await MainActor.run { ProjectsViewController().resourceLoader.kind }
        require(projects == "projects", "the modules were not installed: \(projects)")
      }
    }

    @Test func modulesAreInstalledWhenSharedIsFirstUsedOnABackgroundThread() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let done = DispatchSemaphore(value: 0)
        let seen = Seen()
        Thread.detachNewThread {
          // A nonisolated service, registered by a module, resolved on a background thread.
          let manager = try? InitializerRegistry.shared.resolve(
            RequestManager.self, for: NSObject())
          seen.description =
            InitializerRegistry.shared.description + "\n\(manager.map { _ in "ok" } ?? "")"
          done.signal()
        }
        await withCheckedContinuation { continuation in
          DispatchQueue.global().async {
            done.wait()
            continuation.resume()
          }
        }
        require(
          seen.description.contains("LazyInjectDemo.NewsStore") && seen.description.hasSuffix("ok"),
          "the modules were not installed from a background thread:\n\(seen.description)")
      }
    }

    @Test func blockedMainThreadStopsTheThreadThatWaitsForItWithTheFix() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.mainActorWait.withLock { $0 = 0 }  // The thread gives up at once.
          await MainActor.run {
            // The main thread waits for a thread that waits for the main actor to install the
            // modules: a hang, but for the bound.
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
              _ = InitializerRegistry.shared.description
              done.signal()
            }
            done.wait()
          }
          failExitTest("the thread went on without the modules")
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("the main actor did not run for 0 s"), "\(output)")
      #expect(output.contains("Either the main thread is blocked waiting for this thread"))
      #expect(output.contains("Fix: if the main thread waits for this thread, use"))
      #expect(!output.contains("watchdog"))
    }

    @Test func busyMainActorStopsASynchronousFirstUseOffItWithBothCauses() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.mainActorWait.withLock { $0 = 0 }
          let (started, isStarted) = AsyncStream.makeStream(of: Void.self)
          Task { @MainActor in
            isStarted.yield()
            while true {}  // Busy for good: the process ends when the thread stops.
          }
          for await _ in started { break }
          _ = InitializerRegistry.shared.description  // Off the main actor, synchronously.
          failExitTest("the thread went on without the modules")
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("or the main actor is busy with long synchronous work"), "\(output)")
      #expect(output.contains("if the main actor is busy, make the first use from async code"))
    }

    // A test target as Xcode 26 makes one: one test holds the main actor (a `Process` read
    // synchronously), another enters the `.overrides` trait off it. The async entries await the
    // main actor's installation of the modules, beyond the bound a blocked thread would wait, and
    // the process goes on. Each runs once, in a fresh process.

    @Test func busyMainActorNeverStopsTheOverridesTraitEnteredOffIt() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        try await enterWhileTheMainActorIsBusy(.trait)
      }
    }

    @Test func busyMainActorNeverStopsAsyncWithOverridesEnteredOffIt() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        try await enterWhileTheMainActorIsBusy(.withOverrides)
      }
    }

    @Test func busyMainActorNeverStopsPrepareCalledOffIt() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        try await enterWhileTheMainActorIsBusy(.prepare)
      }
    }

    @Test func busyMainActorNeverStopsLoadCalledOffIt() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        try await enterWhileTheMainActorIsBusy(.load)
      }
    }
  }

  /// The async calls that can be a process's first use of `InitializerRegistry.shared`.
  enum AsyncCall: Sendable {
    case trait, withOverrides, prepare, load
  }

  /// Holds the main actor busy, makes `call` off it, and frees the main actor only once the call
  /// waits for it to install the automatic modules: longer than the bound, which is 0 (a thread
  /// that waited at all would stop the process at once).
  @concurrent func enterWhileTheMainActorIsBusy(_ call: AsyncCall) async throws {
    InitializerRegistry.mainActorWait.withLock { $0 = 0 }
    let (started, isStarted) = AsyncStream.makeStream(of: Void.self)
    let busy = Task { @MainActor in
      isStarted.yield()
      while !isAwaitingMainActor() {}
    }
    for await _ in started { break }
    let registry = InitializerRegistry.shared
    switch call {
    case .trait:
      // The scope of one test case (`Test.current` is nil in an exit test's process).
      let trait = OverridesTrait.overrides {
        $0.register(RequestManager.self) { _ in RequestManager() }
      }
      try await trait.provideScope(named: "busy") {
        let explanation = registry.explain(RequestManager.self, in: NSObject.self)
        require(explanation.contains("Override layer 1"), "no layer in force:\n\(explanation)")
      }
    case .withOverrides:
      await registry.withOverrides { _ in
      } operation: {
        await Task.yield()
      }
    case .prepare:
      try await registry.prepare()
    case .load:
      _ = try await NewsFetcher().$newsStore.load()
    }
    await busy.value
    require(
      registry.description.contains("LazyInjectDemo.NewsStore"),
      "the modules were not installed:\n\(registry.description)")
  }

  /// What a background thread saw, read once it has signalled.
  nonisolated private final class Seen: @unchecked Sendable {
    // Written before the thread signals, read after the wait: the semaphore orders them.
    var description = ""
  }
#endif

/// Whether something waits for the main actor to install the modules of the shared registry: its
/// state read without the gate of `withState`, which would wait for them.
private func isAwaitingMainActor() -> Bool {
  InitializerRegistry.shared.state.withLock {
    if case .awaitingMainActor = $0.modules { true } else { false }
  }
}
