import ConsumerApp
import ConsumerAppTestSupport
import LazyInject
import LazyInjectTesting
import Observation
import Testing

@MainActor
struct ProfileScreenTests {
  @Test func productionScreenUsesTheLiveAPI() {
    let screen = ProfileViewController()
    screen.load()
    #expect(screen.model.greeting == "Hello, Ada!")
    #expect(screen.model.api is LiveProfileAPI)
  }

  /// The spy is the test's own: a `@MainActor` initializer may return it, and the test reads it
  /// afterwards.
  @Test func screenLoadsThroughTheSpy() {
    let spy = ProfileAPISpy()
    InitializerRegistry.shared.withOverrides { overrides in
      overrides.registerOnMainActor((any ProfileAPI).self) { _ in spy }
    } operation: {
      let screen = ProfileViewController()
      screen.load()
      #expect(screen.model.greeting == "Hello, Grace!")
    }
    #expect(spy.fetchCount == 1)
  }

  @Test(.overrides { $0.registerOnMainActor((any ProfileAPI).self) { _ in ProfileAPISpy() } })
  func viewModelNotifiesObserversWhenLoaded() async {
    let model = ProfileViewModel()
    await confirmation("greeting changed") { changed in
      withObservationTracking {
        _ = model.greeting
      } onChange: {
        changed()
      }
      model.load()
    }
    #expect(model.greeting == "Hello, Grace!")
  }
}
