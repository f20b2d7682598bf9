import Foundation
import LazyInject
import Testing

@testable import LazyInjectDemo

// The demo lists its modules through `AutomaticModuleInstallation`. Each test runs in a fresh
// process, where `InitializerRegistry.shared` has not been touched yet: the moment that matters.
// Built as an Xcode 26 app (default main-actor isolation), the demo's conformance is isolated to
// the main actor, and the exit tests' bodies run off it: every test here checks that the modules
// are installed all the same.

/// Ends the exit test's process with `message` on standard error and a failure status.
nonisolated private func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("\(message)\n".utf8))
  exit(1)
}

struct AutomaticModuleTests {
  @Test func testRegistrationMadeBeforeAnyResolutionWinsOverTheModules() async {
    await #expect(processExitsWith: .success) {
      InitializerRegistry.shared.registerOnMainActor(
        ResourceLoader.self, in: UsersViewController.self
      ) { _ in
        ResourceLoader(kind: "mock")
      }
      let kind = await MainActor.run { UsersViewController().resourceLoader.kind }
      if kind != "mock" { fail("the module replaced the explicit registration: \(kind)") }
    }
  }

  @Test func testQueriesSeeTheModulesBeforeAnyResolution() async {
    await #expect(processExitsWith: .success) {
      let registry = InitializerRegistry.shared
      let description = registry.description
      if !description.contains("LazyInjectDemo.ResourceLoader") {
        fail("description lacks the modules:\n\(description)")
      }
      let explanation = registry.explain(ResourceLoader.self, in: UsersViewController.self)
      if !explanation.contains("<- used") { fail("explain lacks the modules:\n\(explanation)") }
      do {
        try await MainActor.run { try registry.validate(UsersViewController()) }
      } catch {
        fail("validate lacks the modules: \(error)")
      }
    }
  }

  @Test func testOverridesSeeTheModulesBeforeAnyResolution() async {
    await #expect(processExitsWith: .success) {
      let registry = InitializerRegistry.shared
      registry.withOverrides { _ in
      } operation: {
        let explanation = registry.explain(ResourceLoader.self, in: UsersViewController.self)
        if !explanation.contains("UsersViewController: registered") {
          fail("the override layer hides the modules:\n\(explanation)")
        }
      }
    }
  }

  @Test func testFirstTouchesFromManyThreadsInstallOnceAndTheExplicitRegistrationWins() async {
    await #expect(processExitsWith: .success) {
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
      if kind != "mock" { fail("the module replaced the explicit registration: \(kind)") }
      let projects = await MainActor.run { ProjectsViewController().resourceLoader.kind }
      if projects != "projects" { fail("the modules were not installed: \(projects)") }
    }
  }

  @Test func testModulesAreInstalledWhenSharedIsFirstUsedOnABackgroundThread() async {
    await #expect(processExitsWith: .success) {
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
      if !seen.description.contains("LazyInjectDemo.NewsStore") || !seen.description.hasSuffix("ok")
      {
        fail("the modules were not installed from a background thread:\n\(seen.description)")
      }
    }
  }

  #if MAIN_ACTOR_BY_DEFAULT
    @Test func testWaitingForABlockedMainActorToInstallSaysHowToFixIt() async throws {
      let result = try #require(
        await #expect(processExitsWith: .exitCode(2), observing: [\.standardErrorContent]) {
          startWatchdog(seconds: 15)
          await MainActor.run {
            // The main actor waits for a thread that waits for the main actor to install.
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
              _ = InitializerRegistry.shared.description
              done.signal()
            }
            done.wait()
          }
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("This thread has waited 10 s for it"))
      #expect(output.contains("Fix: first use InitializerRegistry.shared on the main actor"))
    }
  #endif
}

/// What a background thread saw, read once it has signalled.
nonisolated private final class Seen: @unchecked Sendable {
  // Written before the thread signals, read after the wait: the semaphore orders them.
  var description = ""
}

/// Starts a watchdog for an exit test: if the test's process is still running after `seconds`,
/// it says so on standard error and exits with status 2.
nonisolated private func startWatchdog(seconds: Int) {
  Thread.detachNewThread {
    let never = DispatchSemaphore(value: 0)
    _ = never.wait(timeout: .now() + .seconds(seconds))
    FileHandle.standardError.write(Data("watchdog: still running after \(seconds) s\n".utf8))
    exit(2)
  }
}
