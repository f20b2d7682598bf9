import LazyInject
import Testing

private final class Session: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class Api: Sendable {
  let session: Session
  init(_ session: Session) { self.session = session }
}

private final class Clock: Sendable {}

private final class Screen {
  @Lazy var api: Api
}

/// A registry whose `.singleton` (or `.weak`) `Api` is built from a unique `Session`.
private func registry(apiScope: InitializerRegistry.Scope = .singleton) -> InitializerRegistry {
  let registry = InitializerRegistry()
  registry.register(Session.self) { _ in Session("real") }
  registry.register(Api.self, scope: apiScope) { [unowned registry] sender in
    Api(try registry.resolve(Session.self, for: sender))
  }
  return registry
}

struct OverrideSingletonTests {
  @Test func singletonBuiltWithAMockNeverLeavesItsLayer() throws {
    let registry = registry()
    weak var built: Api?
    let inside = try registry.withOverrides {
      $0.register(Session.self) { _ in Session("mock A") }
    } operation: {
      let api = try registry.resolve(Api.self, for: Screen())
      built = api
      // Within the layer, the singleton is still built once.
      #expect(try registry.resolve(Api.self, for: Screen()) === api)
      return api.session.name
    }
    #expect(inside == "mock A")
    #expect(built == nil, "the layer's singleton outlived the layer")
    #expect(try registry.resolve(Api.self, for: Screen()).session.name == "real")
  }

  @Test func weakInstanceBuiltWithAMockNeverLeavesItsLayer() throws {
    let registry = registry(apiScope: .weak)
    let mock = try registry.withOverrides {
      $0.register(Session.self) { _ in Session("mock") }
    } operation: {
      try registry.resolve(Api.self, for: Screen())
    }
    #expect(mock.session.name == "mock")
    // `mock` is still alive here: a leak would hand it out.
    #expect(try registry.resolve(Api.self, for: Screen()).session.name == "real")
  }

  @Test func productionSingletonBuiltInsideAScopeWithoutOverridesStaysShared() throws {
    let registry = registry()
    let inside = try registry.withOverrides {
      $0.register(Clock.self) { _ in Clock() }  // A rule the build does not use.
    } operation: {
      try registry.resolve(Api.self, for: Screen())
    }
    #expect(inside.session.name == "real")
    #expect(try registry.resolve(Api.self, for: Screen()) === inside)
  }

  @Test func nestedResolutionThatUsedTheMockMarksEveryOuterSingleton() throws {
    final class Client: Sendable {
      let api: Api
      init(_ api: Api) { self.api = api }
    }
    let registry = registry()
    registry.register(Client.self, scope: .singleton) { [unowned registry] sender in
      Client(try registry.resolve(Api.self, for: sender))
    }
    let inside = try registry.withOverrides {
      $0.register(Session.self) { _ in Session("mock") }
    } operation: {
      try registry.resolve(Client.self, for: Screen()).api.session.name
    }
    #expect(inside == "mock")
    #expect(try registry.resolve(Client.self, for: Screen()).api.session.name == "real")
  }

  @Test func parallelScopesEachSeeTheSingletonBuiltWithTheirOwnMock() async throws {
    let registry = registry()
    let names = try await withThrowingTaskGroup(of: (Int, String).self) { group in
      for index in 0..<8 {
        group.addTask {
          try registry.withOverrides {
            $0.register(Session.self) { _ in Session("mock \(index)") }
          } operation: {
            (index, try registry.resolve(Api.self, for: Screen()).session.name)
          }
        }
      }
      return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }
    #expect(names == Dictionary(uniqueKeysWithValues: (0..<8).map { ($0, "mock \($0)") }))
    #expect(try registry.resolve(Api.self, for: Screen()).session.name == "real")
  }

  @Test func lazyPropertyOfTheSharedRegistryKeepsTheMockInsideTheLayer() {
    let shared = InitializerRegistry.shared
    shared.register(Session.self, in: Screen.self) { _ in Session("real") }
    shared.register(Api.self, in: Screen.self, scope: .singleton) { sender in
      Api(try shared.resolve(Session.self, for: sender))
    }
    let inside = shared.withOverrides {
      $0.register(Session.self, in: Screen.self) { _ in Session("mock A") }
    } operation: {
      Screen().api.session.name
    }
    #expect(inside == "mock A")
    #expect(Screen().api.session.name == "real")
  }
}
