import LazyInject
import LazyInjectTesting
import Testing

private final class Clock {
  let time: String
  init(_ time: String) { self.time = time }
}

private final class Screen {
  @Lazy var clock: Clock
}

private let production: Void = InitializerRegistry.shared.register(Clock.self) { _ in
  Clock("now")
}

/// Registers production on a thread of its own: under the trait, a registration on `.shared`
/// made by the test would go to the test's layer.
private func registerProduction() {
  runConcurrently(threads: 1) { _ in production }
}

@Suite(.overrides { $0.register(Clock.self) { _ in Clock("fixed") } })
struct OverridesTraitTests {
  init() { registerProduction() }

  @Test func suiteTraitAppliesToEachTest() {
    #expect(Screen().clock.time == "fixed")
  }

  @Test(.overrides { $0.register(Clock.self) { _ in Clock("test") } })
  func traitOfTheTestStacksOverTheSuiteTrait() {
    #expect(Screen().clock.time == "test")
  }

  @Test(arguments: 1...3)
  func eachTestCaseRunsWithTheOverrides(_ index: Int) {
    #expect(Screen().clock.time == "fixed")
  }
}

struct OverridesTraitAbsenceTests {
  init() { registerProduction() }

  @Test func productionIsSeenWithoutTheTrait() {
    #expect(Screen().clock.time == "now")
  }
}
