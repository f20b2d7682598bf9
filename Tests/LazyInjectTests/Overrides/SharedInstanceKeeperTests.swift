import LazyInject
import Testing

// Who keeps a shared instance that a build made where override layers are in force: the one
// policy, for synchronous and async builds alike. A build that used no layer's rule, directly or
// through the values it read, is the registry's, shared as usual; one that used a layer's rule is
// that layer's; one that used the rules of layers that are no single chain is nobody's. These
// are the cases a checker of random programs found diverging from the articles.

private final class Session: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class Api: Sendable {
  let session: Session?
  init(session: Session? = nil) { self.session = session }
}

private final class Database: Sendable {}

/// Read from one task at a time in these tests; `@Lazy` guards its slots.
private final class Screen: @unchecked Sendable {
  @Lazy var session: Session
  @Lazy var api: Api
  @Lazy var database: Database
  @Lazy var forwardedApi: any ApiLike
}

private protocol ApiLike: AnyObject, Sendable {}
extension Api: ApiLike {}

/// A screen whose `Api` rule reads its sender's session, already resolved.
private final class ReadingScreen: @unchecked Sendable {
  @Lazy var session: Session
  @Lazy var api: Api
}

private final class Profile: Sendable {
  let session: String
  init(session: String) { self.session = session }
}

private final class ProfileScreen: @unchecked Sendable {
  @Lazy var session: Session
  @Lazy var profile: Profile
}

/// Reads its session in its `Api`'s initializer, as a first read.
private final class Holder: @unchecked Sendable {
  @Lazy var session: Session
  @Lazy var api: Api
}

struct SharedInstanceKeeperTests {
  private let registry = InitializerRegistry.shared

  /// The production rules, registered once on the registry for the suite's private types: a
  /// session, and singletons of `Api`, one of which reads nothing of its sender.
  private static let production: Void = {
    let registry = InitializerRegistry.shared
    registry.register(Session.self, in: Screen.self) { _ in Session("production") }
    registry.register(Session.self, in: ReadingScreen.self) { _ in Session("production") }
    registry.register(Session.self, in: Holder.self) { _ in Session("production") }
    registry.register(Session.self, in: ProfileScreen.self) { _ in Session("production") }
    registry.register(Api.self, in: Screen.self, scope: .singleton) { _ in Api() }
    registry.register(Api.self, in: ReadingScreen.self, scope: .singleton) { sender in
      Api(session: sender.session)
    }
    registry.register(Api.self, in: Holder.self, scope: .singleton) { sender in
      Api(session: sender.session)  // A first read, inside the build.
    }
    registry.forward((any ApiLike).self, in: Screen.self, to: Api.self)
    registry.register(Database.self, scope: .singleton) {
      await Task.yield()
      return Database()
    }
    registry.register(Profile.self, in: ProfileScreen.self, scope: .singleton) { screen in
      await Task.yield()
      return Profile(session: screen.session.name)
    }
  }()

  init() { Self.production }

  /// A mock session, in a layer over the registry.
  private func mockSession(_ configure: InitializerRegistry) {
    configure.register(Session.self) { _ in Session("mock") }
  }

  @Test func singletonThatReadNothingIsSharedThoughItsSenderHoldsALayersValue() {
    let screen = registry.withOverrides(mockSession) { Screen() }
    #expect(screen.session.name == "mock")  // The sender holds the mock layer's value.
    let (first, second) = (screen.api, Screen().api)
    #expect(first === second)  // The build read nothing: the registry's, shared as usual.
  }

  @Test func singletonThatReadALayersValueIsNotSharedOutsideThatLayer() {
    let screen = registry.withOverrides(mockSession) { ReadingScreen() }
    #expect(screen.session.name == "mock")
    let built = screen.api
    #expect(built.session?.name == "mock")
    #expect(ReadingScreen().api !== built)  // It read the mock: not the registry's.
    #expect(ReadingScreen().api.session?.name == "production")
  }

  @Test func singletonBuiltWhereTwoUnrelatedLayersMeetWithNoLayersRuleIsShared() {
    let screenOfA = registry.withOverrides { _ in
    } operation: {
      Screen()
    }
    registry.withOverrides { _ in
    } operation: {
      let (fromA, fromB) = (screenOfA.api, Screen().api)
      #expect(fromA === fromB)
    }
    #expect(Screen().api === screenOfA.api)
  }

  @Test func explicitResolutionOfASingletonThatReadNothingIsShared() throws {
    let screen = registry.withOverrides(mockSession) { Screen() }
    _ = screen.session
    let resolved = try registry.resolve(Api.self, for: screen)
    #expect(resolved === Screen().api)
  }

  @Test func forwardToASingletonThatReadNothingIsShared() {
    let screen = registry.withOverrides(mockSession) { Screen() }
    _ = screen.session
    #expect(screen.forwardedApi === Screen().api)
  }

  @Test func valuesFirstReadByASingletonsInitializerCountAsRead() {
    let holder = registry.withOverrides(mockSession) { Holder() }
    let built = holder.api
    #expect(built.session?.name == "mock")
    #expect(Holder().api !== built)
    #expect(Holder().api.session?.name == "production")
  }

  @Test func asyncSingletonLoadedInALayerThatOverridesNothingIsTheRegistrys() async throws {
    let loaded = try await registry.withOverrides { _ in
    } operation: {
      try await Screen().$database.load()
    }
    let again = try registry.resolve(Database.self, for: Screen())
    #expect(again === loaded)
  }

  @Test func asyncSingletonThatReadALayersValueIsKeptByThatLayerAlone() async throws {
    let mocked = try await registry.withOverrides(mockSession) {
      let profile = try await ProfileScreen().$profile.load()
      #expect(try await ProfileScreen().$profile.load() === profile)  // Kept by the layer.
      return profile
    }
    #expect(mocked.session == "mock")
    let production = try await ProfileScreen().$profile.load()
    #expect(production !== mocked)
    #expect(production.session == "production")
  }
}
