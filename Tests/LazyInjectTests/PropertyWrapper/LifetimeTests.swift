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
}
