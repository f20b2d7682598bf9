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

/// Installed into `.shared` by `InitializerRegistry.automaticModules` in `Support/`.
final class AutomaticallyInstalled {
  let origin: String
  init(origin: String) { self.origin = origin }
}

struct AutomaticallyInstalledInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    registry.register(AutomaticallyInstalled.self) { _ in AutomaticallyInstalled(origin: "module") }
  }
}

private final class AutomaticScreen {
  @Lazy var installed: AutomaticallyInstalled
}

struct InitializerModuleTests {
  @Test func testInstallRegistersEveryModule() throws {
    let registry = InitializerRegistry()
    registry.install(LoaderInitializers(), NetworkInitializers())
    #expect(try registry.resolve(ResourceLoader.self, for: UsersViewController()).name == "users")
    #expect(try registry.resolve(ResourceLoader.self, for: ViewController()).name == "default")
    #expect(try registry.resolve(RequestManager.self, for: ViewController())
      === registry.resolve(RequestManager.self, for: UsersViewController()))
  }

  @Test func testSharedRegistryInstallsAutomaticModulesBeforeItsFirstResolution() {
    // No test calls install for this module: `.shared` found it through the conformance.
    #expect(AutomaticScreen().installed.origin == "module")
  }

  @Test func testIndependentRegistriesDoNotInstallAutomaticModules() {
    #expect(throws: ResolutionError.self) {
      try InitializerRegistry().resolve(AutomaticallyInstalled.self, for: ViewController())
    }
  }
}
