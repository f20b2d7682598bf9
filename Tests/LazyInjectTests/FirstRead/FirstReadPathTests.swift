import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

// Exit tests only: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
#if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
  // Which way a first read went, seen through the package's record of it (debug builds keep it). The
  // fast path needs a process where no override layer was ever made, so these tests are exit
  // tests: each runs in a fresh process.

  private final class Meter {
    init() {}
  }

  private final class Gauge {
    init() {}
  }

  private class Panel {
    @Lazy var meter: Meter
    @Lazy var gauge: Gauge
  }

  // A new container class makes a new (property type, container class) pair: the fast path serves
  // only a pair whose first rule serves it (see `RuleTable.PairEntry`).
  private final class FirstPanel: Panel {}
  private final class SecondPanel: Panel {}
  private final class ThirdPanel: Panel {}
  private final class FourthPanel: Panel {}
  private final class FifthPanel: Panel {}
  private final class SixthPanel: Panel {}
  private final class SeventhPanel: Panel {}

  /// What an initializer captures: released with its registration.
  private final class Token: Sendable {}

  private final class DefaultService: DefaultInitializable {
    init() {}
  }

  private final class DefaultPanel {
    @Lazy var service: DefaultService
  }

  extension InitializerRegistry.Scope {
    fileprivate static let panelSession = Self.custom("panel session")
  }

  /// The paths of `count` first reads of `read` on new panels made by `make`, in order.
  private func paths(
    _ count: Int, of make: () -> Panel = Panel.init, _ read: (Panel) -> Void
  ) -> [FirstReadPath?] {
    (0..<count).map { _ in
      FirstReadPaths.reset()
      read(make())
      return FirstReadPaths.lastPath
    }
  }

  @Suite(.enabled(if: FirstReadPaths.isRecording, "only debug builds record first-read paths"))
  struct FirstReadPathTests {
    @Test func uniqueRegistrationEntersTheFastPathTableWhenItsPairIsReadAgain() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        InitializerRegistry.shared.register(Meter.self) { _ in Meter() }
        let first = paths(1) { _ = $0.meter }
        // Most pairs of a launch are read once: they get no entry, which is an allocation.
        require(
          FirstReadPaths.fastPathEntry(for: Meter.self, in: Panel.self) == nil,
          "a pair read once has an entry")
        let seen = first + paths(2) { _ = $0.meter }
        require(seen == [.general, .general, .fastTableBuild], "the reads took \(seen)")
        require(
          FirstReadPaths.fastPathEntry(for: Meter.self, in: Panel.self) == .build,
          "the fast path table holds no entry for the pair")
      }
    }

    @Test func singletonIsBuiltAndKeptThenFoundInTheFastPathTable() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        InitializerRegistry.shared.register(Meter.self, scope: .singleton) { _ in Meter() }
        let seen = paths(3) { _ = $0.meter }
        // The first read records the object it built and the registry keeps.
        require(
          seen == [.general, .fastTableKeptHandle, .fastTableKeptHandle],
          "the reads took \(seen)")
        require(
          FirstReadPaths.fastPathEntry(for: Meter.self, in: Panel.self) == .keptHandle,
          "the fast path table holds no kept object for the pair")
      }
    }

    @Test func everyChangeThatCanReleaseWhatAnEntryNamesEmptiesTheTable() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.duplicateRegistrationHandler = { _ in }  // Replacing is the point here.
        registry.register(Meter.self) { _ in Meter() }
        let changes: [(String, () -> Panel, () -> Void)] = [
          (
            "a registration for another pair", FirstPanel.init,
            {
              registry.register(Gauge.self) { _ in Gauge() }
            }
          ),
          (
            "a replaced registration", SecondPanel.init,
            {
              registry.register(Meter.self) { _ in Meter() }
            }
          ),
          ("unregister", ThirdPanel.init, { registry.unregister(Gauge.self) }),
          ("resetSingletons", FourthPanel.init, { registry.resetAllScopes() }),
          ("reset of a custom scope", FifthPanel.init, { registry.reset(.panelSession) }),
          (
            "a tracer, set and unset", SixthPanel.init,
            {
              registry.tracer = { _ in }
              registry.tracer = nil
            }
          ),
          ("removeAll", SeventhPanel.init, { registry.unregisterAll() }),
        ]
        for (name, make, change) in changes {
          let container: AnyClass = type(of: make())
          let seen = paths(3, of: make) { _ = $0.meter }
          require(
            FirstReadPaths.fastPathEntry(for: Meter.self, in: container) == .build,
            "no entry before \(name): the reads took \(seen)")
          change()
          require(
            FirstReadPaths.fastPathEntry(for: Meter.self, in: container) == nil,
            "the entry outlived \(name)")
        }
      }
    }

    @Test func readAfterADroppedSingletonTakesTheGeneralPathAndBuildsAgain() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.register(Meter.self, scope: .singleton) { _ in Meter() }
        var kept: Meter?
        _ = paths(3) { kept = $0.meter }
        weak let dropped = kept
        kept = nil
        registry.resetAllScopes()
        require(dropped == nil, "the dropped singleton is still alive")
        let seen = paths(1) { _ = $0.meter }
        require(seen == [.general], "the read after the reset took \(seen)")
      }
    }

    @Test func tracerTurnsTheFastPathOffWhileItIsSet() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.register(Meter.self) { _ in Meter() }
        _ = paths(3) { _ = $0.meter }
        registry.tracer = { _ in }
        let traced = paths(3) { _ = $0.meter }
        require(traced == [.general, .general, .general], "traced reads took \(traced)")
        registry.tracer = nil
        let untraced = paths(3) { _ = $0.meter }
        require(untraced.last == .fastTableBuild, "reads after the tracer took \(untraced)")
      }
    }

    @Test func firstOverrideLayerTurnsTheFastPathOffForTheProcess() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.register(Meter.self) { _ in Meter() }
        _ = paths(3) { _ = $0.meter }
        registry.withOverrides { _ in
        } operation: {
        }
        let seen = paths(3) { _ = $0.meter }
        require(seen == [.general, .general, .general], "reads after a layer took \(seen)")
      }
    }

    @Test func onlyPairsWithAPropertyRuleLeaveTheFastPath() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.register(Meter.self) { _ in Meter() }
        registry.register(Gauge.self) { _ in Gauge() }
        _ = paths(3) { _ = $0.gauge }
        registry.register(\Panel.$gauge) { _ in Gauge() }
        require(
          FirstReadPaths.fastPathEntry(for: Gauge.self, in: Panel.self) == nil,
          "the entry outlived the property rule's registration")
        let meter = paths(3) { _ = $0.meter }
        require(meter.last == .fastTableBuild, "reads of another pair took \(meter)")
        let gauge = paths(3) { _ = $0.gauge }
        require(gauge == [.general, .general, .general], "reads of the pair took \(gauge)")
        require(
          FirstReadPaths.fastPathEntry(for: Gauge.self, in: Panel.self) == nil,
          "the pair with a property rule has an entry")
        registry.unregister(\Panel.$gauge)
        let after = paths(3) { _ = $0.gauge }
        require(after.last == .fastTableBuild, "reads after unregistering took \(after)")
      }
    }

    @Test func defaultInitializableTypeTakesTheGeneralPath() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let seen = (0..<3).map { _ -> FirstReadPath? in
          FirstReadPaths.reset()
          _ = DefaultPanel().service
          return FirstReadPaths.lastPath
        }
        require(seen == [.general, .general, .general], "the reads took \(seen)")
      }
    }

    // A build on the fast path holds its registration by a reference taken from the entry's
    // credits, and gives it back under the slot lock of its publication: a reference given back
    // and released too would free the registration early, one never given back would keep it.
    @Test func buildsGiveTheirRegistrationBackAndAReplacedRuleStillGoes() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.duplicateRegistrationHandler = { _ in }  // Replacing is the point here.
        weak var captured: Token?
        do {
          let token = Token()
          captured = token
          registry.register(Meter.self) { _ in withExtendedLifetime(token) { Meter() } }
        }
        // More builds than a batch of credits: the entry takes a batch again meanwhile.
        let seen = paths(200) { _ = $0.meter }
        require(seen.dropFirst(2).allSatisfy { $0 == .fastTableBuild }, "the reads took \(seen)")
        registry.register(Meter.self) { _ in Meter() }
        require(captured == nil, "the replaced registration was not released")
      }
    }

    @Test func aBuildWhoseInitializerEmptiesTheTableReleasesItsRegistration() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let registry = InitializerRegistry.shared
        registry.duplicateRegistrationHandler = { _ in }  // Replacing is the point here.
        let isEmptying = Locked(false)
        weak var captured: Token?
        do {
          let token = Token()
          captured = token
          registry.register(Meter.self) { _ in
            // A registration empties the table, and frees the entry this build took from.
            if isEmptying.value { registry.register(Gauge.self) { _ in Gauge() } }
            return withExtendedLifetime(token) { Meter() }
          }
        }
        _ = paths(3) { _ = $0.meter }
        isEmptying.mutate { $0 = true }
        let seen = paths(1) { _ = $0.meter }
        require(seen == [.fastTableBuild], "the read took \(seen)")
        isEmptying.mutate { $0 = false }
        registry.register(Meter.self) { _ in Meter() }
        require(captured == nil, "the registration was not released")
      }
    }
  }
#endif
