import Foundation
import LazyInject
import LazyInjectChecks
import LazyInjectLinkedFixtures
import LazyInjectTestSupport
import Testing

// `ProbeInitializers` and `GenericInitializers` (Tests/LinkedFixtures) are linked modules: no
// code names them, and `InitializerRegistry.shared` finds them in the binary's conformance
// records. What `shared` does at its first use is checked in a fresh process (an exit test).

@MainActor struct LinkedModuleTests {
  @Test func installLinkedModulesInstallsEveryLinkedModuleIntoAnotherRegistry() throws {
    let registry = InitializerRegistry()
    registry.installLinkedModules()
    let probe = try registry.resolve(LinkedProbe.self, for: LinkedProbeScreen())
    #expect(probe.origin == "ProbeInitializers")
    let linked = registry.description.split(separator: "\n").first {
      $0.hasPrefix("linked modules: ")
    }
    #expect(linked?.contains("LazyInjectLinkedFixtures.ProbeInitializers") == true)
  }

  @Test func installingLinkedModulesAgainInstallsNothingNew() {
    let registry = InitializerRegistry()
    registry.installLinkedModules()
    let first = registry.description
    registry.duplicateRegistrationHandler = { duplicate in
      Issue.record("a linked module was installed twice: \(duplicate)")
    }
    registry.installLinkedModules()
    #expect(registry.description == first)
  }

  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func sharedInstallsTheLinkedModulesBeforeItsFirstUse() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let origin = await MainActor.run { LinkedProbeScreen().probe.origin }
        require(origin == "ProbeInitializers", "the linked module was not installed: \(origin)")
      }
    }

    @Test func descriptionAndExplainNameTheLinkedModuleWithItsSwiftModule() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        let description = registry.description
        let linked = description.split(separator: "\n").first { $0.hasPrefix("linked modules: ") }
        require(
          linked?.contains("LazyInjectLinkedFixtures.ProbeInitializers") == true,
          "description does not list the linked module:\n\(description)")
        let explanation = registry.explain(LinkedProbe.self, in: LinkedProbeScreen.self)
        require(
          explanation.contains("module LazyInjectLinkedFixtures.ProbeInitializers"),
          "explain does not name the linked module:\n\(explanation)")
      }
    }

    @Test func registrationMadeBeforeTheFirstReadWinsOverALinkedModule() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        InitializerRegistry.shared.register(LinkedProbe.self, in: LinkedProbeScreen.self) { _ in
          LinkedProbe(origin: "explicit")
        }
        let origin = await MainActor.run { LinkedProbeScreen().probe.origin }
        require(origin == "explicit", "the linked module replaced the registration: \(origin)")
      }
    }

    @Test func wholeAppCheckReportsALinkedModuleThatIsNotInstalled() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        do {
          try await MainActor.run {
            _ = try InitializerRegistry.shared.validate(classesIn: "LazyInjectLinkedFixtures")
          }
          failExitTest("the check passed with a generic linked module")
        } catch {
          let message = "\(error)"
          require(
            message.contains("LazyInjectLinkedFixtures.GenericInitializers, a generic type"),
            "the check does not name the generic linked module:\n\(message)")
          require(
            !message.contains("ProbeInitializers"),
            "the check reports an installed linked module:\n\(message)")
        }
      }
    }
  #endif
}
