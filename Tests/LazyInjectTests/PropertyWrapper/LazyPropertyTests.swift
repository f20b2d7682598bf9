import LazyInject
import Testing

private let builtLoaders = Counter()

private final class Loader: DefaultInitializable {
  init() { builtLoaders.increment() }
}

private final class Screen {
  @Lazy var loader: Loader
}

private final class WeakTracked: DefaultInitializable {
  init() {}
}

private final class TrackedScreen {
  @Lazy var tracked: WeakTracked
}

private final class AssignedValue: DefaultInitializable {
  let name: String
  init() { name = "built" }
  init(name: String) { self.name = name }
}

private final class AssigningScreen {
  @Lazy var value: AssignedValue
}

// Serialized: two tests count the loaders built with `builtLoaders`, one counter for the whole
// file; run in parallel, another test's loaders (`eachContainerGetsItsOwnValue` builds two)
// would be counted too.
@Suite(.serialized)
struct LazyPropertyTests {
  @Test func nothingIsBuiltBeforeTheFirstRead() {
    let before = builtLoaders.value
    let screen = Screen()
    #expect(builtLoaders.value == before)
    #expect(!screen.$loader.isResolved)
    _ = screen.loader
    #expect(builtLoaders.value == before + 1)
    #expect(screen.$loader.isResolved)
  }

  @Test func valueIsBuiltOnceAndKept() {
    let before = builtLoaders.value
    let screen = Screen()
    let first = screen.loader
    let second = screen.loader
    #expect(first === second)
    #expect(builtLoaders.value == before + 1)
  }

  @Test func eachContainerGetsItsOwnValue() {
    #expect(Screen().loader !== Screen().loader)
  }

  @Test func valueIsReleasedWithItsContainer() {
    weak var weakValue: WeakTracked?
    weak var weakScreen: TrackedScreen?
    do {
      let screen = TrackedScreen()
      weakScreen = screen
      weakValue = screen.tracked
      #expect(weakValue != nil)
    }
    #expect(weakScreen == nil)
    #expect(weakValue == nil)
  }

  @Test func setterStoresAValueThatIsReadBackWithoutResolving() {
    let screen = AssigningScreen()
    screen.value = AssignedValue(name: "injected")
    #expect(screen.value.name == "injected")
    #expect(screen.$value.rule == nil)
  }

  @Test func setterReplacesAResolvedValueAndReleasesTheOldOne() {
    let screen = AssigningScreen()
    weak let old: AssignedValue? = screen.value
    #expect(old?.name == "built")
    screen.value = AssignedValue(name: "second")
    #expect(old == nil)
    #expect(screen.value.name == "second")
  }

  @Test func resetMakesTheNextReadResolveAgain() {
    let screen = Screen()
    let first = screen.loader
    screen.$loader.reset()
    #expect(!screen.$loader.isResolved)
    #expect(screen.loader !== first)
  }
}
