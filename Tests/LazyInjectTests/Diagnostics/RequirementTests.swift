import LazyInject
import LazyInjectAppFixtures
import LazyInjectChecks
import LazyInjectLinkedFixtures
import Testing

// A package declares what the program must provide (`require`): its own check passes those
// properties, and the app's check verifies that something provides them to the package's classes.
// `RequiringInitializers` (Tests/LinkedFixtures) requires `any LinkedAnalytics`, which
// `RequiringScreen` reads; `LazyInjectAppFixtures` plays the app.

@MainActor struct RequirementTests {
  /// A registry with the package's module installed, as the program's `shared` would have it.
  private func registryWithThePackage() -> InitializerRegistry {
    let registry = InitializerRegistry()
    registry.install(RequiringInitializers())
    registry.register(LinkedProbe.self, in: LinkedProbeScreen.self) { _ in
      LinkedProbe(origin: "test")
    }
    return registry
  }

  @Test func packageCheckPassesWhatThePackageRequiresFromTheProgram() throws {
    let report = try registryWithThePackage().validate(classesIn: "LazyInjectLinkedFixtures")
    #expect(
      report.requiredProperties == [
        "LazyInjectLinkedFixtures.RequiringScreen.analytics: any LazyInjectLinkedFixtures.LinkedAnalytics"
      ])
    #expect(report.description.contains("required from the program: "))
  }

  @Test func packageCheckStillFailsOnATypeItDoesNotRequire() {
    let registry = InitializerRegistry()
    registry.install(RequiringInitializers())
    #expect(throws: ResolutionError.self) {
      try registry.validate(classesIn: "LazyInjectLinkedFixtures")  // LinkedProbe has no rule.
    }
  }

  @Test func appCheckFailsOnARequirementThatNothingProvides() throws {
    let error = try #require(throws: ResolutionError.self) {
      try registryWithThePackage().validate(classesIn: "LazyInjectAppFixtures")
    }
    let message = "\(error)"
    #expect(error.kind == .unresolvableProperties)
    #expect(
      message.contains(
        "LazyInjectLinkedFixtures requires LazyInjectLinkedFixtures.LinkedAnalytics"
          + " (module LazyInjectLinkedFixtures.RequiringInitializers,"),
      "\(message)")
    #expect(
      message.contains("nothing provides it to LazyInjectLinkedFixtures.RequiringScreen.analytics"),
      "\(message)")
    #expect(message.contains("Fix: register each in the app"), "\(message)")
  }

  @Test func appCheckPassesOnceTheAppProvidesTheRequirementAndBuildsNothing() throws {
    let registry = registryWithThePackage()
    registry.register((any LinkedAnalytics).self) { _ in
      Issue.record("the check built what it checks")
      return AppAnalytics()
    }
    let report = try registry.validate(classesIn: "LazyInjectAppFixtures")
    #expect(report.checkedClasses.contains("LazyInjectAppFixtures.AppHome"))
    #expect(report.requiredProperties.isEmpty)
  }

  @Test func moduleThatDeclaresTheSameRequirementIsNotFailedOnIt() throws {
    let registry = registryWithThePackage()
    registry.require((any LinkedAnalytics).self, fileID: "LazyInjectAppFixtures/AppFixtures.swift")
    #expect(throws: Never.self) {
      try registry.validate(classesIn: "LazyInjectAppFixtures")
    }
  }

  @Test func requirementDeclaredInsideAnOverrideLayerIsKeptByTheRegistry() {
    let registry = InitializerRegistry()
    registry.withOverrides { _ in
    } operation: {
      registry.require(
        (any LinkedAnalytics).self, fileID: "LazyInjectAppFixtures/AppFixtures.swift")
    }
    // Once the layer is gone, the registry still lists it.
    let lines = registry.description.split(separator: "\n").filter { $0.contains(" requires ") }
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("LazyInjectAppFixtures requires") == true)
  }

  @Test func descriptionListsEachRequirementOnce() {
    let registry = registryWithThePackage()
    registry.install(RequiringInitializers())
    let lines = registry.description.split(separator: "\n").filter { $0.contains(" requires ") }
    #expect(
      lines == [
        "LazyInjectLinkedFixtures requires LazyInjectLinkedFixtures.LinkedAnalytics (module"
          + " LazyInjectLinkedFixtures.RequiringInitializers,"
          + " LazyInjectLinkedFixtures/LinkedFixtures.swift:67)"
      ])
  }
}

/// The app's analytics.
private final class AppAnalytics: LinkedAnalytics {}
