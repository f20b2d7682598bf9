import LazyInject
import Testing

private let builtCount = Counter()

private final class Registered {
  init() { builtCount.increment() }
}

private final class Buildable: DefaultInitializable {
  init() { builtCount.increment() }
}

private final class MissingOne {}
private final class MissingTwo {}

private class BaseScreen {
  @Lazy var missingInBase: MissingOne
}

private final class Screen: BaseScreen {
  @Lazy var registered: Registered
  @Lazy var buildable: Buildable
  @Lazy var missing: MissingTwo
}

private final class CompleteScreen {
  @Lazy var registered: Registered
  @Lazy var buildable: Buildable
}

struct ValidateTests {
  /// Registered once for all the tests (Swift Testing creates the suite anew for each).
  private static let registrations: Void = {
    InitializerRegistry.shared.register(Registered.self, in: Screen.self) { _ in Registered() }
    InitializerRegistry.shared.register(Registered.self, in: CompleteScreen.self) { _ in
      Registered()
    }
  }()

  init() {
    Self.registrations
  }

  @Test func validateListsEveryMissingPropertyAtOnceAndBuildsNothing() throws {
    let before = builtCount.value
    let error = try #require(throws: ResolutionError.self) {
      try InitializerRegistry.shared.validate(Screen())
    }
    #expect(builtCount.value == before)
    #expect(error.kind == .unresolvableProperties)
    #expect(error.description.contains("cannot resolve 2 properties of LazyInjectTests.Screen"))
    #expect(
      error.description.contains(
        "  - LazyInjectTests.Screen.missing: LazyInjectTests.MissingTwo; searched LazyInjectTests.Screen, LazyInjectTests.BaseScreen, then the root default"
      ))
    #expect(
      error.description.contains(
        "  - LazyInjectTests.Screen.missingInBase: LazyInjectTests.MissingOne"))
    #expect(!error.description.contains("registered:"))
    #expect(!error.description.contains("buildable:"))
  }

  @Test func validatePassesWhenEverythingResolves() {
    let before = builtCount.value
    #expect(throws: Never.self) { try InitializerRegistry.shared.validate(CompleteScreen()) }
    #expect(builtCount.value == before)
  }

  @Test func validateSkipsPropertiesThatHoldAValue() {
    let screen = Screen()
    screen.missing = MissingTwo()
    screen.missingInBase = MissingOne()
    #expect(throws: Never.self) { try InitializerRegistry.shared.validate(screen) }
  }

  @Test func validateCountsOverrides() {
    #expect(throws: Never.self) {
      try InitializerRegistry.shared.withOverrides { overrides in
        overrides.register(MissingOne.self) { _ in MissingOne() }
        overrides.register(MissingTwo.self) { _ in MissingTwo() }
      } operation: {
        try InitializerRegistry.shared.validate(Screen())
      }
    }
  }
}
