import LazyInject
import Testing

private final class Service {}
private final class Screen {}

struct LifetimeTests {
  @Test(arguments: [InitializerRegistry.Scope.unique, .singleton, .weak])
  func registryNeverRetainsTheContainer(scope: InitializerRegistry.Scope) throws {
    let registry = InitializerRegistry()
    registry.register(Service.self, scope: scope) { _ in Service() }
    weak var weakScreen: Screen?
    var service: Service?
    do {
      let screen = Screen()
      weakScreen = screen
      service = try registry.resolve(Service.self, for: screen)
    }
    #expect(weakScreen == nil)
    #expect(service != nil)
  }

  @Test func singletonOutlivesItsContainers() throws {
    let registry = InitializerRegistry()
    registry.register(Service.self, scope: .singleton) { _ in Service() }
    weak let service = try registry.resolve(Service.self, for: Screen())
    #expect(service != nil)
  }

  @Test func uniqueValueIsReleasedWhenNobodyHoldsIt() throws {
    let registry = InitializerRegistry()
    registry.register(Service.self) { _ in Service() }
    weak let service = try registry.resolve(Service.self, for: Screen())
    #expect(service == nil)
  }

  /// What the initializer of a replaced or removed rule captures goes with it, even when a pair
  /// was served by it: the pair's cached plan is forgotten, its first rule kept as a description.
  @Test func replacedOrRemovedRuleOfAPairReadBeforeReleasesWhatItsInitializerCaptured() throws {
    let registry = InitializerRegistry()
    let replacements = Counter()
    registry.duplicateRegistrationHandler = { _ in replacements.increment() }
    var replaced: Captured? = Captured()
    weak let replacedCapture = replaced
    registry.register(Service.self, in: Screen.self) { [replaced] _ in
      withExtendedLifetime(replaced) { Service() }
    }
    var removed: Captured? = Captured()
    weak let removedCapture = removed
    registry.register(Service.self) { [removed] _ in withExtendedLifetime(removed) { Service() } }
    replaced = nil
    removed = nil
    _ = try registry.resolve(Service.self, for: Screen())
    _ = try registry.resolve(Service.self, for: LifetimeProbe())
    #expect(replacedCapture != nil)
    #expect(removedCapture != nil)

    registry.register(Service.self, in: Screen.self) { _ in Service() }
    registry.unregister(Service.self)

    #expect(replacements.value == 1)
    #expect(replacedCapture == nil)
    #expect(removedCapture == nil)
  }
}

private final class Captured: Sendable {}
private final class LifetimeProbe {}
