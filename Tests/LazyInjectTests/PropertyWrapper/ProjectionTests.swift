import LazyInject
import Testing

private final class Loader {
  let source: String
  init(_ source: String) { self.source = source }
}

private final class Formatter: DefaultInitializable { init() {} }

private final class Screen: InjectionObserving {
  @Lazy var loader: Loader
  @Lazy var formatter: Formatter
  var injected: [String] = []

  func didInject(_ value: Any, intoPropertyNamed name: String) {
    injected.append(name)
  }
}

struct ProjectionTests {
  @Test func resetPicksUpANewRule() {
    let registry = InitializerRegistry.shared
    registry.register(Loader.self, in: Screen.self) { _ in Loader("first") }
    let screen = Screen()
    #expect(screen.loader.source == "first")
    registry.unregister(Loader.self, in: Screen.self)
    registry.register(Loader.self, in: Screen.self) { _ in Loader("second") }
    #expect(screen.loader.source == "first")
    screen.$loader.reset()
    #expect(screen.loader.source == "second")
  }

  @Test func ruleTellsWhichRuleProducedTheValue() throws {
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(Loader.self, in: Screen.self) { _ in Loader("override") }
    } operation: {
      let screen = Screen()
      #expect(screen.$loader.rule == nil)
      _ = screen.loader
      #expect(screen.$loader.rule?.containerTypeName == "LazyInjectTests.Screen")
      #expect(screen.$loader.rule?.overrideDepth == 1)
      _ = screen.formatter
      #expect(screen.$formatter.rule?.isDefaultInitializer == true)
    }
  }

  @Test func containerObservesEachInjectionButNotAssignments() {
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.register(Loader.self, in: Screen.self) { _ in Loader("observed") }
    } operation: {
      let screen = Screen()
      _ = screen.formatter
      _ = screen.loader
      _ = screen.loader
      screen.loader = Loader("assigned")
      #expect(screen.injected == ["formatter", "loader"])
    }
  }
}
