import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

// Diagnostics that tell the truth: property names, shadowed rules, near misses, and injection
// notifications that read no other property.

private final class Logger {}
private protocol ResourceLoading {}
private final class ResourceLoader: ResourceLoading {}
private final class Session {}
private class ViewController {}
private final class UsersViewController: ViewController {
  @Lazy var auditLogger: Logger
  @Lazy var debugLogger: Logger
}

/// A screen with two properties of one type, neither registered.
final class TwoLoggersScreen {
  final class Logger {}
  @Lazy var auditLogger: Logger
  @Lazy var debugLogger: Logger
}

struct DiagnosticsTruthTests {
  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func lazyReadFailureNamesThePropertyNotOnlyItsType() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          _ = TwoLoggersScreen().debugLogger
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        output.contains(
          "could not build LazyInjectTests.TwoLoggersScreen.Logger for"
            + " LazyInjectTests.TwoLoggersScreen.debugLogger."))
    }
  #endif

  @Test func validateNamesEachPropertyOfTheSameType() throws {
    let error = try #require(throws: ResolutionError.self) {
      try InitializerRegistry().validate(UsersViewController())
    }
    #expect(error.description.contains("  - LazyInjectTests.UsersViewController.auditLogger:"))
    #expect(error.description.contains("  - LazyInjectTests.UsersViewController.debugLogger:"))
  }

  @Test func explainShowsTheRegistrysRuleShadowedByAnOverrideRootDefault() throws {
    let registry = InitializerRegistry()
    registry.register(Logger.self, in: UsersViewController.self) { _ in Logger() }
    let text = registry.withOverrides {
      $0.register(Logger.self) { _ in Logger() }
    } operation: {
      registry.explain(Logger.self, in: UsersViewController.self)
    }
    #expect(text.contains("  root default: registered in override layer 1, unique scope"))
    #expect(
      text.contains(
        "  LazyInjectTests.UsersViewController: registered, unique scope"
          + " (LazyInjectTests/DiagnosticsTruthTests.swift:"))
    #expect(text.contains(", shadowed by override layer 1"))
    let registrySection = try #require(text.components(separatedBy: "Registry:").last)
    #expect(!registrySection.contains("UsersViewController: no registration"))
  }

  @Test func missForAnExistentialSuggestsTheRegisteredConformingType() throws {
    let registry = InitializerRegistry()
    registry.register(ResourceLoader.self) { _ in ResourceLoader() }
    registry.register(Session.self) { _ in Session() }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve((any ResourceLoading).self, for: ViewController())
    }
    #expect(error.description.contains("Did you mean one of these?"))
    #expect(error.description.contains("  - LazyInjectTests.ResourceLoader root default"))
    #expect(!error.description.contains("LazyInjectTests.Session root default"))
  }

  @Test func missForATypeSuggestsItsRegisteredOptional() throws {
    let registry = InitializerRegistry()
    registry.register(Session?.self) { _ in Session() }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(Session.self, for: ViewController())
    }
    #expect(error.description.contains("Did you mean one of these?"))
    #expect(error.description.contains("Optional<LazyInjectTests.Session> root default"))
  }
}

/// Records the injections it hears of.
private final class ObservedScreen: InjectionObserving, @unchecked Sendable {
  // `@Lazy` guards its own slots; `names` is guarded by its lock.
  @Lazy var observed: Session
  @Lazy var assigned: Logger
  let names = Locked<[String]>([])

  func didInject(_ value: Any, intoPropertyNamed name: String) {
    names.mutate { $0.append(name) }
  }
}

/// A token that says where it came from.
private final class Token: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}

/// Records what it hears of; its initializers assign the property they build.
private final class ReassignedScreen: InjectionObserving, @unchecked Sendable {
  // `@Lazy` and `@WeakLazy` guard their own slots; `heard` is guarded by its lock.
  @Lazy var token: Token
  @WeakLazy var weakToken: Token?
  /// What the initializers assign.
  ///
  /// The screen's, not the registration's: a registration of the shared registry lives as long
  /// as the process, and so would the side table of an object it kept and a weak reference
  /// pointed to, a leak to the address sanitizer.
  let assigned = Token("assigned")
  let heard = Locked<[String]>([])

  func didInject(_ value: Any, intoPropertyNamed name: String) {
    heard.mutate { $0.append(name) }
  }
}

struct InjectionObservingTruthTests {
  @Test func observerHearsNothingWhenAnAssignmentReplacedTheValueBeingBuilt() {
    InitializerRegistry.shared.register(Token.self, in: ReassignedScreen.self) { sender in
      sender.token = sender.assigned
      return Token("built")
    }
    InitializerRegistry.shared.register(Token?.self, in: ReassignedScreen.self) { sender in
      sender.weakToken = sender.assigned
      return Token("built")
    }
    let screen = ReassignedScreen()
    #expect(screen.token === screen.assigned)
    #expect(screen.weakToken === screen.assigned)
    #expect(screen.heard.value.isEmpty, "told of a value no property holds")
  }

  // Under the thread sanitizer, a notification that read the other slots through reflection
  // (without their lock) raced with the assignments on the other thread.
  @Test func notificationNamesThePropertyWithoutReadingOtherProperties() {
    InitializerRegistry.shared.register(Session.self, in: ObservedScreen.self) { _ in Session() }
    for _ in 0..<200 {
      let screen = ObservedScreen()
      runConcurrently(threads: 2) { index in
        if index == 0 {
          _ = screen.observed
        } else {
          for _ in 0..<10 { screen.assigned = Logger() }
        }
      }
      #expect(screen.names.value == ["observed"])
    }
  }
}

struct NearMissNoiseTests {
  @Test func missForAnyListsNoRegistrationAsNear() throws {
    let registry = InitializerRegistry()
    registry.register(Session.self) { _ in Session() }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(Any.self, for: ViewController())
    }
    #expect(!error.description.contains("Did you mean"))
  }
}
