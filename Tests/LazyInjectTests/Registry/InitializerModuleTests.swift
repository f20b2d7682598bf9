import LazyInject
import Testing

private final class ResourceLoader {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class RequestManager {}
private class ViewController {}
private final class UsersViewController: ViewController {}

private struct LoaderInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register(ResourceLoader.self, in: UsersViewController.self) { _ in
      ResourceLoader("users")
    }
    registry.register(ResourceLoader.self) { _ in ResourceLoader("default") }
  }
}

private struct NetworkInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
  }
}

/// Not installed anywhere: `.shared` has no automatic module for it.
private final class NotInstalled {}

struct InitializerModuleTests {
  @Test func installRegistersEveryModule() throws {
    let registry = InitializerRegistry()
    registry.install(LoaderInitializers(), NetworkInitializers())
    #expect(try registry.resolve(ResourceLoader.self, for: UsersViewController()).name == "users")
    #expect(try registry.resolve(ResourceLoader.self, for: ViewController()).name == "default")
    #expect(
      try registry.resolve(RequestManager.self, for: ViewController())
        === registry.resolve(RequestManager.self, for: UsersViewController()))
  }

  // Automatic installation needs a conformance of `InitializerRegistry`, and a process may hold
  // only one: the demo declares it, so LazyInjectDemoTests checks it.

  @Test func modulesInstallInOrderSoALaterModuleReplacesAnEarlierRule() throws {
    struct Override: InitializerModule {
      func register(in registry: InitializerRegistry) {
        registry.register(ResourceLoader.self) { _ in ResourceLoader("override") }
      }
    }
    let registry = InitializerRegistry()
    registry.duplicateRegistrationHandler = { _ in }
    registry.install(LoaderInitializers(), Override())
    #expect(try registry.resolve(ResourceLoader.self, for: ViewController()).name == "override")
    #expect(throws: ResolutionError.self) {
      try registry.resolve(NotInstalled.self, for: ViewController())
    }
  }
}
