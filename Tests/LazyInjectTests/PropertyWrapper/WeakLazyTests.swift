import Foundation
import LazyInject
import LazyInjectTestSupport
import Testing

/// A flow's coordinator, which owns its screens; screens point back to it weakly.
private final class FlowCoordinator: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class ChildScreen {
  @WeakLazy var coordinator: FlowCoordinator?
}

private final class OrphanScreen {
  @WeakLazy var coordinator: FlowCoordinator?
}

private final class RacedScreen {
  @WeakLazy var coordinator: FlowCoordinator?
}

private let racedBuilds = Counter()

/// The app keeps the current flow's coordinator; `ChildScreen`'s rule hands it out.
private let currentFlow = Locked<FlowCoordinator?>(nil)

private struct WeakSlot {
  weak var object: FlowCoordinator?
}

@Suite(.serialized)  // Several tests set the current flow.
struct WeakLazyTests {
  private static let registrations: Void = {
    InitializerRegistry.shared.register(FlowCoordinator?.self, in: ChildScreen.self) { _ in
      currentFlow.value
    }
    InitializerRegistry.shared.register(FlowCoordinator.self, in: RacedScreen.self) { _ in
      FlowCoordinator("built \(racedBuilds.increment())")
    }
  }()

  init() {
    Self.registrations
  }

  @Test func resolvesOnFirstReadAndDoesNotKeepTheInstanceAlive() {
    let screen = ChildScreen()
    var flow: FlowCoordinator? = FlowCoordinator("sign-in")
    weak let released = flow
    currentFlow.mutate { $0 = flow }
    #expect(screen.coordinator === flow)
    currentFlow.mutate { $0 = nil }
    flow = nil
    #expect(released == nil, "the screen kept its coordinator alive")
    #expect(screen.coordinator == nil)
  }

  @Test func resolvesAgainAfterTheInstanceWasReleased() {
    let screen = ChildScreen()
    currentFlow.mutate { $0 = FlowCoordinator("first") }
    #expect(screen.coordinator?.name == "first")
    let second = FlowCoordinator("second")
    currentFlow.mutate { $0 = second }  // "first" is released here.
    #expect(screen.coordinator === second)
    currentFlow.mutate { $0 = nil }
  }

  @Test func isNilWhenNoRuleApplies() {
    #expect(OrphanScreen().coordinator == nil)
  }

  @Test func assignedInstanceIsHeldWeakly() {
    let screen = OrphanScreen()
    var flow: FlowCoordinator? = FlowCoordinator("assigned")
    screen.coordinator = flow
    #expect(screen.coordinator?.name == "assigned")
    flow = nil
    #expect(screen.coordinator == nil)
  }

  @Test func overrideLayerApplies() {
    let mock = FlowCoordinator("mock")
    InitializerRegistry.shared.withOverrides {
      $0.register(FlowCoordinator.self, in: OrphanScreen.self) { _ in mock }
    } operation: {
      #expect(OrphanScreen().coordinator === mock)
    }
  }

  @Test func concurrentFirstReadsBuildOneInstance() {
    let before = racedBuilds.value
    for _ in 0..<50 {
      let screen = Handoff(value: RacedScreen())
      let kept = Locked<[FlowCoordinator]>([])
      runConcurrently(threads: 4) { _ in
        if let coordinator = screen.value.coordinator {
          kept.mutate { $0.append(coordinator) }  // Keeps it alive for the other readers.
        }
      }
      #expect(kept.value.count == 4)
      #expect(Set(kept.value.map(ObjectIdentifier.init)).count == 1)
    }
    #expect(racedBuilds.value - before == 50)
  }

  @Test func takesNoMoreBytesThanWeakVar() {
    #expect(MemoryLayout<WeakLazy<FlowCoordinator>>.size == MemoryLayout<WeakSlot>.size)
  }
}

/// A screen whose coordinator's initializer reads the screen's coordinator again.
final class SelfNeedingScreen {
  final class Coordinator {}
  @WeakLazy var coordinator: Coordinator?
}

/// Hears of the injection of its weak coordinator.
private final class ObservedFlowScreen: InjectionObserving {
  @WeakLazy var coordinator: FlowCoordinator?
  var injected: [String] = []

  func didInject(_ value: Any, intoPropertyNamed name: String) {
    injected.append(name)
  }
}

struct WeakLazyDiagnosticsTests {
  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func initializerReadingItsOwnWeakPropertyIsReportedAsACycle() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.shared.register(
            SelfNeedingScreen.Coordinator.self, in: SelfNeedingScreen.self
          ) { screen in
            _ = screen.coordinator
            return SelfNeedingScreen.Coordinator()
          }
          _ = SelfNeedingScreen().coordinator
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(!output.contains("watchdog"), "the read waited for itself")
      #expect(output.contains("dependency cycle"))
      #expect(output.contains("LazyInjectTests.SelfNeedingScreen.coordinator"))
    }
  #endif

  @Test func injectionObserverHearsTheWeakPropertysName() {
    let flow = FlowCoordinator("observed")
    InitializerRegistry.shared.withOverrides {
      $0.register(FlowCoordinator.self, in: ObservedFlowScreen.self) { _ in flow }
    } operation: {
      let screen = ObservedFlowScreen()
      #expect(screen.coordinator === flow)
      #expect(screen.injected == ["coordinator"])
    }
  }
}
