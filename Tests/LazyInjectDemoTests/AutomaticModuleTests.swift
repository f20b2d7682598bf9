import Foundation
import LazyInject
import Testing

@testable import LazyInjectDemo

// The demo lists its modules through `AutomaticModuleInstallation`. Each test runs in a fresh
// process, where `InitializerRegistry.shared` has not been touched yet: the moment that matters.

/// Ends the exit test's process with `message` on standard error and a failure status.
private func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("\(message)\n".utf8))
  exit(1)
}

struct AutomaticModuleTests {
  @Test func testRegistrationMadeBeforeAnyResolutionWinsOverTheModules() async {
    await #expect(processExitsWith: .success) {
      InitializerRegistry.shared.register(ResourceLoader.self, in: UsersViewController.self) { _ in
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
            registry.register(ResourceLoader.self, in: UsersViewController.self) { _ in
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
}
