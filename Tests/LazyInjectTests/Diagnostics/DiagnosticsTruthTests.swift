import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

// Diagnostics that tell the truth: property names, shadowed rules, near misses, injection
// notifications that read no other property, and the stops of a read.
//
// A read that cannot give a value stops the program, and its message is all a user has: it
// names only a cause that is there. Every way the runtime stops a read, the state that leads to
// it, and the test that builds that state and checks the message (`ReadStopTests` below, unless
// another file is named):
//
// - missingInitializer: no rule, no `init()`, not optional:
//   `aReadWithNoRuleStopsNamingThePropertyNotOnlyItsType`; ResolutionErrorTests.
// - dependencyCycle: an initializer that needs its own value, on one thread (CycleTests,
//   FastPathTableTests, WeakLazyTests), across threads that wait for each other
//   (CrossThreadCycleTests), or a chain deeper than the limit or the stack (DeepChainTests).
// - weakScopeRequiresClass: a `.weak` rule that builds a value that is no object:
//   `aReadOfAWeakScopeRuleThatBuildsNoObjectStopsSayingSo`.
// - initializerFailed: the initializer threw: `aReadWhoseInitializerThrowsStopsWithItsError`.
// - requiresMainActor: a `registerOnMainActor` rule read off the main actor
//   (MainActorInitializerTests, MainActorOrderTests).
// - invalidPropertyKeyPath: a property rule whose key path leads into another object
//   (PropertyRuleTests).
// - forwardTargetMismatch: a forward whose target's value is not of the forwarded type:
//   `aReadThroughAForwardToAnotherTypeStopsNamingBoth`.
// - requiresLoad, two states: an async rule whose scope keeps no instance
//   (AsyncInitializerTests, ScopeResetTests); and a slot that `load()` claimed and awaits an
//   async initializer for: `aReadWhileLoadAwaitsTheSlotStopsSayingLoadIsBuildingIt`. Reads
//   racing resets never stop with the latter (ResetRaceTests).
// - `@WeakLazy` of a type no weak reference can hold, when the object is made or, for a
//   protocol with primary associated types, at its first value (ProtocolWeakLazyTests,
//   PrimaryAssociatedTypeWeakLazyTests).
// - The bounded wait for the main actor to install the automatic modules
//   (LazyInjectDemoTests' AutomaticModuleTests: a blocked main thread, a busy main actor).

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

/// Settings a `.weak` rule builds by mistake: a struct, which nothing can hold weakly.
private struct WeakSettings {}

private struct StorageUnavailable: Error, CustomStringConvertible {
  var description: String { "the disk is full" }
}

private final class Storage: Sendable {
  init() throws { throw StorageUnavailable() }
}

private protocol Analytics: AnyObject {}
/// Registered as the target of a forward of `any Analytics`, which it does not conform to.
private final class Metrics: Sendable {}

private final class Avatar: Sendable {}

/// A screen whose every property stops its read, each for its own reason.
private final class StoppingScreen: @unchecked Sendable {
  @Lazy var settings: WeakSettings
  @Lazy var storage: Storage
  @Lazy var analytics: any Analytics
  @Lazy var avatar: Avatar
}

struct ReadStopTests {
  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func aReadWithNoRuleStopsNamingThePropertyNotOnlyItsType() async throws {
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

    @Test func aReadOfAWeakScopeRuleThatBuildsNoObjectStopsSayingSo() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.shared.register(WeakSettings.self, scope: .weak) { _ in
            WeakSettings()
          }
          _ = StoppingScreen().settings
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("cannot keep LazyInjectTests.WeakSettings weakly"), "\(output)")
      #expect(output.contains("it is not a class instance"))
      #expect(output.contains("weak scope"))
    }

    @Test func aReadWhoseInitializerThrowsStopsWithItsError() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.shared.register(Storage.self) { _ in try Storage() }
          _ = StoppingScreen().storage
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("LazyInject's initializer LazyInjectTests.Storage"), "\(output)")
      #expect(output.contains("threw: the disk is full"))
      #expect(!output.contains("Needed by"))  // The read needed nothing else.
    }

    @Test func aReadThroughAForwardToAnotherTypeStopsNamingBoth() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.shared.register(Metrics.self) { _ in Metrics() }
          InitializerRegistry.shared.forward((any Analytics).self, to: Metrics.self)
          _ = StoppingScreen().analytics
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        output.contains(
          "cannot forward LazyInjectTests.Analytics to LazyInjectTests.Metrics for"
            + " LazyInjectTests.StoppingScreen.analytics"), "\(output)")
      #expect(output.contains("a LazyInjectTests.Metrics, is not a LazyInjectTests.Analytics"))
    }

    /// The one state the in-flight message names: a synchronous read of a slot that `load()`
    /// claimed and awaits an async initializer for.
    @Test func aReadWhileLoadAwaitsTheSlotStopsSayingLoadIsBuildingIt() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          let (entered, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
          InitializerRegistry.shared.register(Avatar.self) { _ in
            entered.signal()
            await withCheckedContinuation { continuation in
              DispatchQueue.global().async {
                release.wait()
                continuation.resume()
              }
            }
            return Avatar()
          }
          let screen = StoppingScreen()
          Task { _ = try await screen.$avatar.load() }
          entered.wait()
          _ = screen.avatar  // Stops: the initializer awaits, and a read never waits for that.
          release.signal()
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        output.contains(
          "cannot build LazyInjectTests.Avatar in LazyInjectTests.StoppingScreen.avatar"
            + " synchronously: load() is building it with an async initializer"), "\(output)")
      #expect(!output.contains("watchdog"))
    }
  #endif
}

struct DiagnosticsTruthTests {
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
