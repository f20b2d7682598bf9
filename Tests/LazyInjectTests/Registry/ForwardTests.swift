import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

// One instance under several types: `forward(_:to:)` resolves the target type for the same
// sender, with the target's own rules and scope, and casts.

private protocol Tracking: AnyObject, Sendable {
  func track(_ event: String)
}

private protocol Reporting: AnyObject, Sendable {
  var report: String { get }
}

private protocol Exporting {}

private class SharedAnalytics: Tracking, Reporting, @unchecked Sendable {
  // Read only in tests, after the threads that wrote it have joined.
  let events = Locked<[String]>([])
  let owner: String
  init(owner: String = "shared") { self.owner = owner }
  func track(_ event: String) { events.mutate { $0.append(event) } }
  var report: String { "\(owner): \(events.value.count) events" }
}

private final class MockAnalytics: SharedAnalytics, @unchecked Sendable {}

/// Tracks and reports, but through another class.
private final class SettingsAnalytics: Tracking, Reporting {
  func track(_ event: String) {}
  var report: String { "settings" }
}

private struct PlainSettings {}

private class Screen {
  @Lazy var tracker: any Tracking
  @Lazy var reporter: any Reporting
  @Lazy var analytics: SharedAnalytics
}

private final class SettingsScreen: Screen {}

struct ForwardTests {
  @Test func forwardSharesTheTargetsSingletonUnderEachType() throws {
    let registry = InitializerRegistry()
    registry.register(SharedAnalytics.self, scope: .singleton) { _ in SharedAnalytics() }
    registry.forward((any Tracking).self, to: SharedAnalytics.self)
    registry.forward((any Reporting).self, to: SharedAnalytics.self)
    let screen = Screen()
    let tracker = try registry.resolve((any Tracking).self, for: screen)
    let reporter = try registry.resolve((any Reporting).self, for: screen)
    let analytics = try registry.resolve(SharedAnalytics.self, for: SettingsScreen())
    #expect(tracker === analytics)
    #expect(reporter === analytics)
  }

  @Test func forwardedPropertiesOfAnObjectShareOneInstance() {
    final class DashboardScreen {
      @Lazy var tracker: any Tracking
      @Lazy var reporter: any Reporting
      @Lazy var analytics: SharedAnalytics
    }
    let shared = InitializerRegistry.shared
    shared.register(SharedAnalytics.self, in: DashboardScreen.self, scope: .singleton) { _ in
      SharedAnalytics(owner: "dashboard")
    }
    shared.forward((any Tracking).self, in: DashboardScreen.self, to: SharedAnalytics.self)
    shared.forward((any Reporting).self, in: DashboardScreen.self, to: SharedAnalytics.self)
    let first = DashboardScreen()
    let second = DashboardScreen()
    first.tracker.track("opened")
    #expect(first.tracker === first.analytics)
    #expect(second.reporter === first.analytics)
    #expect(second.reporter.report == "dashboard: 1 events")
  }

  @Test func targetIsResolvedWithItsOwnRulesForTheSameSender() throws {
    let registry = InitializerRegistry()
    registry.register(SharedAnalytics.self) { _ in SharedAnalytics(owner: "root") }
    registry.register(SharedAnalytics.self, in: SettingsScreen.self) { _ in
      SharedAnalytics(owner: "settings")
    }
    registry.forward((any Reporting).self, to: SharedAnalytics.self)
    #expect(try registry.resolve((any Reporting).self, for: Screen()).report.hasPrefix("root"))
    #expect(
      try registry.resolve((any Reporting).self, for: SettingsScreen()).report.hasPrefix(
        "settings"))
    // The target's scope: unique, so a new instance per resolution.
    let screen = Screen()
    #expect(
      try registry.resolve((any Reporting).self, for: screen)
        !== registry.resolve((any Reporting).self, for: screen))
  }

  @Test func forwardFollowsTheRuleOrderOfRegistrations() throws {
    let registry = InitializerRegistry()
    registry.register(SharedAnalytics.self, scope: .singleton) { _ in SharedAnalytics() }
    registry.forward((any Reporting).self, to: SharedAnalytics.self)
    registry.register((any Reporting).self, in: SettingsScreen.self) { _ in SettingsAnalytics() }
    registry.forward((any Tracking).self, in: SettingsScreen.self, to: SharedAnalytics.self)
    registry.register((any Tracking).self) { _ in SettingsAnalytics() }
    #expect(try registry.resolve((any Reporting).self, for: SettingsScreen()).report == "settings")
    #expect(try registry.resolve((any Reporting).self, for: Screen()) is SharedAnalytics)
    #expect(try registry.resolve((any Tracking).self, for: SettingsScreen()) is SharedAnalytics)
    #expect(try registry.resolve((any Tracking).self, for: Screen()) is SettingsAnalytics)
  }

  @Test func targetThatDoesNotConformIsAnErrorNamingBothTypes() {
    let registry = InitializerRegistry()
    registry.register(SettingsAnalytics.self) { _ in SettingsAnalytics() }
    // A class target of a protocol: a subclass might conform, so registering cannot tell.
    registry.forward((any Exporting).self, to: SettingsAnalytics.self)
    #expect {
      try registry.resolve((any Exporting).self, for: Screen())
    } throws: { error in
      let text = "\(error)"
      return (error as? ResolutionError)?.kind == .forwardTargetMismatch
        && text.contains(
          "LazyInject cannot forward LazyInjectTests.Exporting to"
            + " LazyInjectTests.SettingsAnalytics")
        && text.contains("is not a LazyInjectTests.Exporting")
        && text.contains("Forward registered at LazyInjectTests/ForwardTests.swift:")
        && text.contains("Fix:")
    }
  }

  @Test func forwardCycleIsReported() {
    let registry = InitializerRegistry()
    registry.forward((any Tracking).self, to: (any Reporting).self)
    registry.forward((any Reporting).self, to: (any Tracking).self)
    #expect {
      try registry.resolve((any Tracking).self, for: Screen())
    } throws: { error in
      (error as? ResolutionError)?.kind == .dependencyCycle
    }
  }

  @Test func mockOfTheTargetInAnOverrideLayerIsForwarded() {
    final class CheckoutScreen {
      @Lazy var tracker: any Tracking
    }
    let shared = InitializerRegistry.shared
    shared.register(SharedAnalytics.self, in: CheckoutScreen.self, scope: .singleton) { _ in
      SharedAnalytics()
    }
    shared.forward((any Tracking).self, in: CheckoutScreen.self, to: SharedAnalytics.self)
    let mock = MockAnalytics()
    shared.withOverrides {
      $0.register(SharedAnalytics.self, in: CheckoutScreen.self) { _ in mock }
    } operation: {
      #expect(CheckoutScreen().tracker === mock)
    }
    #expect(CheckoutScreen().tracker !== mock)
  }

  @Test func forwardRegisteredInALayerDiesWithIt() throws {
    let registry = InitializerRegistry()
    registry.register(SharedAnalytics.self, scope: .singleton) { _ in SharedAnalytics() }
    registry.register((any Tracking).self) { _ in SettingsAnalytics() }
    let inLayer = try registry.withOverrides {
      $0.forward((any Tracking).self, to: SharedAnalytics.self)
    } operation: {
      try registry.resolve((any Tracking).self, for: Screen())
    }
    #expect(inLayer is SharedAnalytics)
    #expect(try registry.resolve((any Tracking).self, for: Screen()) is SettingsAnalytics)
  }

  @Test func explainAndDescriptionShowForwards() {
    let registry = InitializerRegistry()
    registry.forward((any Tracking).self, to: SharedAnalytics.self)
    registry.forward((any Tracking).self, in: SettingsScreen.self, to: SettingsAnalytics.self)
    let text = registry.explain((any Tracking).self, in: SettingsScreen.self)
    #expect(
      text.contains(
        "  LazyInjectTests.SettingsScreen: registered, forwarded to"
          + " LazyInjectTests.SettingsAnalytics (LazyInjectTests/ForwardTests.swift:"), "\(text)")
    #expect(
      text.contains(
        "Result: the registration for LazyInjectTests.SettingsScreen, forwarded to"
          + " LazyInjectTests.SettingsAnalytics"))
    let description = registry.description
    #expect(
      description.contains(
        "  root default: forwarded to LazyInjectTests.SharedAnalytics"
          + " (LazyInjectTests/ForwardTests.swift:"), "\(description)")
  }

  @Test func concurrentFirstReadsOfForwardedPropertiesShareOneSingleton() {
    final class FeedScreen {
      @Lazy var tracker: any Tracking
      @Lazy var reporter: any Reporting
    }
    let shared = InitializerRegistry.shared
    let built = Counter()
    shared.register(SharedAnalytics.self, in: FeedScreen.self, scope: .singleton) { _ in
      built.increment()
      return SharedAnalytics()
    }
    shared.forward((any Tracking).self, in: FeedScreen.self, to: SharedAnalytics.self)
    shared.forward((any Reporting).self, in: FeedScreen.self, to: SharedAnalytics.self)
    let screens = Handoff(value: (0..<200).map { _ in FeedScreen() })
    runConcurrently(threads: 8) { index in
      for screen in screens.value.shuffled() {
        if index.isMultiple(of: 2) {
          screen.tracker.track("seen")
        } else {
          _ = screen.reporter.report
        }
      }
    }
    #expect(built.value == 1)
    let first = screens.value[0].tracker
    #expect(screens.value.allSatisfy { $0.tracker === first && $0.reporter === first })
  }
}

/// A singleton read both through a forward and under its own type, by one container class.
private protocol Engine: AnyObject, Sendable {}
private final class V8: Engine {}
private final class Garage: @unchecked Sendable {  // `@Lazy` guards its own slots.
  @Lazy var engine: any Engine
  @Lazy var v8: V8
}

#if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
  struct ForwardFastPathTests {
    // The fast path's table is the shared registry's, filled by first reads: a fresh process.
    @Test func aForwardsFirstReadLeavesTheTargetsFastPathToTheTargetsOwnRule() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.register(V8.self, scope: .singleton) { _ in V8() }
        registry.forward((any Engine).self, to: V8.self)
        let engine = Garage().engine  // The forward resolves V8 for a Garage, with no slot of V8.
        let garage = Garage()
        let first = garage.v8  // A first read of (V8, Garage): the table may serve it.
        let again = garage.v8  // A hot read of what the slot kept.
        require(first === engine && again === engine, "another V8 than the singleton")
        let rule = garage.$v8.rule.map { "\($0)" } ?? "none"
        require(!rule.contains("forward"), "V8's property names the forward's rule: \(rule)")
      }
    }
  }
#endif
