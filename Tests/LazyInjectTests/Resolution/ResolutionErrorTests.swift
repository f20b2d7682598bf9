import LazyInject
import LazyInjectTestSupport
import Testing

private final class ResourceLoader {}
private class ViewController {}
private final class UsersViewController: ViewController {}
private final class SettingsViewController: ViewController {}

/// A screen whose property nothing can build.
final class ScreenWithMissingDependency {
  final class Unregistered {}
  @Lazy var unregistered: Unregistered
}

struct ResolutionErrorTests {
  @Test func missingRegistrationNamesPropertyContainerSearchAndRegistrations() throws {
    let registry = InitializerRegistry()
    registry.register(ResourceLoader.self, in: UsersViewController.self) { _ in ResourceLoader() }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(ResourceLoader.self, for: SettingsViewController())
    }
    #expect(error.kind == .missingInitializer)
    let message = error.description
    #expect(
      message.contains(
        "could not build LazyInjectTests.ResourceLoader for LazyInjectTests.SettingsViewController."
      ))
    #expect(
      message.contains(
        "Searched, in order: LazyInjectTests.SettingsViewController,"
          + " LazyInjectTests.ViewController, then the root default."))
    #expect(message.contains("is registered only for:"))
    #expect(message.contains("UsersViewController (LazyInjectTests/ResolutionErrorTests.swift:"))
    #expect(message.contains("is not DefaultInitializable"))
    #expect(message.contains("Fix: register an initializer"))
  }

  @Test func missingRegistrationShowsTheMainActorAndTheNonisolatedForms() throws {
    let error = try #require(throws: ResolutionError.self) {
      try InitializerRegistry().resolve(ResourceLoader.self, for: SettingsViewController())
    }
    let lines = error.description.split(separator: "\n").map(String.init)
    let mainActorForm =
      "  registry.registerOnMainActor(LazyInjectTests.ResourceLoader.self,"
      + " in: LazyInjectTests.SettingsViewController.self) { sender in ... }"
    let nonisolatedForm =
      "  registry.register(LazyInjectTests.ResourceLoader.self,"
      + " in: LazyInjectTests.SettingsViewController.self) { sender in ... }"
    let mainActor = try #require(lines.firstIndex(of: mainActorForm))
    let nonisolated = try #require(lines.firstIndex(of: nonisolatedForm))
    #expect(lines[mainActor - 1].contains("default main-actor isolation"))
    #expect(lines[nonisolated - 1].contains("For a nonisolated type"))
  }

  @Test func missingRegistrationInsideALayerListsTheLayersRegistrationsToo() throws {
    let registry = InitializerRegistry()
    registry.register(ResourceLoader.self, in: UsersViewController.self) { _ in ResourceLoader() }
    let error = try registry.withOverrides {
      $0.register(ResourceLoader.self, in: ViewController.self) { _ in ResourceLoader() }
    } operation: {
      registry.register(ResourceLoader.self, in: UsersViewController.self) { _ in ResourceLoader() }
      return try #require(throws: ResolutionError.self) {
        try registry.resolve(ResourceLoader.self, for: ScreenWithMissingDependency())
      }
    }
    let message = error.description
    #expect(message.contains("Searched, in order in each of 1 override layer and the registry:"))
    #expect(message.contains("  - LazyInjectTests.ViewController, override layer 1 ("))
    #expect(message.contains("  - LazyInjectTests.UsersViewController, override layer 1 ("))
    #expect(message.contains("  - LazyInjectTests.UsersViewController (LazyInjectTests/"))
  }

  @Test func missingRegistrationSaysWhenNothingIsRegistered() throws {
    let error = try #require(throws: ResolutionError.self) {
      try InitializerRegistry().resolve(ResourceLoader.self, for: ViewController())
    }
    #expect(error.description.contains("has no registration in this registry"))
  }

  @Test func nestedFailureSaysWhichResolutionNeededIt() throws {
    final class Outer {}
    let registry = InitializerRegistry()
    registry.register(Outer.self) { [unowned registry] sender in
      _ = try registry.resolve(ResourceLoader.self, for: sender)
      return Outer()
    }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(Outer.self, for: ViewController())
    }
    #expect(error.kind == .missingInitializer)
    #expect(error.description.contains("Needed by: "))
    #expect(error.description.contains("Outer in "))
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func lazyPropertyStopsTheProgramWithTheResolutionMessage() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          _ = ScreenWithMissingDependency().unregistered
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        output.contains(
          "could not build LazyInjectTests.ScreenWithMissingDependency.Unregistered for"
            + " LazyInjectTests.ScreenWithMissingDependency."))
      #expect(output.contains("Searched, in order: LazyInjectTests.ScreenWithMissingDependency"))
      #expect(output.contains("Fix: register an initializer"))
    }
  #endif
}
