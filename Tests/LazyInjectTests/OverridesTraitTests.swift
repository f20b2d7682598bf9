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

@Suite(.overrides { $0.register(Clock.self) { _ in Clock("fixed") } })
struct OverridesTraitTests {
  init() { production }

  @Test func testSuiteTraitAppliesToEachTest() {
    #expect(Screen().clock.time == "fixed")
  }

  @Test(.overrides { $0.register(Clock.self) { _ in Clock("test") } })
  func testTestTraitStacksOverTheSuiteTrait() {
    #expect(Screen().clock.time == "test")
  }

  @Test(arguments: 1...3)
  func testEachTestCaseRunsWithTheOverrides(_ index: Int) {
    #expect(Screen().clock.time == "fixed")
  }
}

struct OverridesTraitAbsenceTests {
  init() { production }

  @Test func testTestsWithoutTheTraitSeeProduction() {
    #expect(Screen().clock.time == "now")
  }
}
