import LazyInject
import LazyInjectTestSupport
import Testing

private final class Alpha {}
private final class Beta {}
private final class Screen {}

private final class Node {
  let child: Node?
  init(child: Node?) { self.child = child }
}

/// Two properties whose initializers read each other through their sender.
final class CyclicScreen {
  final class First {}
  final class Second {}
  @Lazy var first: First
  @Lazy var second: Second
}

struct CycleTests {
  @Test func cycleThroughTwoInitializersIsReportedWithItsChain() throws {
    let registry = InitializerRegistry()
    registry.register(Alpha.self) { [unowned registry] sender in
      _ = try registry.resolve(Beta.self, for: sender)
      return Alpha()
    }
    registry.register(Beta.self) { [unowned registry] sender in
      _ = try registry.resolve(Alpha.self, for: sender)
      return Beta()
    }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(Alpha.self, for: Screen())
    }
    #expect(error.kind == .dependencyCycle)
    let steps = error.description.split(separator: "\n").filter { $0.hasPrefix("  ") }
    #expect(steps.count == 3)
    #expect(steps.first?.contains("Alpha in ") == true)
    #expect(steps.dropFirst().first?.contains("Beta in ") == true)
    #expect(steps.last?.contains("Alpha in ") == true)
  }

  @Test func singletonCycleAcrossContainersIsReported() throws {
    let registry = InitializerRegistry()
    registry.register(Alpha.self, scope: .singleton) { [unowned registry] _ in
      _ = try registry.resolve(Beta.self, for: Screen())
      return Alpha()
    }
    registry.register(Beta.self, scope: .singleton) { [unowned registry] _ in
      _ = try registry.resolve(Alpha.self, for: Screen())
      return Beta()
    }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(Alpha.self, for: Screen())
    }
    #expect(error.kind == .dependencyCycle)
    #expect(error.description.contains("Alpha"))
    #expect(error.description.contains("Beta"))
  }

  @Test func endlessChainOfNewContainersStopsAtTheDepthLimit() throws {
    let registry = InitializerRegistry()
    registry.register(Node.self) { [unowned registry] _ in
      Node(child: try registry.resolve(Node.self, for: Screen()))
    }
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(Node.self, for: Screen())
    }
    #expect(error.kind == .dependencyCycle)
    #expect(error.description.contains("initializers deep"))
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func lazyPropertyCycleStopsTheProgramNamingTheChain() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          let registry = InitializerRegistry.shared
          registry.register(CyclicScreen.First.self, in: CyclicScreen.self) { sender in
            _ = sender.second
            return CyclicScreen.First()
          }
          registry.register(CyclicScreen.Second.self, in: CyclicScreen.self) { sender in
            _ = sender.first
            return CyclicScreen.Second()
          }
          _ = CyclicScreen().first
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("dependency cycle"))
      #expect(output.contains("CyclicScreen.First in LazyInjectTests.CyclicScreen"))
      #expect(
        output.contains("-> LazyInjectTests.CyclicScreen.Second in LazyInjectTests.CyclicScreen"))
    }
  #endif
}
