import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

@testable import LazyInjectDemo

// The demo lists its modules through `AutomaticModuleInstallation`. Each test runs in a fresh
// process, where `InitializerRegistry.shared` has not been touched yet: the moment that matters.
// Built as an Xcode 26 app (default main-actor isolation), the demo's conformance is isolated to
// the main actor, and the exit tests' bodies run off it: every test here checks that the modules
// are installed all the same.

struct AutomaticModuleTests {
  @Test func testRegistrationMadeBeforeAnyResolutionWinsOverTheModules() async {
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

  @Test func testQueriesSeeTheModulesBeforeAnyResolution() async {
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

  @Test func testOverridesSeeTheModulesBeforeAnyResolution() async {
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

  @Test func testFirstTouchesFromManyThreadsInstallOnceAndTheExplicitRegistrationWins() async {
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

  @Test func testModulesAreInstalledWhenSharedIsFirstUsedOnABackgroundThread() async {
    await #expect(processExitsWith: .success) {
      startWatchdog()
      let done = DispatchSemaphore(value: 0)
      let seen = Seen()
      Thread.detachNewThread {
        // A nonisolated service, registered by a module, resolved on a background thread.
        let manager = try? InitializerRegistry.shared.resolve(RequestManager.self, for: NSObject())
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
        // The thread gives up after 1 s instead of 10.
        InitializerRegistry.mainActorWaitSeconds = 1
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
    #expect(output.contains("the main actor, which did not run them in 1 s"), "\(output)")
    #expect(output.contains("Fix: use InitializerRegistry.shared on the main actor before"))
    #expect(!output.contains("watchdog"))
  }
}

/// What a background thread saw, read once it has signalled.
nonisolated private final class Seen: @unchecked Sendable {
  // Written before the thread signals, read after the wait: the semaphore orders them.
  var description = ""
}
