import LazyInject
import Testing

private class Loader {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class DefaultBuilt: DefaultInitializable {
  let name = "init()"
  init() {}
}

private class ViewController {}
private class UsersViewController: ViewController {}
private final class AdminUsersViewController: UsersViewController {}
private final class ProjectsViewController: ViewController {}

struct ResolutionOrderTests {
  @Test func containerRegistrationWinsOverRootDefault() throws {
    let registry = InitializerRegistry()
    registry.register(Loader.self) { _ in Loader("root") }
    registry.register(Loader.self, in: UsersViewController.self) { _ in Loader("users") }
    #expect(try registry.resolve(Loader.self, for: UsersViewController()).name == "users")
    #expect(try registry.resolve(Loader.self, for: ProjectsViewController()).name == "root")
  }

  @Test func rootDefaultServesEveryContainer() throws {
    let registry = InitializerRegistry()
    registry.register(Loader.self) { _ in Loader("root") }
    #expect(try registry.resolve(Loader.self, for: ViewController()).name == "root")
    #expect(try registry.resolve(Loader.self, for: AdminUsersViewController()).name == "root")
  }

  @Test func defaultInitializableTypeIsBuiltWithInitWhenNothingIsRegistered() throws {
    let registry = InitializerRegistry()
    #expect(try registry.resolve(DefaultBuilt.self, for: ViewController()).name == "init()")
  }

  @Test func registrationWinsOverInit() throws {
    let registry = InitializerRegistry()
    registry.register(DefaultBuilt.self, in: ViewController.self) { _ in
      struct Marker: Error {}
      throw Marker()
    }
    #expect(throws: ResolutionError.self) {
      try registry.resolve(DefaultBuilt.self, for: ViewController())
    }
  }

  @Test func subclassInheritsItsSuperclassRegistration() throws {
    let registry = InitializerRegistry()
    registry.register(Loader.self, in: UsersViewController.self) { _ in Loader("users") }
    #expect(try registry.resolve(Loader.self, for: AdminUsersViewController()).name == "users")
  }

  @Test(arguments: [false, true])
  func subclassRegistrationWinsOverSuperclassWhateverTheOrder(subclassFirst: Bool) throws {
    let registry = InitializerRegistry()
    let registrations = [
      { registry.register(Loader.self, in: UsersViewController.self) { _ in Loader("users") } },
      {
        registry.register(Loader.self, in: AdminUsersViewController.self) { _ in Loader("admin") }
      },
      { registry.register(Loader.self) { _ in Loader("root") } },
    ]
    for register in subclassFirst ? registrations.reversed() : registrations {
      register()
    }
    #expect(try registry.resolve(Loader.self, for: AdminUsersViewController()).name == "admin")
    #expect(try registry.resolve(Loader.self, for: UsersViewController()).name == "users")
    #expect(try registry.resolve(Loader.self, for: ProjectsViewController()).name == "root")
  }

  @Test func registrationAfterAResolutionAppliesToLaterResolutions() throws {
    let registry = InitializerRegistry()
    registry.register(Loader.self) { _ in Loader("root") }
    #expect(try registry.resolve(Loader.self, for: UsersViewController()).name == "root")
    registry.register(Loader.self, in: ViewController.self) { _ in Loader("base") }
    #expect(try registry.resolve(Loader.self, for: UsersViewController()).name == "base")
    registry.register(Loader.self, in: UsersViewController.self) { _ in Loader("users") }
    #expect(try registry.resolve(Loader.self, for: AdminUsersViewController()).name == "users")
  }

  @Test func unregisterFallsBackToTheNextRule() throws {
    let registry = InitializerRegistry()
    registry.register(Loader.self) { _ in Loader("root") }
    registry.register(Loader.self, in: UsersViewController.self) { _ in Loader("users") }
    #expect(try registry.resolve(Loader.self, for: UsersViewController()).name == "users")
    registry.unregister(Loader.self, in: UsersViewController.self)
    #expect(try registry.resolve(Loader.self, for: UsersViewController()).name == "root")
    registry.unregister(Loader.self)
    #expect(throws: ResolutionError.self) {
      try registry.resolve(Loader.self, for: UsersViewController())
    }
  }

  @Test func removeAllForgetsEveryRegistration() throws {
    let registry = InitializerRegistry()
    registry.register(Loader.self) { _ in Loader("root") }
    registry.register(DefaultBuilt.self, in: ViewController.self) { _ in DefaultBuilt() }
    registry.unregisterAll()
    let error = try #require(throws: ResolutionError.self) {
      try registry.resolve(Loader.self, for: ViewController())
    }
    #expect(error.kind == .missingInitializer)
  }

  @Test func initializerReceivesTheContainerAsSender() throws {
    let registry = InitializerRegistry()
    registry.register(Loader.self, in: UsersViewController.self) { sender in
      Loader(String(describing: type(of: sender)))
    }
    #expect(
      try registry.resolve(Loader.self, for: AdminUsersViewController()).name
        == "AdminUsersViewController")
  }

  @Test func registriesAreIndependent() throws {
    let first = InitializerRegistry()
    let second = InitializerRegistry()
    first.register(Loader.self) { _ in Loader("first") }
    #expect(try first.resolve(Loader.self, for: ViewController()).name == "first")
    #expect(throws: ResolutionError.self) {
      try second.resolve(Loader.self, for: ViewController())
    }
  }
}
