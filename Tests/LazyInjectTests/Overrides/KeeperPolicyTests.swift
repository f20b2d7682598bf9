import LazyInject
import Testing

// The keeper policy, one test per rule of ARCHITECTURE.md's "Shared instances and the one keeper
// policy", named after it. Each test fails when its rule's branch in `keeper(of:…)` is removed or
// gives another keeper. G is the registry whose rule built the value, U the layers the build used.

private final class Session: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

/// A shared value, which records the session its build read, if any.
private final class Gadget: Sendable {
  let session: String?
  init(session: String? = nil) { self.session = session }
}

// One container class per test, so that each rule's registrations are its own. Each is read from
// one task at a time; `@Lazy` guards its slots.

private final class ResetDesk: @unchecked Sendable {
  @Lazy var gadget: Gadget
}

private final class PlainDesk: @unchecked Sendable {
  @Lazy var session: Session
  @Lazy var gadget: Gadget
}

private final class MergedDesk: @unchecked Sendable {
  @Lazy var session: Session
  @Lazy var gadget: Gadget
}

private final class NestedDesk: @unchecked Sendable {
  @Lazy var session: Session
  @Lazy var gadget: Gadget
}

private final class LayerDesk: @unchecked Sendable {
  @Lazy var session: Session
  @Lazy var gadget: Gadget
}

private final class LayerResetDesk: @unchecked Sendable {
  @Lazy var session: Session
  @Lazy var gadget: Gadget
}

extension InitializerRegistry.Scope {
  fileprivate static let keeperRule1 = Self.custom("keeperPolicyRule1")
  fileprivate static let keeperRule5 = Self.custom("keeperPolicyRule5")
}

struct KeeperPolicyTests {
  private let registry = InitializerRegistry.shared

  /// The production rules, registered once on the registry for the suite's private types.
  private static let production: Void = {
    let registry = InitializerRegistry.shared
    registry.register(Session.self, in: PlainDesk.self) { _ in Session("production") }
    registry.register(Session.self, in: MergedDesk.self) { _ in Session("production") }
    registry.register(Session.self, in: NestedDesk.self) { _ in Session("production") }
    registry.register(Session.self, in: LayerDesk.self) { _ in Session("production") }
    registry.register(Session.self, in: LayerResetDesk.self) { _ in Session("production") }
    registry.register(Gadget.self, in: ResetDesk.self, scope: .keeperRule1) { _ in
      if rule1Builds.increment() == 1 {
        registry.reset(.keeperRule1)  // During the first build.
      }
      return Gadget()
    }
    registry.register(Gadget.self, in: PlainDesk.self, scope: .singleton) { _ in Gadget() }
    registry.register(Gadget.self, in: MergedDesk.self, scope: .singleton) { desk in
      Gadget(session: desk.session.name)
    }
    registry.register(Gadget.self, in: LayerDesk.self, scope: .singleton) { desk in
      Gadget(session: desk.session.name)
    }
    registry.register(Gadget.self, in: LayerResetDesk.self, scope: .keeperRule5) { desk in
      let session = desk.session.name
      if rule5Builds.increment() == 1 {
        registry.reset(.keeperRule5)  // Inside the reader's layer: resets the layer's scope.
      }
      return Gadget(session: session)
    }
  }()

  /// The builds of the rules that reset their scope during their first build.
  private static let rule1Builds = Counter()
  private static let rule5Builds = Counter()

  init() { Self.production }

  /// A mock session, in a layer over the registry.
  private func mockSession(_ configure: InitializerRegistry) {
    configure.register(Session.self) { _ in Session("mock") }
  }

  @Test func rule1ABuildThatSpansAResetOfItsScopeIsKeptByNobody() {
    let acrossTheReset = ResetDesk().gadget
    let next = ResetDesk().gadget
    #expect(next !== acrossTheReset)
    #expect(ResetDesk().gadget === next)  // The next build spanned no reset: kept.
    #expect(Self.rule1Builds.value == 2)
  }

  @Test func rule2ABuildThatUsedNoLayerIsKeptByTheRegistry() {
    // Built where a layer is in force, and its sender holds the layer's session: but the build
    // used nothing of a layer.
    let built = registry.withOverrides(mockSession) {
      let desk = PlainDesk()
      #expect(desk.session.name == "mock")
      return desk.gadget
    }
    #expect(PlainDesk().gadget === built)
  }

  @Test func rule3ABuildWithLayersOfNoSingleChainIsKeptByNobody() {
    // Made in layer A, which mocks the session; read in layer B, made outside A: the reader's
    // stack joins A and B, which are no single chain.
    let desks = registry.withOverrides(mockSession) { [MergedDesk(), MergedDesk()] }
    #expect(desks[0].session.name == "mock")
    let merged = registry.withOverrides { _ in
    } operation: {
      desks[0].gadget
    }
    #expect(merged.session == "mock")
    let inA = desks[1].gadget
    #expect(inA !== merged)  // Not kept by A.
    #expect(MergedDesk().gadget !== merged)  // Nor by the registry.
    #expect(MergedDesk().gadget.session == "production")
  }

  @Test func rule4ABuildThatUsedItsOwnLayerOrOneItNestsInIsKeptByItsRegistry() {
    registry.withOverrides(mockSession) {
      // G is layer B, over A: the build used A's session, a layer that B nests in.
      registry.withOverrides {
        $0.register(Gadget.self, in: NestedDesk.self, scope: .singleton) { desk in
          Gadget(session: desk.session.name)
        }
      } operation: {
        let built = NestedDesk().gadget
        #expect(built.session == "mock")
        #expect(NestedDesk().gadget === built)
      }
      // G is layer C, which also mocks the session: the build used C itself.
      registry.withOverrides {
        $0.register(Session.self, in: NestedDesk.self) { _ in Session("C") }
        $0.register(Gadget.self, in: NestedDesk.self, scope: .singleton) { desk in
          Gadget(session: desk.session.name)
        }
      } operation: {
        let built = NestedDesk().gadget
        #expect(built.session == "C")
        #expect(NestedDesk().gadget === built)
      }
    }
  }

  @Test func rule5ABuildThatUsedALayerOverItsRegistryIsKeptByThatLayer() {
    let inLayer = registry.withOverrides(mockSession) {
      let built = LayerDesk().gadget
      #expect(built.session == "mock")
      #expect(LayerDesk().gadget === built)  // Kept by the layer.
      return built
    }
    let outside = LayerDesk().gadget
    #expect(outside !== inLayer)  // Not by the registry.
    #expect(outside.session == "production")
  }

  @Test func rule5ABuildWhoseLayerWasResetSinceItBeganIsKeptByNobody() {
    registry.withOverrides(mockSession) {
      let acrossTheReset = LayerResetDesk().gadget
      #expect(acrossTheReset.session == "mock")
      let next = LayerResetDesk().gadget
      #expect(next !== acrossTheReset)
      #expect(LayerResetDesk().gadget === next)  // The next build spanned no reset: kept.
    }
    #expect(Self.rule5Builds.value == 2)
  }
}
