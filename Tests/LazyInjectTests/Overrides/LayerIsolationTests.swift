import LazyInject
import Testing

// The promise these tests try to break: no override layer (and not the registry) keeps a shared
// instance whose build used a rule of a layer other than itself and those it nests in, whichever
// path built it. Test A's layer mocks `Config`; test B's layer registers a singleton `Service`
// whose initializer reads its sender's `config`.

private final class Config: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class Service: Sendable {
  let config: Config
  init(_ config: Config) { self.config = config }
}

private protocol ServiceLike: AnyObject, Sendable {
  var config: Config { get }
}
extension Service: ServiceLike {}

private final class Screen {
  @Lazy var config: Config
  @Lazy var service: Service
  @Lazy var forwarded: any ServiceLike
}

/// A registry singleton with a `@Lazy` property of its own.
private final class Session: @unchecked Sendable {
  // Read from one thread at a time in these tests; `@Lazy` guards its slot.
  @Lazy var config: Config
}

private final class SessionHolder {
  @Lazy var session: Session
}

struct LayerIsolationTests {
  private let registry = InitializerRegistry.shared

  /// The production rules, registered once for the suite's tests.
  private static let production: Void = {
    let registry = InitializerRegistry.shared
    registry.register(Config.self, in: Screen.self) { _ in Config("live") }
    registry.register(Config.self, in: Session.self) { _ in Config("live") }
    registry.register(Service.self, in: Screen.self) { _ in Service(Config("production")) }
    registry.register(Session.self, in: SessionHolder.self, scope: .singleton) { _ in Session() }
  }()

  init() {
    Self.production
  }

  /// A screen made in test A's layer, which mocks `Config`, with its config read there.
  private func screenOfTestA(resettingService: Bool) -> Screen {
    registry.withOverrides {
      $0.register(Config.self, in: Screen.self) { _ in Config("mock A") }
    } operation: {
      let screen = Screen()
      _ = screen.config
      if resettingService {
        _ = screen.service
        screen.$service.reset()
      }
      return screen
    }
  }

  /// Runs `body` in test B's layer, whose singleton `Service` reads its sender's config.
  private func inTestB(_ body: () throws -> Void) rethrows {
    try registry.withOverrides {
      $0.register(Service.self, in: Screen.self, scope: .singleton) { screen in
        Service(screen.config)
      }
      $0.forward((any ServiceLike).self, in: Screen.self, to: Service.self)
    } operation: {
      try body()
    }
  }

  @Test func resetPropertyReadInAnotherTestKeepsNoInstanceBuiltWithTheFirstTestsMock() {
    let old = screenOfTestA(resettingService: true)
    inTestB {
      #expect(old.service.config.name == "mock A")  // Built for that read alone.
      #expect(Screen().service.config.name == "live")
      #expect(Screen().service === Screen().service)  // B's singleton is still kept.
    }
  }

  @Test func firstReadInAnotherTestKeepsNoInstanceBuiltWithTheFirstTestsMock() {
    let old = screenOfTestA(resettingService: false)
    inTestB {
      #expect(old.service.config.name == "mock A")
      #expect(Screen().service.config.name == "live")
    }
  }

  @Test func explicitResolutionKeepsNoInstanceBuiltWithAnotherTestsMock() throws {
    let old = screenOfTestA(resettingService: false)
    try inTestB {
      let built = try registry.resolve(Service.self, for: old)
      #expect(built.config.name == "mock A")
      #expect(Screen().service.config.name == "live")
    }
  }

  @Test func forwardKeepsNoInstanceBuiltWithAnotherTestsMock() {
    let old = screenOfTestA(resettingService: false)
    inTestB {
      #expect(old.forwarded.config.name == "mock A")
      #expect(Screen().forwarded.config.name == "live")
    }
  }

  @Test func registrySingletonsOwnFirstReadsIgnoreTheReadersLayers() {
    // Made inside test A's layer, with no rule of it: the registry keeps the session.
    let session = registry.withOverrides {
      $0.register(Config.self, in: Session.self) { _ in Config("mock A") }
    } operation: {
      SessionHolder().session
    }
    registry.withOverrides {
      $0.register(Config.self, in: Session.self) { _ in Config("mock B") }
    } operation: {
      #expect(SessionHolder().session === session)
      // The session is everyone's: its own first read takes no test's mock.
      #expect(session.config.name == "live")
    }
  }
}
