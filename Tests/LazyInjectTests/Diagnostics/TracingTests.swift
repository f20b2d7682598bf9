import LazyInject
import Testing

private final class Leaf {}
private final class Branch {
  init(leaf: Leaf) {}
}
private final class Screen {}

struct TracingTests {
  @Test func tracerReceivesEachResolutionWithRuleAndDepth() throws {
    let registry = InitializerRegistry()
    registry.register(Leaf.self) { _ in Leaf() }
    registry.register(Branch.self, in: Screen.self) { [unowned registry] sender in
      Branch(leaf: try registry.resolve(Leaf.self, for: sender))
    }
    let events = Locked<[InitializerRegistry.ResolutionEvent]>([])
    registry.tracer = { event in events.withLock { $0.append(event) } }
    _ = try registry.resolve(Branch.self, for: Screen())
    let recorded = events.withLock { $0 }
    #expect(recorded.count == 2)
    #expect(recorded.first?.rule.propertyTypeName == "LazyInjectTests.Leaf")
    #expect(recorded.first?.depth == 1)
    #expect(recorded.first?.rule.isRootDefault == true)
    #expect(recorded.last?.rule.propertyTypeName == "LazyInjectTests.Branch")
    #expect(recorded.last?.rule.containerTypeName == "LazyInjectTests.Screen")
    #expect(recorded.last?.containerTypeName == "LazyInjectTests.Screen")
    #expect(recorded.last?.depth == 0)
    #expect(recorded.last!.durationNanoseconds >= recorded.first!.durationNanoseconds)
  }

  @Test func resolutionServedByAnOverrideIsReportedByTheRegistryAsked() throws {
    let registry = InitializerRegistry()
    registry.register(Leaf.self) { _ in Leaf() }
    let events = Locked<[InitializerRegistry.ResolutionEvent]>([])
    registry.tracer = { event in events.withLock { $0.append(event) } }
    try registry.withOverrides {
      $0.register(Leaf.self, in: Screen.self) { _ in Leaf() }
    } operation: {
      _ = try registry.resolve(Leaf.self, for: Screen())
    }
    let recorded = events.withLock { $0 }
    #expect(recorded.count == 1)
    #expect(recorded.first?.rule.containerTypeName == "LazyInjectTests.Screen")
  }

  @Test func tracingIsOffByDefaultAndCanBeTurnedOff() throws {
    let registry = InitializerRegistry()
    #expect(registry.tracer == nil)
    let count = Counter()
    registry.tracer = { _ in count.increment() }
    registry.register(Leaf.self) { _ in Leaf() }
    _ = try registry.resolve(Leaf.self, for: Screen())
    registry.tracer = nil
    _ = try registry.resolve(Leaf.self, for: Screen())
    #expect(count.value == 1)
  }

  /// Before the old tracer was released after unlocking, this deinit's read of the registry
  /// waited for the lock its own thread held.
  @Test(.timeLimit(.minutes(1)))
  func replacedTracerAndDuplicateHandlerAreReleasedWithNoLockHeld() {
    final class Captured: Sendable {
      let registry: InitializerRegistry
      let released: Counter
      init(_ registry: InitializerRegistry, _ released: Counter) {
        (self.registry, self.released) = (registry, released)
      }
      deinit {
        _ = registry.description  // Takes the registry's lock.
        released.increment()
      }
    }
    let (registry, released) = (InitializerRegistry(), Counter())
    do {
      let tracing = Captured(registry, released)
      let handling = Captured(registry, released)
      registry.tracer = { _ in _ = tracing }
      registry.duplicateRegistrationHandler = { _ in _ = handling }
    }
    registry.tracer = nil
    registry.duplicateRegistrationHandler = { _ in }
    #expect(released.value == 2)
  }
}
